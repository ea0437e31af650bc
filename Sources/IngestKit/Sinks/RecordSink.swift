/// Where records go: a SQLite database, a property list, an archive, JSON — or
/// nowhere, for `--dry-run`.
///
/// A sink sees records one at a time and may not keep the `Record` it is handed
/// beyond the call (the mapping reuses its storage).
public protocol RecordSink: AnyObject {
    /// Writes one record into `record.table`, creating or widening the table as needed.
    func write(_ record: Record) throws

    /// The mapping learned that a table it named `old` should be called `new`
    /// (a collection turned out to hold more than its records).
    func renameTable(_ old: String, to new: String) throws

    /// All records have been written; make the output complete.
    func finish() throws
}

/// Counts records and the tables they go to, passing them on to another sink — or
/// to none, which makes it the sink of `--dry-run`.
public final class CountingSink: RecordSink {
    public let downstream: (any RecordSink)?
    public private(set) var recordCount = 0
    /// Table names in the order first met.
    public private(set) var tables: [String] = []
    private var lastTable = ""

    public init(forwardingTo downstream: (any RecordSink)? = nil) {
        self.downstream = downstream
    }

    public func write(_ record: Record) throws {
        try downstream?.write(record)
        recordCount += 1
        if record.table != lastTable {
            lastTable = record.table
            if !tables.contains(record.table) { tables.append(record.table) }
        }
    }

    public func renameTable(_ old: String, to new: String) throws {
        try downstream?.renameTable(old, to: new)
        tables = tables.map { $0 == old ? new : $0 }
        if lastTable == old { lastTable = new }
    }

    public func finish() throws { try downstream?.finish() }
}
