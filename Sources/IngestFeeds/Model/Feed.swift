import Foundation

/// A feed — RSS 0.90 to 2.0, RSS 1.0 (RDF), Atom 0.3 and 1.0, JSON Feed 1.0 and
/// 1.1 — in gofeed's universal model, field for field, with its ``items``.
///
/// Read one whole:
///
/// ```swift
/// let feed = try Feed(contentsOf: URL(fileURLWithPath: "podcast.rss"))
/// print(feed.title?.plainText ?? "", feed.format)
/// for item in feed.items { print(item.publishedParsed?.rfc3339 ?? "-", item.title?.plainText ?? "") }
/// ```
///
/// or stream a large one item by item with ``FeedReader``, in flat memory. The
/// format is told from the content, never from a file name. A feed with no items
/// is still a feed; a document that is not a feed is an ``IngestKit/IngestError``
/// of kind `.data`.
///
/// Encoded (`Codable`), a feed is exactly gofeed's JSON: camelCase keys, empty
/// fields left out, `…Parsed` dates in RFC 3339 UTC. ``wellFormed`` and
/// ``firstError`` are not part of it.
public struct Feed: Sendable, Hashable {
    public var title: FeedText?
    /// RSS `description`, Atom `subtitle` (`tagline` in 0.3), JSON Feed `description`.
    public var description: FeedText?
    /// The site the feed belongs to.
    public var link: String?
    /// The feed's own URL, when the feed states it (`atom:link rel="self"`,
    /// JSON Feed `feed_url`).
    public var feedLink: String?
    /// gofeed's `links`: the site and self links, in its order.
    public var links: [Link] = []
    public var updated: String?
    public var updatedParsed: FeedDate?
    public var published: String?
    public var publishedParsed: FeedDate?
    /// The first author (gofeed keeps it beside ``authors``).
    public var author: Person?
    public var authors: [Person] = []
    public var language: String?
    public var image: Image?
    public var copyright: String?
    public var generator: String?
    public var categories: [String] = []
    public var dublinCore: DublinCoreExtension?
    public var iTunes: ITunesFeedExtension?
    /// Elements of other namespaces at the feed level, by prefix and name.
    public var extensions: Extensions = [:]
    public var custom: [String: String] = [:]
    public var items: [FeedItem] = []
    /// RSS, Atom or JSON Feed, and its version.
    public var format: FeedFormat
    /// `false` when the document was not well-formed XML and was read in libxml2's
    /// recovering mode (undeclared prefixes, a bare `&`, a missing end tag…);
    /// ``firstError`` then says what was wrong first.
    public var wellFormed = true
    public var firstError: FeedParseError?

    public init(format: FeedFormat) {
        self.format = format
    }

    /// ``updatedParsed`` as a Foundation date.
    public var updatedDate: Date? { updatedParsed?.date }
    /// ``publishedParsed`` as a Foundation date.
    public var publishedDate: Date? { publishedParsed?.date }
}
