import Foundation

/// A podcast as the app keeps it.
public struct Show: Sendable, Hashable {
    public var title: String
    public var author: String?
    public var summary: String
    public var artwork: URL?
    public var categories: [String]
    public var isExplicit: Bool
    /// `episodic` or `serial`.
    public var kind: String?
    /// Newest first.
    public var episodes: [Episode]
}
