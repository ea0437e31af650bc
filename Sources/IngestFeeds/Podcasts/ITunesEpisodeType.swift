/// What kind of episode an item is (`itunes:episodeType`): a whole episode, a
/// trailer, or bonus material — so an app can list trailers and bonus episodes
/// apart from the show's numbered run.
///
/// It keeps the text as the feed wrote it (``rawValue``), so a value Apple has not
/// defined is kept, not lost; ``full``, ``trailer`` and ``bonus`` are Apple's three.
public struct ITunesEpisodeType: RawRepresentable, Sendable, Hashable {
    /// The text of `itunes:episodeType`, as written.
    public var rawValue: String

    /// The episode type the text names.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// A normal episode (Apple's default when the element is absent).
    public static let full = ITunesEpisodeType(rawValue: "full")
    /// A short promotion of the show or of a season.
    public static let trailer = ITunesEpisodeType(rawValue: "trailer")
    /// Extra content for the show or a season.
    public static let bonus = ITunesEpisodeType(rawValue: "bonus")
}
