/// A JSON Feed author object.
struct JSONFeedAuthor {
    var name: String?
    var url: String?
    var avatar: String?
}

/// A JSON Feed's top-level members as its handlers read them.
struct JSONFeedData {
    var version: String?
    var title: String?
    var homePageURL: String?
    var feedURL: String?
    var description: String?
    var icon: String?
    var language: String?
    var author: JSONFeedAuthor?
    var authors: [JSONFeedAuthor]?
    /// The first item's dates: gofeed's feed dates.
    var firstItemModified: String?
    var firstItemPublished: String?
}

/// A JSON Feed item as its handlers read it.
struct JSONFeedItemData {
    var id: String?
    var url: String?
    var externalURL: String?
    var title: String?
    var contentHTML: String?
    var contentText: String?
    var summary: String?
    var image: String?
    var bannerImage: String?
    var datePublished: String?
    var dateModified: String?
    var author: JSONFeedAuthor?
    var authors: [JSONFeedAuthor]?
    var tags: [String] = []
    var attachments: [(url: String?, mimeType: String?, size: String?)]?

    mutating func reset() { self = JSONFeedItemData() }
}
