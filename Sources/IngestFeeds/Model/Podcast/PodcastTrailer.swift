/// A trailer for the show or a season (`podcast:trailer`, channel level). An element
/// without a `url` is skipped.
public struct PodcastTrailer: Sendable, Hashable {
    /// The element's text: the trailer's title.
    public var title: String?
    /// `url`: the media file.
    public var url: String
    /// `pubdate`: when it was published, as written (RFC 2822).
    public var pubdate: String?
    /// ``pubdate`` read by ``FeedDateParser``; `nil` when it is not a date.
    public var pubdateParsed: FeedDate?
    /// `length`: the file's size in bytes; `nil` unless a non-negative `Int`.
    public var length: Int?
    /// `type`: the file's MIME type.
    public var type: String?
    /// `season`: the season it announces; `nil` unless a whole number.
    public var season: Int?

    /// The trailer `element` describes; `nil` when it has no `url`.
    public init?(_ element: Extension) {
        guard let url = element.podcastAttribute("url") else { return nil }
        self.url = url
        title = element.podcastText
        pubdate = element.podcastAttribute("pubdate")
        pubdateParsed = PodcastValueReading.date(pubdate)
        length = PodcastValueReading.count(element.attributes["length"])
        type = element.podcastAttribute("type")
        season = PodcastValueReading.integer(element.attributes["season"])
    }
}
