/// Bounds that keep a hostile or broken document from exhausting memory or stack.
public struct ParseLimits: Sendable {
    /// The deepest element nesting accepted (the document element is depth 1).
    public var maxDepth: Int
    /// The most text accumulated for one element, in bytes; also the most bytes a
    /// parser holds for one token it has not finished (a tag with its attributes, a
    /// comment, a JSON string).
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
    /// thread's stack, whatever the stack: a larger ``maxDepth`` is clamped to it.
    ///
    /// Nested values are read and written without recursion (JSON text, property
    /// lists, archives); what remains recursive — releasing a record's tree of
    /// nested values, decoding a model type — runs on the thread that parses.
    /// IngestParsers' `RecordReader.run(_:into:inputsAtOnce:progress:)` into an output that prefers a writer
    /// thread (SQLite and the file outputs do) and `records(_:at:from:options:buffer:onFailure:)`
    /// parse on threads of their own with a 64 MiB stack, so the caller's thread and
    /// `ulimit -s` do not matter there. Anywhere else (`Importer.read(_:into:progress:)`,
    /// an output that does not prefer a writer thread, a parser driven directly) the
    /// calling thread parses: a record nested this deep needs up to 6 MiB of its stack
    /// (measured in a debug build; the main thread's 8 MiB is enough, a secondary
    /// thread's default may not be). The tree mode (`XMLTree`) is bounded by libxml2
    /// at 256 levels.
    public static let maxSupportedDepth = 10_000
}

extension IngestError {
    /// The error for more than `limit` bytes (``ParseLimits/maxTextBytes``) without a
    /// complete tag or text: one token — `what` says which — that a parser would
    /// otherwise hold whole in memory. Every XML path says it the same way.
    package static func tokenLimit(
        _ limit: Int, _ what: String = "a name, an attribute value or a comment",
        file: String? = nil, position: SourcePosition?
    ) -> IngestError {
        IngestError(
            .data, "more than \(limit) bytes without a complete tag or text: \(what) longer than that",
            file: file, position: position, reason: .textLimit(limit))
    }
}
