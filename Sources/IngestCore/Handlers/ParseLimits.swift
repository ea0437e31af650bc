/// Bounds that keep a hostile or broken document from exhausting memory or stack.
public struct ParseLimits: Sendable {
    /// The deepest element nesting accepted (the document element is depth 1).
    public var maxDepth: Int
    /// The most text accumulated for one element, in bytes.
    public var maxTextBytes: Int

    public init(maxDepth: Int = 1_000, maxTextBytes: Int = 64 << 20) {
        self.maxDepth = min(maxDepth, Self.maxSupportedDepth)
        self.maxTextBytes = maxTextBytes
    }

    public static let `default` = ParseLimits()

    /// The deepest nesting the library is tested to handle without exhausting a
    /// thread's stack: the recursive parts (nested values kept as trees, their
    /// serialisation, the tree mode's walk) are bounded by it. A larger
    /// ``maxDepth`` is clamped to it.
    public static let maxSupportedDepth = 10_000
}
