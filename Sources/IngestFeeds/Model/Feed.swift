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
/// is still a feed; a document that is not a feed is an ``/IngestCore/IngestError``
/// of kind `.data`.
///
/// Encoded (`Codable`), a feed is gofeed's JSON: camelCase keys, empty fields
/// left out, `…Parsed` dates in RFC 3339 UTC — plus, after gofeed's keys and only
/// when the feed has some, its ``updateHints`` under `updateHints`.
/// ``gofeedJSON(prettyPrinted:)`` leaves the hints out. ``wellFormed`` and
/// ``firstError`` are not part of it.
/// The typed Podcasting 2.0 tags (``podcast``), which gofeed lacks, are written by
/// both under `podcastExt`, after `itunesExt`.
public struct Feed: Sendable, Hashable {
    /// RSS `title` (else `dc:title`), Atom `title`, JSON Feed `title`.
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
    /// When the feed last changed, as written: RSS `lastBuildDate` (else `dc:date`),
    /// Atom `updated`, JSON Feed: its first item's `date_modified`.
    public var updated: String?
    /// ``updated`` read as an instant; `nil` when it is not a date.
    public var updatedParsed: FeedDate?
    /// RSS `pubDate`; JSON Feed: its first item's `date_published`.
    public var published: String?
    /// ``published`` read as an instant; `nil` when it is not a date.
    public var publishedParsed: FeedDate?
    /// The first author (gofeed keeps it beside ``authors``).
    public var author: Person?
    /// RSS: the one author of ``author``; Atom: every `author`; JSON Feed: `authors`.
    public var authors: [Person] = []
    /// RSS `language` (else `dc:language`), Atom `xml:lang`, JSON Feed `language`.
    public var language: String?
    /// The feed's artwork: RSS `image`, `itunes:image`, a Media RSS image or the
    /// description's first `<img>`; Atom `logo` (else `icon`); JSON Feed `icon`.
    public var image: Image?
    /// RSS `copyright` (else `dc:rights`), Atom `rights`.
    public var copyright: String?
    /// RSS `generator`; Atom `generator` with its version and URI.
    public var generator: String?
    /// RSS `category`, `itunes:keywords`, `itunes:category` and `dc:subject`; Atom
    /// `category` labels (else terms).
    public var categories: [String] = []
    /// The Dublin Core elements, when the feed has any.
    public var dublinCore: DublinCoreExtension?
    /// The iTunes elements, when the feed has any.
    public var iTunes: ITunesFeedExtension?
    /// The Podcasting 2.0 elements (`podcast:`), typed, when the feed has any.
    public var podcast: PodcastFeedExtension?
    /// Elements of other namespaces at the feed level, by prefix and name.
    public var extensions: Extensions = [:]
    /// gofeed's `custom` map; feeds leave it empty (RSS items fill theirs).
    public var custom: [String: String] = [:]
    /// What the feed says about how often to fetch it (RSS ttl, skipHours, skipDays; sy:updatePeriod/updateFrequency). Not part of gofeed's JSON.
    public var updateHints = FeedUpdateHints()
    /// The items, in document order — empty when read with ``FeedReader``, which
    /// hands them over one by one.
    public var items: [FeedItem] = []
    /// RSS, Atom or JSON Feed, and its version.
    public var format: FeedFormat
    /// `false` when the document was not well-formed XML and was read in libxml2's
    /// recovering mode (undeclared prefixes, a bare `&`, a missing end tag…);
    /// ``firstError`` then says what was wrong first.
    public var wellFormed = true
    /// The first thing wrong with an ill-formed feed; `nil` when ``wellFormed``.
    public var firstError: FeedParseError?

    /// An empty feed of `format`, to fill in.
    public init(format: FeedFormat) {
        self.format = format
    }

    /// ``updatedParsed`` as a Foundation date.
    public var updatedDate: Date? { updatedParsed?.date }
    /// ``publishedParsed`` as a Foundation date.
    public var publishedDate: Date? { publishedParsed?.date }
}
