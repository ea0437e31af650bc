/// What an import writes records to: an ``Output``'s sink while it is being written,
/// or a sink of your own.
///
/// A sink sees records one at a time and may not keep the `IngestRecord` it is handed
/// beyond the call (the mapping reuses its storage).
public protocol RecordSink: AnyObject {
    /// Writes one record into `record.table`, creating or widening the table as needed.
    func write(_ record: IngestRecord) throws

    /// Writes every record of `batch`, in order. The batch is the sink's only for the
    /// call. Default: each record materialised and given to ``write(_:)-(IngestRecord)``; a
    /// sink that can use the bytes as they are (binding them to a statement, copying
    /// them to a file) implements it and saves the work.
    func write(_ batch: RecordBatch) throws

    /// The mapping learned that a table it named `old` should be called `new`
    /// (a collection turned out to hold more than its records).
    func renameTable(_ old: String, to new: String) throws

    /// Passes on what the sink holds back: the input has nothing more for now (a
    /// pipe fed line by line), so records gathered into a batch go on, and an output
    /// written through to a pipe writes out its buffer. Default: nothing.
    func flush() throws
}

extension RecordSink {
    /// Holds nothing back: nothing to do.
    public func flush() throws {}

    /// Materialises each record of `batch` in turn and hands it to
    /// ``write(_:)-(IngestRecord)``, stopping at the first that throws.
    public func write(_ batch: RecordBatch) throws {
        for index in 0..<batch.count { try write(batch.record(at: index)) }
    }
}

/// Counts records and the tables they go to, passing them on to another sink — or
/// to none.
public final class CountingSink: RecordSink {
    /// The sink records are passed on to, or `nil` to only count them.
    public let downstream: (any RecordSink)?
    /// How many records were written so far (a record the downstream sink refused is
    /// not counted).
    public private(set) var recordCount = 0
    /// Tables in the order first met, with the records each received.
    public private(set) var tables: [(name: String, records: Int)] = []
    /// Index into ``tables`` of the table the last record went to.
    private var lastTable = -1

    /// A counter that passes every record on to `downstream`, if any.
    public init(forwardingTo downstream: (any RecordSink)? = nil) {
        self.downstream = downstream
    }

    /// Passes the record on, then counts it and its table; rethrows what the
    /// downstream sink throws, without counting.
    public func write(_ record: IngestRecord) throws {
        try downstream?.write(record)
        recordCount += 1
        if lastTable < 0 || !tables[lastTable].name.hasSameBytes(as: record.table) {
            lastTable =
                tables.firstIndex { $0.name.hasSameBytes(as: record.table) }
                ?? {
                    tables.append((record.table, 0))
                    return tables.count - 1
                }()
        }
        tables[lastTable].records += 1
    }

    /// Passes the whole batch on (so the downstream sink keeps its fast path), then
    /// counts its records per table. The batch is read before it goes on: a pipe
    /// downstream hands it to another thread, which may change it.
    public func write(_ batch: RecordBatch) throws {
        batchTables.removeAll(keepingCapacity: true)
        for entry in batch.entries {
            if batchTables.last?.table == entry.table {
                batchTables[batchTables.count - 1].records += 1
            } else {
                batchTables.append((entry.table, 1))
            }
        }
        let names = batch.tables
        let count = batch.count
        try downstream?.write(batch)
        recordCount += count
        for (index, records) in batchTables {
            let table = names[index]
            if lastTable < 0 || !tables[lastTable].name.hasSameBytes(as: table) {
                lastTable =
                    tables.firstIndex { $0.name.hasSameBytes(as: table) }
                    ?? {
                        tables.append((table, 0))
                        return tables.count - 1
                    }()
            }
            tables[lastTable].records += records
        }
    }

    /// A batch's runs of records by table (an index into its ``RecordBatch/tables``),
    /// taken before the batch is passed on.
    private var batchTables: [(table: Int, records: Int)] = []

    /// Passes the rename on, then renames the table in ``tables``, keeping its count.
    public func renameTable(_ old: String, to new: String) throws {
        try downstream?.renameTable(old, to: new)
        for index in tables.indices where tables[index].name.hasSameBytes(as: old) { tables[index].name = new }
    }

    /// Passes the flush on.
    public func flush() throws {
        try downstream?.flush()
    }
}
