/// An RSS channel as its handlers read it, before gofeed's rules make a ``Feed``
/// of it: the elements gofeed's RSS parser keeps and its translator uses.
struct RSSChannelData {
    var version = ""
    var title: String?
    var description: String?
    /// The last `link`; every one is in ``links``.
    var link: String?
    var links: [String] = []
    var language: String?
    var copyright: String?
    var managingEditor: String?
    var webMaster: String?
    var pubDate: String?
    var lastBuildDate: String?
    var generator: String?
    var categories: [String] = []
    var image: Image?
    /// `ttl`, as written.
    var ttl: String?
    /// The `hour`s of every `skipHours`, as written.
    var skipHours: [String] = []
    /// The `day`s of every `skipDays`, as written.
    var skipDays: [String] = []
    var extensions: Extensions = [:]
}

/// An RSS item as its handlers read it.
struct RSSItemData: FeedEntryData {
    var title: String?
    var description: String?
    /// `content:encoded`.
    var content: String?
    var link: String?
    var links: [String] = []
    var author: String?
    var pubDate: String?
    var guid: String?
    var enclosures: [Enclosure] = []
    var categories: [String] = []
    var extensions: Extensions = [:]
    var custom: [String: String] = [:]

    func deliver(to session: FeedParseSession) throws { try session.emit(self) }
}
