/// One item of a feed — an RSS `item`, an Atom `entry`, a JSON Feed item — in
/// gofeed's universal model, field for field.
///
/// Which element fills which field is gofeed's rule for each format (see
/// the module's documentation): an RSS item's ``published`` is its `pubDate`,
/// else `dc:date`, else an embedded `atom:published`; its ``author`` is `author`,
/// else `dc:author`, `dc:creator`, `itunes:author`, an embedded `atom:author`.
/// Dates keep their text (``published``) beside the instant read from it
/// (``publishedParsed``, `nil` when the text is not a date this library knows).
public struct FeedItem: Sendable, Hashable {
    /// RSS `title` (else `dc:title`), Atom `title`, JSON Feed `title`.
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
    /// When the item last changed, as written: RSS `dc:date` (else an embedded
    /// `atom:updated`), Atom `updated`, JSON Feed `date_modified`.
    public var updated: String?
    /// ``updated`` read as an instant; `nil` when it is not a date.
    public var updatedParsed: FeedDate?
    /// When the item appeared, as written: RSS `pubDate` (else `dc:date`, an
    /// embedded `atom:published`), Atom `published` (else `updated`), JSON Feed
    /// `date_published`.
    public var published: String?
    /// ``published`` read as an instant; `nil` when it is not a date.
    public var publishedParsed: FeedDate?
    /// The first author (gofeed keeps it beside ``authors``).
    public var author: Person?
    /// RSS: the one author of ``author``; Atom: every `author`; JSON Feed `authors`
    /// (else `author`).
    public var authors: [Person] = []
    /// RSS `guid`, Atom `id`, JSON Feed `id`.
    public var guid: String?
    /// RSS `itunes:image`, a Media RSS image, an image enclosure, else the first
    /// `<img>` of the content or description; JSON Feed `image` (else
    /// `banner_image`); none for Atom, as in gofeed.
    public var image: Image?
    /// RSS `category`, `itunes:keywords`, `dc:subject` and embedded `atom:category`
    /// terms; Atom `category` labels (else terms); JSON Feed `tags`.
    public var categories: [String] = []
    /// The files attached: RSS `enclosure`, Atom `link rel="enclosure"`, JSON Feed
    /// `attachments`.
    public var enclosures: [Enclosure] = []
    /// The item's Dublin Core elements, when it has any.
    public var dublinCore: DublinCoreExtension?
    /// The episode's iTunes elements, when it has any.
    public var iTunes: ITunesItemExtension?
    /// The episode's Podcasting 2.0 elements (`podcast:`), typed, when it has any.
    public var podcast: PodcastItemExtension?
    /// Elements of other namespaces, by prefix and name.
    public var extensions: Extensions = [:]
    /// RSS item elements in no namespace that RSS does not define, by name, with
    /// their text (gofeed's `custom`).
    public var custom: [String: String] = [:]

    /// An empty item, to fill in.
    public init() {}

    /// ``publishedParsed`` as a Foundation date.
    public var publishedDate: Date? { publishedParsed?.date }
    /// ``updatedParsed`` as a Foundation date.
    public var updatedDate: Date? { updatedParsed?.date }
}

import Foundation
