/// A Media RSS `media:player`: a web page that plays the media, for when the file
/// itself cannot be offered — an embeddable video player.
public struct MediaPlayer: Sendable, Hashable {
    /// The player's URL.
    public var url: String
    /// Its width in pixels, when written as a whole number an `Int` holds.
    public var width: Int?
    /// Its height in pixels, when written as a whole number an `Int` holds.
    public var height: Int?

    /// A player at `url`.
    public init(url: String, width: Int? = nil, height: Int? = nil) {
        self.url = url
        self.width = width
        self.height = height
    }

    /// The player `element` describes; `nil` without a `url`.
    init?(_ element: Extension) {
        guard let url = element.attributes["url"]?.trimmingASCIIWhiteSpace(), !url.isEmpty else { return nil }
        self.init(
            url: url, width: element.attributes["width"].flatMap(FeedUpdateHints.integer),
            height: element.attributes["height"].flatMap(FeedUpdateHints.integer))
    }
}
