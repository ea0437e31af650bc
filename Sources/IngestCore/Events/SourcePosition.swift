/// Where an event happened in its input: 1-based line and column, 0-based byte offset.
///
/// Columns count bytes of UTF-8 from the start of the line, plus one — the convention
/// Expat, libxml2 and most editors' "go to column" share for ASCII text. A column of 0
/// means it is not known: libxml2's tree keeps only the line of each node, and its
/// schema validators report lines alone.
public struct SourcePosition: Hashable, Sendable, CustomStringConvertible {
    /// The line, counting from 1.
    public var line: Int
    /// The column in bytes of UTF-8, counting from 1; 0 when it is not known.
    public var column: Int
    /// How many bytes of the input come before the position, counting from 0.
    public var byteOffset: Int

    /// The position at `line` and `column` (both from 1), `byteOffset` bytes into the input.
    public init(line: Int, column: Int, byteOffset: Int) {
        self.line = line
        self.column = column
        self.byteOffset = byteOffset
    }

    /// The position before the first byte of the input.
    public static let start = SourcePosition(line: 1, column: 1, byteOffset: 0)

    /// `line:column`, as error messages print it; `line` alone when the column is unknown.
    public var description: String { column > 0 ? "\(line):\(column)" : "\(line)" }
}
