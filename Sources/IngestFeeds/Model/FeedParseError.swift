/// The first error of an ill-formed feed that was read anyway (see
/// ``Feed/wellFormed``): what libxml2 reported and where.
public struct FeedParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was wrong, in the parser's words.
    public var message: String
    /// 1-based line and column; 0 when not known.
    public var line: Int
    /// See ``line``.
    public var column: Int

    /// An error at `line` and `column` (0 when not known).
    public init(message: String, line: Int = 0, column: Int = 0) {
        self.message = message
        self.line = line
        self.column = column
    }

    /// `line:column: message`.
    public var description: String {
        line > 0 ? (column > 0 ? "\(line):\(column): \(message)" : "\(line): \(message)") : message
    }
}
