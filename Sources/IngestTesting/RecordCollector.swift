import IngestCore

/// A sink that keeps every record it is given, for tests: read them back as
/// ``records`` (or one at a time with ``readRecord()``, as NIO's `EmbeddedChannel`
/// reads what its handlers wrote).
///
/// ```swift
/// let collector = RecordCollector()
/// let mapping = AutomaticDocumentMapping(sink: collector)
/// try ExpatParser().parse(bytes: Array(xml.utf8), into: HandlerStack(root: try mapping.makeRootHandler()))
/// #expect(collector.records.map(\.table) == ["people", "people", "people"])
/// #expect(collector.records[0].fields["firstName"] == .text("Matt"))
/// ```
public final class RecordCollector: RecordSink {
    /// The records written, in order; a table renamed later shows its new name.
    public private(set) var records: [CollectedRecord] = []
    /// Every rename the mapping asked for, as (old, new).
    public private(set) var renames: [(old: String, new: String)] = []
    private var read = 0

    /// An empty collector.
    public init() {}

    /// Keeps a copy of `record` (sinks may not keep the record itself).
    public func write(_ record: IngestRecord) throws {
        records.append(CollectedRecord(record))
    }

    /// Notes the rename in ``renames`` and renames the table of the records kept.
    public func renameTable(_ old: String, to new: String) throws {
        renames.append((old, new))
        for index in records.indices where records[index].table == old { records[index].table = new }
    }

    /// The oldest record not read yet, or `nil` when every record has been read.
    public func readRecord() -> CollectedRecord? {
        guard read < records.count else { return nil }
        defer { read += 1 }
        return records[read]
    }
}

/// A record as a ``RecordCollector`` keeps it: names as strings, values as they came.
public struct CollectedRecord: Equatable, Sendable {
    /// The table the record went to, renamed if the mapping renamed it later.
    public var table: String
    /// The value of each field by qualified name (the first, if a name repeats).
    public var fields: [String: FieldValue]
    /// The fields' qualified names in the record's order.
    public var order: [String]
    /// Where the record's element started.
    public var position: SourcePosition

    /// A record to compare with what a collector kept (`==` ignores the position).
    public init(table: String, fields: [String: FieldValue], order: [String], position: SourcePosition = .start) {
        self.table = table
        self.fields = fields
        self.order = order
        self.position = position
    }

    init(_ record: IngestRecord) {
        table = record.table
        fields = Dictionary(
            record.fields.map { ($0.name.qualified, $0.value) }, uniquingKeysWith: { first, _ in first })
        order = record.fields.map(\.name.qualified)
        position = record.position
    }

    /// The value of field `name`.
    public subscript(name: String) -> FieldValue? { fields[name] }

    public static func == (lhs: CollectedRecord, rhs: CollectedRecord) -> Bool {
        lhs.table == rhs.table && lhs.fields == rhs.fields && lhs.order == rhs.order
    }
}
