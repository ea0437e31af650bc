/// A Media RSS `media:thumbnail`: a picture that stands for the media — what an
/// app shows in a list before the file is played.
public struct MediaThumbnail: Sendable, Hashable {
    /// The picture's URL.
    public var url: String
    /// Its width in pixels, when written as a whole number an `Int` holds.
    public var width: Int?
    /// Its height in pixels, when written as a whole number an `Int` holds.
    public var height: Int?
    /// For a thumbnail of a video frame, when in the video it is, in seconds
    /// (`time`, normal play time: `12:05:01.123`); `nil` when absent or not a time.
    public var time: Double?

    /// A thumbnail at `url`.
    public init(url: String, width: Int? = nil, height: Int? = nil, time: Double? = nil) {
        self.url = url
        self.width = width
        self.height = height
        self.time = time
    }

    /// The thumbnail `element` describes; `nil` without a `url`.
    init?(_ element: Extension) {
        guard let url = element.attributes["url"]?.trimmingASCIIWhiteSpace(), !url.isEmpty else { return nil }
        self.init(
            url: url, width: element.attributes["width"].flatMap(FeedUpdateHints.integer),
            height: element.attributes["height"].flatMap(FeedUpdateHints.integer),
            time: element.attributes["time"].flatMap(ClockTime.init)?.seconds)
    }
}
