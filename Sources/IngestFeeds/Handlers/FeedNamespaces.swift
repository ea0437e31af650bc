/// The namespaces the feed layer knows, by URI — never by the prefix a feed
/// happens to use.
enum FeedNamespaces {
    static let atom10 = "http://www.w3.org/2005/Atom"
    static let atom03 = "http://purl.org/atom/ns#"
    static let rss10 = "http://purl.org/rss/1.0/"
    static let rss090 = ["http://my.netscape.com/rdf/simple/0.9/", "http://channel.netscape.com/rdf/simple/0.9/"]
    static let rdf = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
    static let content = "http://purl.org/rss/1.0/modules/content/"
    static let xml = "http://www.w3.org/XML/1998/namespace"
    static let xhtml = "http://www.w3.org/1999/xhtml"

    /// The prefix that keys a namespace's extension elements whatever the feed
    /// declared: feedparser's table, which gofeed copies, plus the Podcasting 2.0
    /// namespace and the lowercase iTunes URI.
    static let canonicalPrefixes: [String: String] = [
        "http://webns.net/mvcb/": "admin",
        "http://purl.org/rss/1.0/modules/aggregation/": "ag",
        "http://purl.org/rss/1.0/modules/annotate/": "annotate",
        "http://media.tangent.org/rss/1.0/": "audio",
        "http://backend.userland.com/blogChannelModule": "blogChannel",
        "http://creativecommons.org/ns#license": "cc",
        "http://web.resource.org/cc/": "cc",
        "http://cyber.law.harvard.edu/rss/creativeCommonsRssModule.html": "creativeCommons",
        "http://backend.userland.com/creativeCommonsRssModule": "creativeCommons",
        "http://purl.org/rss/1.0/modules/company": "co",
        "http://purl.org/rss/1.0/modules/content/": "content",
        "http://my.theinfo.org/changed/1.0/rss/": "cp",
        "http://purl.org/dc/elements/1.1/": "dc",
        "http://purl.org/dc/terms/": "dcterms",
        "http://purl.org/rss/1.0/modules/email/": "email",
        "http://purl.org/rss/1.0/modules/event/": "ev",
        "http://rssnamespace.org/feedburner/ext/1.0": "feedburner",
        "http://freshmeat.net/rss/fm/": "fm",
        "http://xmlns.com/foaf/0.1/": "foaf",
        "http://www.w3.org/2003/01/geo/wgs84_pos#": "geo",
        "http://www.georss.org/georss": "georss",
        "http://www.opengis.net/gml": "gml",
        "http://postneo.com/icbm/": "icbm",
        "http://purl.org/rss/1.0/modules/image/": "image",
        "http://www.itunes.com/DTDs/PodCast-1.0.dtd": "itunes",
        "http://example.com/DTDs/PodCast-1.0.dtd": "itunes",
        // The lowercase form Apple's podcast documentation gives, the one most feeds use.
        "http://www.itunes.com/dtds/podcast-1.0.dtd": "itunes",
        "https://www.itunes.com/dtds/podcast-1.0.dtd": "itunes",
        "http://purl.org/rss/1.0/modules/link/": "l",
        "http://search.yahoo.com/mrss": "media",
        "http://search.yahoo.com/mrss/": "media",
        "http://madskills.com/public/xml/rss/module/pingback/": "pingback",
        "http://prismstandard.org/namespaces/1.2/basic/": "prism",
        "http://www.w3.org/1999/02/22-rdf-syntax-ns#": "rdf",
        "http://www.w3.org/2000/01/rdf-schema#": "rdfs",
        "http://purl.org/rss/1.0/modules/reference/": "ref",
        "http://purl.org/rss/1.0/modules/richequiv/": "reqv",
        "http://purl.org/rss/1.0/modules/search/": "search",
        "http://purl.org/rss/1.0/modules/slash/": "slash",
        "http://schemas.xmlsoap.org/soap/envelope/": "soap",
        "http://purl.org/rss/1.0/modules/servicestatus/": "ss",
        "http://hacks.benhammersley.com/rss/streaming/": "str",
        "http://purl.org/rss/1.0/modules/subscription/": "sub",
        "http://purl.org/rss/1.0/modules/syndication/": "sy",
        "http://schemas.pocketsoap.com/rss/myDescModule/": "szf",
        "http://purl.org/rss/1.0/modules/taxonomy/": "taxo",
        "http://purl.org/rss/1.0/modules/threading/": "thr",
        "http://purl.org/rss/1.0/modules/textinput/": "ti",
        "http://madskills.com/public/xml/rss/module/trackback/": "trackback",
        "http://wellformedweb.org/commentAPI/": "wfw",
        "http://purl.org/rss/1.0/modules/wiki/": "wiki",
        "http://www.w3.org/1999/xhtml": "xhtml",
        "http://www.w3.org/1999/xlink": "xlink",
        "http://www.w3.org/XML/1998/namespace": "xml",
        "http://podlove.org/simple-chapters": "psc",
        "https://podcastindex.org/namespace/1.0": "podcast",
        "http://podcastindex.org/namespace/1.0": "podcast"
    ]

    /// For a prefix no declaration binds (read in recovering mode), the namespace it
    /// conventionally stands for, so `content:encoded` and `atom:link` still mean
    /// what feeds mean by them.
    static let conventionalURIs: [String: String] = {
        var table: [String: String] = [:]
        for (uri, prefix) in canonicalPrefixes where table[prefix] == nil { table[prefix] = uri }
        table["atom"] = atom10
        table["atom10"] = atom10
        table["atom03"] = atom03
        table["itunes"] = "http://www.itunes.com/DTDs/PodCast-1.0.dtd"
        table["media"] = "http://search.yahoo.com/mrss/"
        return table
    }()

    /// The canonical prefix of `uri` (``canonicalPrefixes``); the iTunes DTD's
    /// address also in any case and either scheme, as feeds spell it
    /// (`http://www.itunes.com/dtds/Podcast-1.0.dtd`), as feedparser reads it.
    static func canonicalPrefix(for uri: String) -> String? {
        if let prefix = canonicalPrefixes[uri] { return prefix }
        let lowered = uri.lowercased()
        return lowered == "http://www.itunes.com/dtds/podcast-1.0.dtd"
            || lowered == "https://www.itunes.com/dtds/podcast-1.0.dtd" ? "itunes" : nil
    }

    /// Keys no other namespace may take.
    static let reservedKeys = Set(canonicalPrefixes.values)

    static func isAtom(_ uri: String?) -> Bool { uri == atom10 || uri == atom03 }
}
