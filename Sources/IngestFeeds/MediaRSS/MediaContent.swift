/// A Media RSS `media:content`: one media file — a podcast's audio, a video in one
/// of its encodings, a picture — with what the feed says about it.
public struct MediaContent: Sendable, Hashable {
    /// The file's URL (`url`), trimmed; `nil` when absent (the media is then played
    /// through ``MediaMetadata/player``).
    public var url: String?
    /// The MIME type (`type`), such as `audio/mpeg`.
    public var type: String?
    /// The kind of media (`medium`): `image`, `audio`, `video`, `document`, `executable`.
    public var medium: String?
    /// The size in bytes (`fileSize`), when a whole number an `Int` holds.
    public var fileSize: Int?
    /// Kilobits per second (`bitrate`), when a number (`128`, `96.5`).
    public var bitrate: Double?
    /// How long it plays, in seconds (`duration`: `185`, `185.5`, or a clock reading
    /// `3:05`); `nil` when absent or not a time.
    public var duration: Double?
    /// The height in pixels (`height`), when a whole number an `Int` holds.
    public var height: Int?
    /// The width in pixels (`width`), when a whole number an `Int` holds.
    public var width: Int?
    /// The language of the media (`lang`), such as `en`.
    public var lang: String?
    /// `isDefault`: whether this is the group's file to offer first; `nil` when not
    /// written or neither `true` nor `false`.
    public var isDefault: Bool?
    /// `expression`: `sample`, `full` (the default) or `nonstop` (a live stream).
    public var expression: String?
    /// The title, description, thumbnails, credits, ratings and player inside the element.
    public var metadata = MediaMetadata()

    /// No file known.
    public init() {}

    /// The file `element` (a `media:content`) describes.
    public init(_ element: Extension) {
        let attributes = element.attributes
        url = attributes["url"]?.trimmingASCIIWhiteSpace().nonEmptyString
        type = attributes["type"].nonEmpty
        medium = attributes["medium"].nonEmpty
        fileSize = attributes["fileSize"].flatMap(FeedUpdateHints.integer)
        bitrate = attributes["bitrate"].flatMap(Self.decimal)
        duration = attributes["duration"].flatMap(ClockTime.init)?.seconds
        height = attributes["height"].flatMap(FeedUpdateHints.integer)
        width = attributes["width"].flatMap(FeedUpdateHints.integer)
        lang = attributes["lang"].nonEmpty
        isDefault = YesNoText.yesNo(attributes["isDefault"])
        expression = attributes["expression"].nonEmpty
        metadata = MediaMetadata(element.children)
    }

    /// `text` as a number of ASCII digits with at most one decimal point (no sign,
    /// no exponent); `nil` for anything else and for what a `Double` holds only as infinity.
    private static func decimal(_ text: String) -> Double? {
        let trimmed = text.trimmingASCIIWhiteSpace()
        let digits = trimmed.utf8.filter { $0 != UInt8(ascii: ".") }
        guard !digits.isEmpty, trimmed.utf8.count - digits.count <= 1,
            digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
            let value = Double(trimmed), value.isFinite
        else { return nil }
        return value
    }
}
