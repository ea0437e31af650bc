import IngestCore

/// The failures IngestTree names: a document too large to hold, and XPath
/// expressions that select nothing or cannot be read.
extension IngestError.Code {
    /// An input too large to hold as a tree; `IngestError.Reason.limit` is the
    /// limit in bytes.
    public static let treeTooLarge = Self("treeTooLarge")
    /// An XPath expression that selected nothing; ``IngestError/Reason/expression``
    /// is the expression.
    public static let expressionMatchedNothing = Self("expressionMatchedNothing")
    /// An XPath expression using namespace prefixes that are not bound
    /// (``IngestError/Reason/prefixes``).
    public static let unboundPrefixes = Self("unboundPrefixes")
}

extension IngestError.Reason {
    /// The tree would pass `limit` bytes (``IngestError/Code/treeTooLarge``).
    public static func treeTooLarge(limit: Int) -> Self { Self(.treeTooLarge, limit) }
    /// `expression` selected nothing (``IngestError/Code/expressionMatchedNothing``).
    public static func expressionMatchedNothing(_ expression: String) -> Self {
        Self(.expressionMatchedNothing, expression)
    }
    /// `prefixes` are not bound (``IngestError/Code/unboundPrefixes``).
    public static func unboundPrefixes(_ prefixes: [String]) -> Self { Self(.unboundPrefixes, prefixes) }

    /// For ``IngestError/Code/expressionMatchedNothing``: the expression.
    public var expression: String? { code == .expressionMatchedNothing ? value(as: String.self) : nil }
    /// For ``IngestError/Code/unboundPrefixes``: the prefixes, in the order met.
    public var prefixes: [String] { code == .unboundPrefixes ? value(as: [String].self) ?? [] : [] }
}
