import IngestCore
/// Per-table spool files for outputs whose root groups records by table: each
/// table's records are written to their own temporary file as they arrive (tables
/// may interleave), and read back in table order when the output is assembled.
/// Memory holds one entry and a 64 KiB buffer per table, whatever the number of
/// records.
///
/// When the output ``OutputFile/streams``, there is one table and no spool: its
/// records go straight to the output's writer, and a second table is an `.output`
/// error (the document's shape was settled by its first byte).
final class TableSpools {
    struct Table {
        var name: String
        /// The table's spool; `nil` for the table of a streaming output.
        let spool: SpoolFile?
        var recordCount: UInt64 = 0
    }

    private let output: OutputFile
    /// Tables in the order first met.
    private(set) var tables: [Table] = []
    private var lastIndex = -1
    /// The output's writer, when it streams.
    private var streamWriter: BufferedFileWriter?

    init(output: OutputFile) {
        self.output = output
    }

    /// The index of `table`'s spool, created on first use; the caller counts the record.
    func index(of table: String) throws -> Int {
        // Names compare by their bytes: canonically equivalent spellings are two tables.
        if lastIndex >= 0, tables[lastIndex].name.hasSameBytes(as: table) { return lastIndex }
        if let found = tables.firstIndex(where: { $0.name.hasSameBytes(as: table) }) {
            lastIndex = found
            return found
        }
        if output.streams {
            if let first = tables.first {
                throw IngestError(
                    .output,
                    "records go to a second table (\(table)) after those of \(first.name) were streamed: "
                        + "a document of several tables is built whole, so write it to a file, or use --to ndjson",
                    file: output.displayName)
            }
            streamWriter = try output.writer()
            tables.append(Table(name: table, spool: nil))
        } else {
            tables.append(Table(name: table, spool: try output.makeSpool(capacity: 64 * 1024)))
        }
        lastIndex = tables.count - 1
        return lastIndex
    }

    /// Where the records of table `index` go: its spool, or the stream.
    func writer(at index: Int) -> BufferedFileWriter { tables[index].spool?.writer ?? streamWriter! }

    func countRecord(at index: Int) { tables[index].recordCount += 1 }

    /// The mapping renamed a table: later records and the assembled output use `new`.
    func rename(_ old: String, to new: String) {
        for index in tables.indices where tables[index].name.hasSameBytes(as: old) { tables[index].name = new }
    }
}
