/// Artwork for a feed or an item: a URL and an optional title.
public struct Image: Sendable, Hashable {
    public var url: String?
    public var title: String?

    public init(url: String? = nil, title: String? = nil) {
        self.url = url.nonEmpty
        self.title = title.nonEmpty
    }
}
