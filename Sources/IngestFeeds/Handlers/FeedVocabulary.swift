import IngestCore

/// What an element name means to the feed handlers, worked out once per interned
/// ``IngestCore/Name`` and then found by the name's ``IngestCore/Name/id``: the hot
/// path compares small integers, never strings.
///
/// Which names are the format's own ("core") and which are extensions is decided
/// by namespace URI, gofeed's rule made URI-true: in RSS, names in no namespace,
/// in RSS 1.0's or 0.90's, or RDF's; in Atom, names in Atom's namespace or none.
/// A name in a default namespace the feed declared but nobody knows is core too
/// (gofeed's empty prefix). `content:` is its own space (`content:encoded`).
/// Anything else is an extension, keyed by its canonical prefix or, failing one,
/// the first prefix the feed bound its URI to — or the URI itself, when that
/// prefix is a well-known namespace's or another namespace's of the same feed.
struct FeedTerm {
    enum Space: UInt8 {
        case core, content, `extension`, ignored
    }

    /// Local names the handlers act on, lowercased (RSS names match in any case,
    /// as in gofeed), for RSS and Atom alike; JSON Feed keys too.
    enum Kind: UInt8 {
        case other
        // RSS
        case rss, rdf, channel, item, title, link, description, language, copyright, managingEditor, webMaster,
            pubDate, lastBuildDate, generator, category, image, url, enclosure, guid, author, encoded, textInput,
            skipHours, skipDays, hour, day, ttl, cloud, comments, source, content
        // Atom
        case feed, entry, id, updated, modified, published, issued, subtitle, tagline, rights, summary,
            contributor, name, email, uri, homepage, icon, logo
        // JSON Feed keys (shared ones above: title, url, id, summary, image, author…)
        case version, homePageURL, feedURL, favicon, authors, items, externalURL, contentHTML, contentText,
            bannerImage, datePublished, dateModified, tags, attachments, mimeType, sizeInBytes, avatar
    }

    var kind: Kind
    var space: Space
    /// Index into ``FeedVocabulary/extensionNames`` for an extension, else -1.
    var extensionIndex: Int32 = -1
}

/// The per-parse cache of ``FeedTerm``s, and the extension keys assigned so far.
final class FeedVocabulary {
    // Safety: one thread, no reentrance: a vocabulary belongs to one parse session,
    // used by that parse's handlers on its thread, and calls out to nothing.
    /// By name id; `nil` until the name is first seen.
    @exclusivity(unchecked) private var terms: [FeedTerm?] = []
    /// By name id: the local name (an unbound `prefix:` split off), once computed.
    @exclusivity(unchecked) private var locals: [String?] = []
    /// Extension key and local name of each extension term.
    private(set) var extensionNames: [(key: String, local: String)] = []
    /// The key given to each namespace URI that has no canonical prefix.
    private var keysByURI: [String: String] = [:]
    private var usedKeys: Set<String> = []
    /// Keys under which Atom elements embedded in RSS are filed, in first-seen order.
    private(set) var atomKeys: [String] = []

    var family: FeedFormat.Family = .rss

    /// The key an extension term's element is filed under: its namespace's prefix.
    func extensionKey(_ term: FeedTerm) -> String {
        extensionNames[Int(term.extensionIndex)].key
    }

    /// The meaning of `name`.
    @inline(__always)
    func term(_ name: Name) -> FeedTerm {
        if name.id < terms.count, let term = terms[name.id] { return term }
        return classify(name)
    }

    /// `name`'s local part: `encoded` for `content:encoded`, bound or not.
    func local(_ name: Name) -> String {
        if name.id < locals.count, let local = locals[name.id] { return local }
        let local: String
        if name.namespaceURI == nil, let colon = name.local.firstIndex(of: ":") {
            local = String(name.local[name.local.index(after: colon)...])
        } else {
            local = name.local
        }
        if locals.count <= name.id { locals.append(contentsOf: repeatElement(nil, count: name.id + 1 - locals.count)) }
        locals[name.id] = local
        return local
    }

    private func classify(_ name: Name) -> FeedTerm {
        var uri = name.namespaceURI
        var local = Substring(name.local)
        var prefix: Substring?
        var unbound = false
        if uri == nil, let colon = local.firstIndex(of: ":") {
            // A prefix nothing declared (recovering mode): read it as what it usually means.
            prefix = local[..<colon]
            local = local[local.index(after: colon)...]
            uri = FeedNamespaces.conventionalURIs[String(prefix!)]
            unbound = true
        } else if let colon = name.qualified.firstIndex(of: ":") {
            prefix = name.qualified[..<colon]
        }
        var term: FeedTerm
        if uri == FeedNamespaces.xml {
            term = FeedTerm(kind: .other, space: .ignored)
        } else if uri == FeedNamespaces.content {
            term = FeedTerm(kind: Self.kind(local), space: .content)
        } else if uri == nil || isCore(uri!) || (prefix == nil && FeedNamespaces.canonicalPrefix(for: uri!) == nil)
            || (unbound && (prefix == "rss" || prefix == "rdf"))
        {
            term = FeedTerm(kind: Self.kind(local), space: .core)
        } else {
            let key: String
            if unbound {
                key = String(prefix!)
            } else if let canonical = FeedNamespaces.canonicalPrefix(for: uri!) {
                key = canonical
            } else if let known = keysByURI[uri!] {
                key = known
            } else {
                // The feed's prefix, unless a well-known namespace owns it or another
                // namespace of this feed took it: then the URI itself, as gofeed
                // keys a namespace it has no prefix for.
                let declared = prefix.map(String.init) ?? ""
                key =
                    declared.isEmpty || FeedNamespaces.reservedKeys.contains(declared) || usedKeys.contains(declared)
                    ? uri! : declared
                keysByURI[uri!] = key
                usedKeys.insert(key)
            }
            if FeedNamespaces.isAtom(uri), !atomKeys.contains(key) { atomKeys.append(key) }
            term = FeedTerm(kind: .other, space: .extension, extensionIndex: Int32(extensionNames.count))
            extensionNames.append((key, String(local)))
        }
        if terms.count <= name.id { terms.append(contentsOf: repeatElement(nil, count: name.id + 1 - terms.count)) }
        terms[name.id] = term
        return term
    }

    private func isCore(_ uri: String) -> Bool {
        switch family {
        case .rss: uri == FeedNamespaces.rss10 || FeedNamespaces.rss090.contains(uri) || uri == FeedNamespaces.rdf
        case .atom: FeedNamespaces.isAtom(uri)
        case .json: true
        }
    }

    private static let kinds: [String: FeedTerm.Kind] = [
        "rss": .rss, "rdf": .rdf, "channel": .channel, "item": .item, "title": .title, "link": .link,
        "description": .description, "language": .language, "copyright": .copyright,
        "managingeditor": .managingEditor, "webmaster": .webMaster, "pubdate": .pubDate,
        "lastbuilddate": .lastBuildDate, "generator": .generator, "category": .category, "image": .image,
        "url": .url, "enclosure": .enclosure, "guid": .guid, "author": .author, "encoded": .encoded,
        "textinput": .textInput, "skiphours": .skipHours, "skipdays": .skipDays, "hour": .hour, "day": .day,
        "ttl": .ttl, "cloud": .cloud,
        "comments": .comments, "source": .source, "content": .content,
        "feed": .feed, "entry": .entry, "id": .id, "updated": .updated, "modified": .modified,
        "published": .published, "issued": .issued, "subtitle": .subtitle, "tagline": .tagline,
        "rights": .rights, "summary": .summary, "contributor": .contributor, "name": .name, "email": .email,
        "uri": .uri, "homepage": .homepage, "icon": .icon, "logo": .logo,
        "version": .version, "home_page_url": .homePageURL, "feed_url": .feedURL, "favicon": .favicon,
        "authors": .authors, "items": .items, "external_url": .externalURL, "content_html": .contentHTML,
        "content_text": .contentText, "banner_image": .bannerImage, "date_published": .datePublished,
        "date_modified": .dateModified, "tags": .tags, "attachments": .attachments, "mime_type": .mimeType,
        "size_in_bytes": .sizeInBytes, "avatar": .avatar
    ]

    private static func kind(_ local: Substring) -> FeedTerm.Kind {
        kinds[local.lowercased()] ?? .other
    }
}
