/// A feed an HTML page advertises with `<link rel="alternate" type="…" href="…">`.
public struct DiscoveredFeed: Sendable, Hashable {
    /// The feed's address, resolved against the page's base.
    public var url: String
    /// The link's media type, in lower case and without parameters:
    /// `application/rss+xml`, `application/atom+xml`, `application/feed+json`…
    public var type: String
    /// The link's `title`, if it has one.
    public var title: String?

    /// A feed found at `url`; see the properties.
    public init(url: String, type: String, title: String? = nil) {
        self.url = url
        self.type = type
        self.title = title
    }
}

/// Feed autodiscovery: the feeds an HTML page advertises, as browsers and feed
/// readers find them — every `<link>` whose `rel` has the token `alternate` and
/// whose `type` is a feed's, in the page's order, each address once, resolved
/// against the page's `<base href>` (itself resolved against the page's address).
///
/// ```swift
/// let page = #"<html><head><link rel="alternate" type="application/atom+xml" href="/atom.xml"></head></html>"#
/// let feeds = FeedDiscovery.feeds(inHTML: page, pageURL: "https://site.example/blog/")
/// print(feeds.first?.url ?? "none")   // https://site.example/atom.xml
/// ```
public enum FeedDiscovery {
    /// The media types of feeds: RSS, RSS 1.0 (RDF), Atom and JSON Feed (whose
    /// version 1.0 used `application/json`).
    public static let feedTypes: Set<String> = [
        "application/rss+xml", "application/rdf+xml", "application/atom+xml", "application/feed+json",
        "application/json",
        "application/x.atom+xml", "application/x-atom+xml", "text/xml", "application/xml"
    ]

    /// The feeds `html` advertises, resolved against `pageURL` (the address the
    /// page was read from; `nil` keeps relative addresses as written).
    public static func feeds(inHTML html: String, pageURL: String?) -> [DiscoveredFeed] {
        var html = html
        var base = pageURL.map(URIReference.init)
        var found: [DiscoveredFeed] = []
        var seen: Set<String> = []
        html.withUTF8 { bytes in
            func text(_ range: Range<Int>?) -> String? {
                range.map {
                    HTMLText.decodingReferences(
                        String(decoding: UnsafeBufferPointer(rebasing: bytes[$0]), as: UTF8.self))
                }
            }
            var baseSeen = false
            HTMLScanner(bytes: bytes).scan(
                text: { _ in },
                tag: { tag in
                    guard !tag.isEnd else { return nil }
                    if tag.isNamed("script") || tag.isNamed("style") {
                        // Their text is code, never markup: go past their end tag.
                        let end: StaticString = tag.isNamed("script") ? "</script" : "</style"
                        return HTMLScanner.find(end, in: bytes, from: tag.range.upperBound) ?? bytes.count
                    }
                    if tag.isNamed("base"), !baseSeen, let href = text(tag.attribute("href"))?.trimmingASCIIWhiteSpace()
                    {
                        // The first <base href> counts (HTML's rule), itself resolved against the page.
                        baseSeen = true
                        let reference = URIReference(href)
                        base = base.map { reference.resolved(against: $0) } ?? reference
                        return nil
                    }
                    guard tag.isNamed("link"),
                        let rel = text(tag.attribute("rel"))?.lowercased(),
                        rel.split(whereSeparator: {
                            $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\u{0C}"
                        })
                        .contains("alternate"),
                        let type = text(tag.attribute("type"))?.split(separator: ";").first
                            .map({ String($0).trimmingASCIIWhiteSpace().lowercased() }),
                        feedTypes.contains(type),
                        let href = text(tag.attribute("href"))?.trimmingASCIIWhiteSpace(), !href.isEmpty
                    else { return nil }
                    let reference = URIReference(href)
                    let url = (base.map { reference.resolved(against: $0) } ?? reference).text
                    if seen.insert(url).inserted {
                        let title = text(tag.attribute("title"))?.trimmingASCIIWhiteSpace()
                        found.append(DiscoveredFeed(url: url, type: type, title: title?.isEmpty == false ? title : nil))
                    }
                    return nil
                })
        }
        return found
    }

    /// Whether a document starting with `prefix` is an HTML page rather than a
    /// feed: after white space, a byte order mark and comments, `<!doctype html` or
    /// `<html`, in any case.
    public static func looksLikeHTML(_ prefix: some Collection<UInt8>) -> Bool {
        var bytes = Array(prefix.prefix(4096))
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        var index = 0
        while index < bytes.count {
            while index < bytes.count, isSpace(bytes[index]) { index += 1 }
            let rest = bytes[index...].prefix(14).map(lower)
            if rest.starts(with: Array("<!--".utf8)) {
                guard let end = find(Array("-->".utf8), in: bytes, from: index + 4) else { return false }
                index = end + 3
                continue
            }
            return rest.starts(with: Array("<!doctype html".utf8)) || rest.starts(with: Array("<html".utf8))
        }
        return false
    }

    private static func find(_ needle: [UInt8], in bytes: [UInt8], from: Int) -> Int? {
        guard from <= bytes.count - needle.count else { return nil }
        return (from...(bytes.count - needle.count)).first { bytes[$0..<$0 + needle.count].elementsEqual(needle) }
    }
}
