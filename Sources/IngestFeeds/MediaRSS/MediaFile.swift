/// A file an item offers to play or download — an episode's audio, a video — from
/// its `enclosure` or, when it has none, from its Media RSS `media:content`: the
/// one list a podcast app reads, whichever element the feed used.
public struct MediaFile: Sendable, Hashable {
    /// Which element the file comes from.
    public enum Source: String, Sendable, Hashable {
        /// An RSS `enclosure`, an Atom `link rel="enclosure"`, a JSON Feed attachment.
        case enclosure
        /// A Media RSS `media:content`, on the item or in its first `media:group`.
        case mediaContent
    }

    /// Which element the file comes from.
    public var source: Source
    /// Where the file is, without white space around it.
    public var url: String
    /// The MIME type, such as `audio/mpeg`.
    public var type: String?
    /// The size in bytes, when the feed gives one as a whole number an `Int` holds.
    public var byteCount: Int?
    /// How long it plays, in seconds: `media:content`'s `duration`; for the first
    /// enclosure, the item's `itunes:duration`.
    public var duration: Double?

    /// A file at `url`.
    public init(source: Source, url: String, type: String? = nil, byteCount: Int? = nil, duration: Double? = nil) {
        self.source = source
        self.url = url
        self.type = type.nonEmpty
        self.byteCount = byteCount
        self.duration = duration
    }
}
