import IngestCore
internal import GRDBSQLite

/// The byte count of one text or blob value as SQLite is given it.
///
/// `sqlite3_bind_text` and `sqlite3_bind_blob` take the count as an `Int32`, and
/// SQLite refuses a value longer than the connection's `SQLITE_LIMIT_LENGTH` (a
/// billion bytes unless SQLite was built otherwise). A value past either is the
/// input's doing: it is refused as `.data`, naming the field, where converting the
/// count unchecked would trap and end the whole run.
struct SQLiteValueLength {
    /// The most bytes one value may have: the connection's limit, and never more
    /// than an `Int32` holds.
    let limit: Int

    /// The limit `connection` applies.
    init(connection: OpaquePointer?) {
        self.init(limit: Int(sqlite3_limit(connection, SQLITE_LIMIT_LENGTH, -1)))
    }

    /// A limit of `limit` bytes, cut to what an `Int32` holds.
    init(limit: Int) {
        self.limit = min(max(limit, 0), Int(Int32.max))
    }

    /// `count` as the `Int32` SQLite takes. Throws `.data` at `position` when the
    /// value of `field` in `table` is longer than ``limit``.
    func checked(_ count: Int, field: String, table: String, position: SourcePosition?) throws -> Int32 {
        guard count <= limit, let length = Int32(exactly: count) else {
            throw IngestError(
                .data,
                "the value of field \(field) in table \(table) is \(count) bytes, more than SQLite's limit of \(limit) bytes for one value",
                position: position)
        }
        return length
    }
}
