/// Keys for the tables a database output grows from the records, which no schema
/// declares: `ingest --pk id [--upsert]`. Every table the output creates gets
/// ``primaryKey``; every record must give each of its columns a value.
///
/// ```swift
/// let keys = TableKeys(primaryKey: ["id"], upsert: true)
/// let output = SQLiteOutput(path: "events.db", mode: .append, keys: keys)
/// ```
public struct TableKeys: Sendable, Equatable {
    /// The columns of the primary key, in order, named as the records' fields name them.
    public var primaryKey: [String]
    /// Whether a record whose key is stored updates that row instead of failing.
    public var upsert: Bool
    /// With ``upsert``: whether the columns a record has no field for are set to NULL
    /// (the whole row replaced) rather than kept (see ``TableDesign/upsertNulls``).
    public var upsertNulls: Bool

    /// A primary key of the columns `primaryKey` (at least one); `upsert` makes a
    /// record whose key is stored update that row — the columns it carries, or with
    /// `upsertNulls` every column.
    public init(primaryKey: [String], upsert: Bool = false, upsertNulls: Bool = false) {
        precondition(!primaryKey.isEmpty, "TableKeys: a primary key has at least one column")
        self.primaryKey = primaryKey
        self.upsert = upsert
        self.upsertNulls = upsertNulls
    }

    /// Fails (`.data`) when a record does not give every column of `keyColumns` (the
    /// table's names for them) a value other than null: `fields` are the record's,
    /// `columnOfField` the column of each, `columnIndex` finds a key column's index.
    package func check(
        _ keyColumns: [String], of table: String, fields: ArraySlice<RecordBatch.Field>, columnOfField: [Int],
        columnIndex: (String) -> Int?, position: SourcePosition?
    ) throws {
        for column in keyColumns {
            let field = columnIndex(column).flatMap { index in columnOfField.firstIndex(of: index) }
            guard let field, fields[fields.startIndex + field].kind != .null else {
                throw missing(column, table: table, fields: fields.map(\.name.qualified), position: position)
            }
        }
    }

    /// A record without a value for key column `column` of `table`.
    package func missing(_ column: String, table: String, fields: [String], position: SourcePosition?) -> IngestError {
        let has =
            fields.isEmpty
            ? "it has no fields"
            : "its fields: \(fields.prefix(10).joined(separator: ", "))\(fields.count > 10 ? ", …" : "")"
        return IngestError(
            .data,
            "the record has no value for \(column), a column of the primary key of \(table) (--pk \(primaryKey.joined(separator: ","))); \(has)",
            position: position)
    }

    /// A table already in the database whose primary key, `stored` (empty for
    /// none), is not ``primaryKey``.
    package func mismatch(stored: [String], table: String) -> IngestError {
        let has = stored.isEmpty ? "has no primary key" : "has the primary key (\(stored.joined(separator: ", ")))"
        let fix = stored.isEmpty ? "only for a table the import creates" : stored.joined(separator: ",")
        return IngestError(
            .output,
            "the existing table \(table) \(has), not (\(primaryKey.joined(separator: ", "))) as --pk says: give --pk \(fix)"
        )
    }

    /// `id=7, region=eu`: a record's key, for messages.
    package static func describe(_ values: [(column: String, value: String)]) -> String {
        values.map { "\($0.column)=\($0.value.count > 80 ? String($0.value.prefix(80)) + "…" : $0.value)" }.joined(
            separator: ", ")
    }
}
