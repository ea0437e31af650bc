/// One item of a feed — an RSS `item`, an Atom `entry`, a JSON Feed item — in
/// gofeed's universal model, field for field.
///
/// Which element fills which field is gofeed's rule for each format (see
/// `Sources/IngestFeeds/README.md`): an RSS item's ``published`` is its `pubDate`,
/// else `dc:date`, else an embedded `atom:published`; its ``author`` is `author`,
/// else `dc:author`, `dc:creator`, `itunes:author`, an embedded `atom:author`.
/// Dates keep their text (``published``) beside the instant read from it
/// (``publishedParsed``, `nil` when the text is not a date this library knows).
public struct FeedItem: Sendable, Hashable {
    public var title: FeedText?
    /// The summary: RSS `description`, Atom `summary`, JSON Feed `summary`.
    public var description: FeedText?
    /// The full content: RSS `content:encoded`, Atom `content`, JSON Feed
    /// `content_html` (else `content_text`).
    public var content: FeedText?
    /// The item's page.
    public var link: String?
    /// gofeed's `links`: every link of the item that points at a page (`alternate`,
    /// `self` or no relation in Atom; every `link` in RSS).
    public var links: [Link] = []
    public var updated: String?
    public var updatedParsed: FeedDate?
    public var published: String?
    public var publishedParsed: FeedDate?
    /// The first author (gofeed keeps it beside ``authors``).
    public var author: Person?
    public var authors: [Person] = []
    /// RSS `guid`, Atom `id`, JSON Feed `id`.
    public var guid: String?
    public var image: Image?
    public var categories: [String] = []
    public var enclosures: [Enclosure] = []
    public var dublinCore: DublinCoreExtension?
    public var iTunes: ITunesItemExtension?
    /// Elements of other namespaces, by prefix and name.
    public var extensions: Extensions = [:]
    /// RSS item elements in no namespace that RSS does not define, by name, with
    /// their text (gofeed's `custom`).
    public var custom: [String: String] = [:]

    public init() {}

    /// ``publishedParsed`` as a Foundation date.
    public var publishedDate: Date? { publishedParsed?.date }
    /// ``updatedParsed`` as a Foundation date.
    public var updatedDate: Date? { updatedParsed?.date }
}

import Foundation
