import Foundation
import IngestCore
import IngestPOSIX
internal import GRDB

/// Reading back what a database holds, through a read-only connection of its own,
/// so the output's writing connection and its transactions are left alone. The
/// connection and its prepared statements are kept for the next read of the same
/// file — an archive reads a row or two per feed — and opened again when the path
/// names another file (the database was replaced).
extension SQLiteOutput: StoredRowReader {
    /// The values of `columns` in the rows of `table` that match, as committed in the
    /// file at ``path`` (see ``/IngestCore/StoredRowReader``). No rows when the file
    /// or the table does not exist yet, or for `-` or another path that is not a
    /// regular file (a database built for a stream has no previous content). Every name is quoted as an SQL identifier;
    /// values are bound, never spliced into the statement.
    ///
    /// A reader waits up to five seconds for another process's write lock.
    public func storedRows(in table: String, columns: [String], matching: [String: FieldValue]) throws -> [[FieldValue]]
    {
        var rows: [[FieldValue]] = []
        try forEachStoredRow(in: table, columns: columns, matching: matching) { rows.append($0) }
        return rows
    }

    /// Calls `body` with the values of each row ``storedRows(in:columns:matching:)``
    /// returns, read one at a time from a cursor.
    public func forEachStoredRow(
        in table: String, columns: [String], matching: [String: FieldValue],
        _ body: ([FieldValue]) throws -> Void
    ) throws {
        // A stream (standard output, a FIFO, a device) holds no rows to read back:
        // opening a FIFO to read it would wait for a writer that never comes.
        guard let path = target.filePath, let file = FileStatus.identity(of: path) else { return }
        let filters = matching.sorted { $0.key < $1.key }
        var sql =
            "SELECT \(columns.map(\.quotedSQLIdentifier).joined(separator: ", ")) FROM \(table.quotedSQLIdentifier)"
        if !filters.isEmpty {
            sql += " WHERE " + filters.map { "\($0.key.quotedSQLIdentifier) IS ?" }.joined(separator: " AND ")
        }
        try storedRowReads.withConnection(to: path, file: file) { queue in
            do {
                try queue.read { db in
                    guard try Bool.fetchOne(db.cachedStatement(sql: Self.tableExists), arguments: [table]) == true
                    else { return }
                    let arguments = StatementArguments(filters.map { Self.databaseValue($0.value) })
                    let cursor = try Row.fetchCursor(db.cachedStatement(sql: sql), arguments: arguments)
                    while let row = try cursor.next() {
                        try body(row.databaseValues.map(Self.fieldValue))
                    }
                }
            } catch let error as DatabaseError {
                throw IngestError(.io, "SQLite: \(error.message ?? "\(error)")", file: path)
            }
        }
    }

    private static let tableExists =
        "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ? COLLATE NOCASE)"

    private static func databaseValue(_ value: FieldValue) -> DatabaseValue {
        switch value {
        case .null: .null
        case .bool(let flag): (flag ? 1 : 0).databaseValue
        case .number(let number):
            number.kind == .integer ? number.int64Value.databaseValue : number.doubleValue.databaseValue
        case .text(let text), .json(let text, _): text.databaseValue
        case .data(let bytes): Data(bytes).databaseValue
        }
    }

    private static func fieldValue(_ value: DatabaseValue) -> FieldValue {
        switch value.storage {
        case .null: .null
        case .int64(let number): .integer(number)
        case .double(let number): .storedReal(number)
        case .string(let text): .text(text)
        case .blob(let data): .data(Array(data))
        }
    }
}

/// The read-only connection ``SQLiteOutput``'s stored-row reads share, opened on
/// first use and again when the path names another file (device and inode) than
/// it was opened on. A read that finds it in use — by another thread, or by a read
/// whose rows are still being handed out — gets a connection of its own.
final class StoredRowReads {
    private let lock = NSLock()
    private var shared: DatabaseQueue?
    private var file: FileStatus.Identity?

    func withConnection(
        to path: String, file: FileStatus.Identity, _ body: (DatabaseQueue) throws -> Void
    ) throws {
        guard lock.try() else {
            let queue = try Self.open(path)
            defer { try? queue.close() }
            return try body(queue)
        }
        defer { lock.unlock() }
        if shared == nil || self.file != file {
            try? shared?.close()
            shared = nil
            shared = try Self.open(path)
            self.file = file
        }
        try body(shared!)
    }

    private static func open(_ path: String) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.label = "ingest-read"
        configuration.busyMode = .timeout(5)
        do {
            return try DatabaseQueue(path: path, configuration: configuration)
        } catch {
            throw IngestError(.output, "cannot open as a SQLite database: \(error)", file: path)
        }
    }

    deinit { try? shared?.close() }
}
