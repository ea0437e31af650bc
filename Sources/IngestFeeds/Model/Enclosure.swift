/// A file attached to an item: a podcast episode's audio, an image. RSS
/// `enclosure`, Atom `link rel="enclosure"`, JSON Feed `attachments`.
public struct Enclosure: Sendable, Hashable {
    /// Where the file is.
    public var url: String?
    /// The size in bytes, as the feed wrote it (gofeed keeps the text).
    public var length: String?
    /// The MIME type, such as `audio/mpeg`.
    public var type: String?

    /// An enclosure; empty strings are taken as absent.
    public init(url: String? = nil, length: String? = nil, type: String? = nil) {
        self.url = url.nonEmpty
        self.length = length.nonEmpty
        self.type = type.nonEmpty
    }

    /// ``length`` as a number of bytes, when it is one: a whole number from 0 that
    /// an `Int` holds; anything else (`-5`, `1e19`, `abc`) is `nil`.
    public var byteCount: Int? {
        guard let count = length.flatMap({ Int($0.trimmingASCIIWhiteSpace()) }), count >= 0 else { return nil }
        return count
    }
}
