/// An output that can read back rows already committed at its target, for writers
/// that compare before they write: a feed archive tells a new item from a changed
/// or an unchanged one, and finds the ETag it stored for a feed.
///
/// Database outputs implement it (IngestSQLite's `SQLiteOutput`, IngestPostgres'
/// `PostgresOutput`); a file that is rebuilt whole has nothing to compare with and
/// does not.
///
/// ```swift
/// let output = SQLiteOutput(path: "feeds.db", mode: .append, design: design)
/// let stored = try output.storedRows(in: "items", columns: ["id", "content_hash"],
///                                    matching: ["feed_id": .number(feedID)])
/// ```
///
/// Reads see what is committed at the target, whether or not the output is open:
/// call them before ``Output/open()`` or between two outputs' transactions, not
/// inside ``Output/write(_:)``'s body (a database's own uncommitted rows are not
/// seen, and a reader may wait for the writer's lock).
public protocol StoredRowReader {
    /// The values of `columns`, in that order, of every row of `table` whose columns
    /// equal the values of `matching` (every row when it is empty), in no
    /// particular order. No rows when the target or the table does not exist yet.
    ///
    /// Integers come back as ``FieldValue/number(_:)`` of kind `.integer`, reals as
    /// `.real` numbers (or text when the shortest form is not a plain decimal), text
    /// as ``FieldValue/text(_:)``, bytes as ``FieldValue/data(_:)``, NULL as
    /// ``FieldValue/null``. A database with types of its own gives them back as the
    /// output wrote them: booleans as ``FieldValue/bool(_:)``, JSON as
    /// ``FieldValue/json(_:_:)``, dates and instants as RFC 3339 text (`2026-11-23`,
    /// `2026-11-23T02:00:00Z`, in UTC).
    ///
    /// - Throws: ``IngestError`` — `.output` when the target is not a database this
    ///   output reads, `.io` when reading fails (an unknown column among them).
    func storedRows(in table: String, columns: [String], matching: [String: FieldValue]) throws -> [[FieldValue]]

    /// Calls `body` with the values of each row ``storedRows(in:columns:matching:)``
    /// would return, one row at a time, so that a large table is read in flat memory.
    /// An output that can stream its rows implements it; the default collects them
    /// first.
    ///
    /// - Throws: what ``storedRows(in:columns:matching:)`` throws, and what `body` throws.
    func forEachStoredRow(
        in table: String, columns: [String], matching: [String: FieldValue],
        _ body: ([FieldValue]) throws -> Void) throws
}

extension StoredRowReader {
    /// Collects the rows with ``storedRows(in:columns:matching:)``, then calls `body`
    /// with each.
    public func forEachStoredRow(
        in table: String, columns: [String], matching: [String: FieldValue],
        _ body: ([FieldValue]) throws -> Void
    ) throws {
        for row in try storedRows(in: table, columns: columns, matching: matching) { try body(row) }
    }
}

extension FieldValue {
    /// An integer value, as a database column holds one.
    public static func integer(_ value: Int64) -> FieldValue {
        .number(Number(text: String(value), kind: .integer))
    }

    /// The value as a 64-bit integer, when it is an integer number.
    public var int64: Int64? {
        guard case .number(let number) = self, number.kind == .integer else { return nil }
        return number.int64Value
    }

    /// A real read from a database: a number when its shortest text is one by
    /// ``FieldValue/Number``'s rules, else that text (`1e+20`, `inf`).
    package static func storedReal(_ value: Double) -> FieldValue {
        let text = String(value)
        let kind = Array(text.utf8).withUnsafeBytes { NumberSyntax.kind(of: $0) }
        return kind == .real ? .number(Number(text: text, kind: .real)) : .text(text)
    }
}
