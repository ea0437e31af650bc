/// How a podcast's episodes are meant to be listened to (`itunes:type`): newest
/// first (`episodic`), or in order from the first (`serial`) — which decides how an
/// app sorts and numbers the list.
///
/// It keeps the text as the feed wrote it (``rawValue``), so a value Apple has not
/// defined is kept, not lost; ``episodic`` and ``serial`` are Apple's two.
public struct ITunesShowType: RawRepresentable, Sendable, Hashable {
    /// The text of `itunes:type`, as written.
    public var rawValue: String

    /// The show type the text names.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Episodes stand alone; newest first (Apple's default when the element is absent).
    public static let episodic = ITunesShowType(rawValue: "episodic")
    /// Episodes follow on from each other; oldest first, in seasons.
    public static let serial = ITunesShowType(rawValue: "serial")
}
