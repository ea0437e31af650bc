/// Bounds that keep a hostile or broken document from exhausting memory or stack.
public struct ParseLimits: Sendable {
    /// The deepest element nesting accepted (the document element is depth 1).
    public var maxDepth: Int
    /// The most text accumulated for one element, in bytes.
    public var maxTextBytes: Int

    /// Limits of `maxDepth` levels (clamped to ``maxSupportedDepth``) and
    /// `maxTextBytes` bytes of text per element.
    public init(maxDepth: Int = 1_000, maxTextBytes: Int = 64 << 20) {
        self.maxDepth = min(maxDepth, Self.maxSupportedDepth)
        self.maxTextBytes = maxTextBytes
    }

    /// 1000 levels and 64 MiB of text per element: what `ingest` uses unless told otherwise.
    public static let `default` = ParseLimits()

    /// The deepest nesting the library is tested to handle without exhausting a
    /// thread's stack: the recursive parts (nested values kept as trees, their
    /// serialisation, the tree mode's walk) are bounded by it. A larger
    /// ``maxDepth`` is clamped to it.
    public static let maxSupportedDepth = 10_000
}
