import IngestCore

/// Rows of one table waiting to go in with one multi-row INSERT
/// (`INSERT INTO t (…) VALUES (…), (…), …`).
///
/// SQLite runs each statement with a fixed cost — starting the program, opening
/// and closing the table's cursor, finding the end of its b-tree — that a row of a
/// few short values pays in full when it goes alone; rows in one statement share it
/// (BENCHMARKS.md has the figures).
///
/// Only the rows of a table this run creates, with no key, go in together: nothing
/// there can refuse one row of a group, so an error is never about some row the
/// statement hides. A group holds, per row, the record's index in its batch and
/// what ``SQLiteSink`` found for each field (the column, the number it is); the
/// values are bound only when the group goes in, straight from the batch, so the
/// sink empties the group before its batch goes and before its table's columns
/// change.
struct SQLiteRowGroup {
    /// Rows a full group has, when their values fit in one statement: a larger
    /// statement gains nothing more.
    static let rowsPerStatement = 16

    /// The table of every row in the group; `nil` when it is empty.
    private(set) var table: SQLiteTable?
    /// The rows' records, as indexes into the batch they came in.
    private(set) var records: [Int] = []
    /// Each row's fields' columns and numbers, row after row; row `n`'s start at `starts[n]`.
    private(set) var columnOfField: [Int] = []
    private(set) var numberKinds: [FieldValue.Number.Kind?] = []
    private var starts: [Int] = []

    var isEmpty: Bool { records.isEmpty }
    var count: Int { records.count }

    /// Adds a row of `table`, which must be the group's when the group is not empty.
    mutating func append(
        record: Int, of table: SQLiteTable, columnOfField columns: [Int], numberKinds kinds: [FieldValue.Number.Kind?]
    ) {
        self.table = table
        records.append(record)
        starts.append(columnOfField.count)
        columnOfField.append(contentsOf: columns)
        numberKinds.append(contentsOf: kinds)
    }

    /// Where row `row`'s fields are in ``columnOfField`` and ``numberKinds``.
    func fields(ofRow row: Int) -> Range<Int> {
        starts[row]..<(row + 1 < starts.count ? starts[row + 1] : columnOfField.count)
    }

    mutating func removeAll() {
        table = nil
        records.removeAll(keepingCapacity: true)
        starts.removeAll(keepingCapacity: true)
        columnOfField.removeAll(keepingCapacity: true)
        numberKinds.removeAll(keepingCapacity: true)
    }
}
