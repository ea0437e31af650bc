/// The format of a feed, as read from its content — never from a file name.
public struct FeedFormat: Sendable, Hashable, CustomStringConvertible {
    /// The family, gofeed's `feedType`.
    public enum Family: String, Sendable, Hashable, Codable {
        /// RSS 0.90 to 2.0, RSS 1.0 (RDF) included.
        case rss
        /// Atom 0.3 and 1.0.
        case atom
        /// JSON Feed 1.0 and 1.1.
        case json
    }

    /// RSS, Atom or JSON Feed.
    public var family: Family
    /// gofeed's `feedVersion`: `2.0`, `0.91`, `1.0` (RSS 1.0), `0.9` (RDF 0.90),
    /// `1.0` or `0.3` (Atom), `1.0` or `1.1` (JSON Feed); empty when an RSS feed
    /// states none.
    public var version: String

    /// A format: `FeedFormat(.atom, version: "1.0")`.
    public init(_ family: Family, version: String) {
        self.family = family
        self.version = version
    }

    /// `rss 2.0`, `atom 1.0`, `json 1.1`.
    public var description: String { version.isEmpty ? family.rawValue : "\(family.rawValue) \(version)" }
}
