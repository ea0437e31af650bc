import GRDB
import GRDBSQLite

/// Writes records into SQLite tables, one table per record kind.
///
/// Tables and columns are created as records need them; column types follow the
/// values (``ColumnType``) and widen when a later value needs it. Every name from the
/// input is quoted as an identifier, so no element or attribute name can change the
/// meaning of a statement. Each table has one prepared INSERT, reused for every row,
/// with values bound straight from the record.
///
/// The sink runs inside the caller's transaction management: it opens a
/// transaction on the first record, commits every `batchSize` rows when a batch size is
/// given (a database being built in a temporary file), and otherwise keeps one
/// transaction to the end so an append is all or nothing.
public final class SQLiteSink: RecordSink {
    private let db: Database
    private let batchSize: Int?
    private var tables: [String: SQLiteTable] = [:]
    private var tableOrder: [SQLiteTable] = []
    private var current: SQLiteTable?
    private var rowsInBatch = 0
    private var inTransaction = false

    /// - Parameters:
    ///   - database: an open connection; the sink owns its transactions until ``finish()``.
    ///   - batchSize: rows per transaction, or `nil` for one transaction in all.
    public init(database: Database, batchSize: Int? = nil) {
        db = database
        self.batchSize = batchSize
    }

    /// The tables written, in the order they were first met, with their row counts.
    public var tableSummaries: [(name: String, rows: Int)] { tableOrder.map { ($0.name, $0.rowCount) } }

    public func write(_ record: Record) throws {
        if !inTransaction {
            try db.beginTransaction(.immediate)
            inTransaction = true
        }
        let table = try self.table(named: record.table, for: record)
        var statement = try table.insertStatement(in: db)
        for field in record.fields {
            let index = try table.columnIndex(for: field.name, value: field.value, in: db, create: false)
            let before = table.columns.count
            try table.accommodate(field.value, inColumn: index, db: db)
            if before != table.columns.count { statement = try table.insertStatement(in: db) }
        }
        statement = try table.insertStatement(in: db)
        sqlite3_clear_bindings(statement)
        for field in record.fields {
            let index = try table.columnIndex(for: field.name, value: field.value, in: db, create: false)
            try bind(field.value, as: table.columns[index].type, at: Int32(index + 1), in: statement)
        }
        let status = sqlite3_step(statement)
        sqlite3_reset(statement)
        guard status == SQLITE_DONE else {
            throw IngestError(.io, "cannot insert into \(table.name): \(String(cString: sqlite3_errmsg(db.sqliteConnection)))", position: record.position)
        }
        table.didInsertRow()
        rowsInBatch += 1
        if let batchSize, rowsInBatch >= batchSize {
            try db.commit()
            inTransaction = false
            rowsInBatch = 0
        }
    }

    public func renameTable(_ old: String, to new: String) throws {
        guard let table = tables.removeValue(forKey: old) else { return }
        try table.rename(to: new, in: db)
        tables[new] = table
    }

    public func finish() throws {
        if !inTransaction, !tableOrder.isEmpty {
            try db.beginTransaction(.immediate)
            inTransaction = true
        }
        for table in tableOrder { try table.finish(in: db) }
        if inTransaction { try db.commit() }
        inTransaction = false
    }

    /// Rolls back what the open transaction holds (for an append that failed).
    public func abandon() {
        if inTransaction { try? db.rollback() }
        inTransaction = false
    }

    private func table(named name: String, for record: Record) throws -> SQLiteTable {
        if let current, current.name == name { return current }
        if let table = tables[name] {
            current = table
            return table
        }
        let table: SQLiteTable
        if try db.tableExists(name) {
            let columns = try Row.fetchAll(db, sql: "SELECT name, type FROM pragma_table_info(?)", arguments: [name])
                .map { SQLiteTable.Column(name: $0["name"], type: ColumnType(declared: $0["type"]), jsonShape: nil) }
            table = SQLiteTable(name: name, existingColumns: columns)
            for field in record.fields { _ = try table.columnIndex(for: field.name, value: field.value, in: db, create: false) }
        } else {
            table = SQLiteTable(name: name, existingColumns: nil)
            for field in record.fields { _ = try table.columnIndex(for: field.name, value: field.value, in: db, create: true) }
            try table.create(in: db)
        }
        tables[name] = table
        tableOrder.append(table)
        current = table
        return table
    }

    private func bind(_ value: FieldValue, as type: ColumnType, at index: Int32, in statement: SQLiteStatement) throws {
        let status: Int32
        switch value {
        case .null:
            status = sqlite3_bind_null(statement, index)
        case .bool(let flag):
            status = sqlite3_bind_int64(statement, index, flag ? 1 : 0)
        case .number(let number):
            switch (type, number.kind) {
            case (.integer, _), (.untyped, .integer): status = sqlite3_bind_int64(statement, index, number.int64Value)
            case (.real, _), (.untyped, .real): status = sqlite3_bind_double(statement, index, number.doubleValue)
            case (.text, _): status = bindText(number.text, at: index, in: statement)
            }
        case .text(let text), .json(let text, _):
            status = bindText(text, at: index, in: statement)
        }
        guard status == SQLITE_OK else {
            throw IngestError(.io, "cannot bind a value: \(String(cString: sqlite3_errmsg(db.sqliteConnection)))")
        }
    }

    private func bindText(_ text: String, at index: Int32, in statement: SQLiteStatement) -> Int32 {
        var text = text
        return text.withUTF8 { bytes in
            // A NULL pointer would bind SQL NULL; an empty string must stay ''.
            guard let base = bytes.baseAddress, !bytes.isEmpty else {
                return sqlite3_bind_text(statement, index, "", 0, sqliteTransient)
            }
            return sqlite3_bind_text(statement, index, UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self),
                                     Int32(bytes.count), sqliteTransient)
        }
    }
}

/// SQLite's `SQLITE_TRANSIENT`: copy the bound bytes before the call returns.
private let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
