/// Where an event happened in its input: 1-based line and column, 0-based byte offset.
///
/// Columns count bytes of UTF-8 from the start of the line, plus one — the convention
/// Expat, libxml2 and most editors' "go to column" share for ASCII text. A column of 0
/// means it is not known: libxml2's tree keeps only the line of each node, and its
/// schema validators report lines alone.
public struct SourcePosition: Hashable, Sendable, CustomStringConvertible {
    public var line: Int
    public var column: Int
    public var byteOffset: Int

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
