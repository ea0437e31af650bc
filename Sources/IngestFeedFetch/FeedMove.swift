import Foundation

/// Where redirects (or an HTML page's advertised feed) took a fetch.
public struct FeedMove: Sendable, Hashable {
    /// The address the answer finally came from.
    public var url: URL
    /// Whether every hop was permanent (301, 308, or a page naming its feed): the
    /// feed should be asked for at ``url`` from now on.
    public var isPermanent: Bool

    /// A move to `url`, permanent or not.
    public init(url: URL, isPermanent: Bool) {
        self.url = url
        self.isPermanent = isPermanent
    }
}
