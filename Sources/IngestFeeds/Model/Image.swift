/// Artwork for a feed or an item: a URL and an optional title.
public struct Image: Sendable, Hashable {
    /// Where the image is.
    public var url: String?
    /// The image's title (RSS `image/title`).
    public var title: String?

    /// An image; empty strings are taken as absent.
    public init(url: String? = nil, title: String? = nil) {
        self.url = url.nonEmpty
        self.title = title.nonEmpty
    }
}
