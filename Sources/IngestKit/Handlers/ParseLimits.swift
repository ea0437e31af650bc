/// Bounds that keep a hostile or broken document from exhausting memory or stack.
public struct ParseLimits: Sendable {
    /// The deepest element nesting accepted (the document element is depth 1).
    public var maxDepth: Int
    /// The most text accumulated for one element, in bytes.
    public var maxTextBytes: Int

    public init(maxDepth: Int = 1_000, maxTextBytes: Int = 64 << 20) {
        self.maxDepth = maxDepth
        self.maxTextBytes = maxTextBytes
    }

    public static let `default` = ParseLimits()
}
