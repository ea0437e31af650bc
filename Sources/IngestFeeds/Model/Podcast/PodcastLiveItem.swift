/// A live stream (`podcast:liveItem`, channel level). What is typed here: its
/// attributes, its `title` and `guid`, and its `podcast:contentLink` and
/// `podcast:alternateEnclosure` children. Everything else inside — an `enclosure`,
/// persons, images… — stays in the element, in the feed's ``Feed/extensions``
/// (`["podcast"]["liveItem"]`): an extension's children are kept by local name
/// alone, so a `podcast:person` there cannot be told from another namespace's.
/// Always kept.
public struct PodcastLiveItem: Sendable, Hashable {
    /// `status`: `pending`, `live` or `ended`.
    public var status: String?
    /// `start`: when the stream is meant to start, as written (ISO 8601).
    public var start: String?
    /// ``start`` read by ``FeedDateParser``; `nil` when it is not a date.
    public var startParsed: FeedDate?
    /// `end`: when the stream is meant to end, as written.
    public var end: String?
    /// ``end`` read by ``FeedDateParser``; `nil` when it is not a date.
    public var endParsed: FeedDate?
    /// The `title` child.
    public var title: String?
    /// The `guid` child: a new GUID is a new stream.
    public var guid: String?
    /// The `podcast:contentLink` children: pages where the stream can be followed.
    public var contentLinks: [PodcastContentLink] = []
    /// The `podcast:alternateEnclosure` children: the stream's sources.
    public var alternateEnclosures: [PodcastAlternateEnclosure] = []

    /// The live stream `element` describes.
    public init(_ element: Extension) {
        status = element.podcastAttribute("status")
        start = element.podcastAttribute("start")
        startParsed = PodcastValueReading.date(start)
        end = element.podcastAttribute("end")
        endParsed = PodcastValueReading.date(end)
        title = element.child("title")?.podcastText
        guid = element.child("guid")?.podcastText
        contentLinks = PodcastContentLink.all(in: element.children)
        alternateEnclosures = (element.children["alternateEnclosure"] ?? []).map(PodcastAlternateEnclosure.init)
    }
}

/// A page where content can be followed (`podcast:contentLink`): a live stream on
/// another platform, a web player. Skipped without an `href`.
public struct PodcastContentLink: Sendable, Hashable {
    /// `href`: the page.
    public var href: String
    /// The element's text: what the link says.
    public var text: String?

    /// The link `element` gives; `nil` when it has no `href`.
    public init?(_ element: Extension) {
        guard let href = element.podcastAttribute("href") else { return nil }
        self.href = href
        text = element.podcastText
    }

    /// The content links among `children` (an element's, by local name).
    static func all(in children: [String: [Extension]]) -> [PodcastContentLink] {
        (children["contentLink"] ?? []).compactMap(PodcastContentLink.init)
    }
}
