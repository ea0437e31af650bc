/// Why bytes are not a ``JSONChapters`` document.
public enum JSONChaptersError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The document is larger than the size allowed.
    case tooLarge(size: Int, maximumSize: Int)
    /// The bytes are not JSON, or not this format; the decoder's explanation.
    case notChapters(String)
    /// The chapter at this index (from 0) has a time under `key` that is negative
    /// or not finite.
    case invalidTime(chapter: Int, key: String)

    /// The reason, for people.
    public var description: String {
        switch self {
        case .tooLarge(let size, let maximumSize):
            "the chapters document is \(size) bytes, more than the \(maximumSize) allowed"
        case .notChapters(let reason):
            "not a JSON chapters document (version and chapters with startTime are required): \(reason)"
        case .invalidTime(let chapter, let key):
            "chapter \(chapter) has a \(key) that is negative or not finite"
        }
    }
}
