import IngestCore
import Foundation
internal import GRDB
internal import GRDBSQLite

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
///
/// A table that already existed when the sink first met it keeps its schema unless
/// `altersExistingTables` is given: it is never rebuilt or widened, and a record with a
/// field it has no column for is refused (`.data`, at the record's position) rather
/// than adding the column. Tables the sink creates grow columns as fields appear.
final class SQLiteSink: RecordSink {
    private let db: Database
    private let batchSize: Int?
    private let altersExistingTables: Bool
    private var tables: [String: SQLiteTable] = [:]
    private var tableOrder: [SQLiteTable] = []
    // Touched for every row on one thread: exclusivity is checked statically only.
    @exclusivity(unchecked) private var current: SQLiteTable?
    @exclusivity(unchecked) private var rowsInBatch = 0
    @exclusivity(unchecked) private var inTransaction = false
    /// Per row: the column index of each field, the row's text and data, and where each sits.
    @exclusivity(unchecked) private var columnOfField: [Int] = []
    @exclusivity(unchecked) private var textBuffer: [UInt8] = []
    @exclusivity(unchecked) private var pendingText: [PendingText] = []

    /// Called after each batch is committed (see ``init(database:batchSize:altersExistingTables:afterBatch:design:)``).
    private let afterBatch: (() -> Void)?
    /// Declared tables; nil when tables grow from the records.
    private let design: SQLiteDesign?

    /// - Parameters:
    ///   - database: an open connection; the sink owns its transactions until ``finish()``.
    ///   - batchSize: rows per transaction, or `nil` for one transaction in all.
    ///   - altersExistingTables: whether a field that a table already in the database
    ///     has no column for adds one (`ALTER TABLE … ADD COLUMN`); if not, such a
    ///     record is an error. Tables the sink creates always gain columns.
    ///   - afterBatch: called after each batch's commit, e.g. to start writing the
    ///     file to disk early (``AtomicFile/startWriteback()``).
    ///   - design: tables declared by a schema, created (if missing) by ``prepare()``.
    init(database: Database, batchSize: Int? = nil, altersExistingTables: Bool = false,
         afterBatch: (() -> Void)? = nil, design: SQLiteDesign? = nil) {
        db = database
        self.batchSize = batchSize
        self.altersExistingTables = altersExistingTables
        self.afterBatch = afterBatch
        self.design = design
    }

    /// Creates the designed tables and indexes that do not exist yet, in the sink's
    /// first transaction; call before the first record. Without a design it does nothing.
    func prepare() throws {
        guard let design else { return }
        if design.enforcesForeignKeys {
            // Only outside a transaction does this take effect.
            try db.execute(sql: "PRAGMA foreign_keys = ON")
        }
        try db.beginTransaction(.immediate)
        inTransaction = true
        for statement in design.statements { try db.execute(sql: statement) }
    }

    /// The tables written, in the order they were first met, with their row counts.
    var tableSummaries: [(name: String, rows: Int)] { tableOrder.map { ($0.name, $0.rowCount) } }

    /// The columns added to tables that existed before this sink (only with
    /// `altersExistingTables`), by table in the order first met; tables that gained
    /// none are left out.
    var columnsAddedToExistingTables: [(table: String, columns: [String])] {
        tableOrder.filter { !$0.addedColumns.isEmpty }.map { ($0.name, $0.addedColumns) }
    }

    func write(_ record: IngestCore.Record) throws {
        if inTransaction, let batchSize, rowsInBatch >= batchSize, !isChildTable(record.table) {
            // A batch ends before a record, never between a parent row and its children.
            try db.commit()
            inTransaction = false
            rowsInBatch = 0
            afterBatch?()
        }
        if !inTransaction {
            try db.beginTransaction(.immediate)
            inTransaction = true
        }
        let table = try self.table(named: record.table, for: record)
        // First every field finds its column, and the table widens where a value
        // needs it (which can rebuild the table and its statement); then the values
        // are bound to the final statement.
        columnOfField.removeAll(keepingCapacity: true)
        for field in record.fields {
            let index = try table.columnIndex(for: field.name, value: field.value, at: record.position, in: db, create: false)
            try table.accommodate(field.value, inColumn: index, db: db)
            columnOfField.append(index)
        }
        let statement = try table.insertStatement(in: db)
        try bindAndInsert(record, into: table, with: statement)
        table.didInsertRow()
        rowsInBatch += 1
    }

    /// Whether `name` is a declared child table, whose rows must follow their parent's
    /// in the same transaction.
    private func isChildTable(_ name: String) -> Bool {
        design?.design.table(named: name)?.foreignKey != nil
    }

    /// Binds the record's values and runs the INSERT. Text and data are copied once
    /// into a buffer reused for every row and bound without another copy
    /// (`SQLITE_STATIC`, as TEXT or BLOB): the buffer stays put until the statement
    /// has run and its bindings are cleared. Numbers in a BLOB column are bound as
    /// numbers, as in an untyped one: BLOB affinity stores every value as given.
    private func bindAndInsert(_ record: IngestCore.Record, into table: SQLiteTable, with statement: SQLiteStatement) throws {
        // One leading byte so the buffer's address is never NULL: empty text or data
        // bound from a NULL pointer would become SQL NULL, not '' or X''.
        textBuffer.removeAll(keepingCapacity: true)
        textBuffer.append(0)
        pendingText.removeAll(keepingCapacity: true)
        for (field, column) in zip(record.fields, columnOfField) {
            let slot = Int32(column + 1)
            let status: Int32
            switch field.value {
            case .null:
                status = sqlite3_bind_null(statement, slot)
            case .bool(let flag):
                status = sqlite3_bind_int64(statement, slot, flag ? 1 : 0)
            case .number(let number):
                switch (table.columns[column].type, number.kind) {
                case (.integer, _), (.untyped, .integer), (.blob, .integer):
                    status = sqlite3_bind_int64(statement, slot, number.int64Value)
                case (.real, _), (.untyped, .real), (.blob, .real):
                    status = sqlite3_bind_double(statement, slot, number.doubleValue)
                case (.text, _):
                    deferText(number.text, to: slot)
                    continue
                }
            case .text(let text), .json(let text, _):
                if text.isEmpty { table.didStoreEmptyText(inColumn: column) }
                deferText(text, to: slot)
                continue
            case .data(let bytes):
                deferBlob(bytes, to: slot)
                continue
            }
            try check(status, "cannot bind a value")
        }
        let status = try textBuffer.withUnsafeBufferPointer { buffer in
            let base = UnsafeRawPointer(buffer.baseAddress!).assumingMemoryBound(to: CChar.self)
            for text in pendingText {
                let status = text.isBlob
                    ? sqlite3_bind_blob(statement, text.slot, base + text.offset, Int32(text.count), sqliteStatic)
                    : sqlite3_bind_text(statement, text.slot, base + text.offset, Int32(text.count), sqliteStatic)
                try check(status, "cannot bind a value")
            }
            let status = sqlite3_step(statement)
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
            return status
        }
        guard status == SQLITE_DONE else {
            let message = String(cString: sqlite3_errmsg(db.sqliteConnection))
            // A constraint the data breaks (a duplicate key, a NULL where NOT NULL) is the
            // input's fault, not the disk's.
            let kind: IngestError.Kind = status & 0xFF == SQLITE_CONSTRAINT ? .data : .io
            throw IngestError(kind, "cannot insert into \(table.name): \(message)", position: record.position)
        }
    }

    private func deferText(_ text: String, to slot: Int32) {
        let offset = textBuffer.count
        textBuffer.append(contentsOf: text.utf8)
        pendingText.append(PendingText(slot: slot, isBlob: false, offset: offset, count: textBuffer.count - offset))
    }

    private func deferBlob(_ bytes: [UInt8], to slot: Int32) {
        let offset = textBuffer.count
        textBuffer.append(contentsOf: bytes)
        pendingText.append(PendingText(slot: slot, isBlob: true, offset: offset, count: bytes.count))
    }

    private func check(_ status: Int32, _ what: String) throws {
        guard status == SQLITE_OK else {
            throw IngestError(.io, "\(what): \(String(cString: sqlite3_errmsg(db.sqliteConnection)))")
        }
    }

    func renameTable(_ old: String, to new: String) throws {
        guard let table = tables.removeValue(forKey: old) else { return }
        try table.rename(to: new, in: db)
        tables[new] = table
    }

    func finish() throws {
        if !inTransaction, !tableOrder.isEmpty {
            try db.beginTransaction(.immediate)
            inTransaction = true
        }
        for table in tableOrder { try table.finish(in: db) }
        if inTransaction { try db.commit() }
        inTransaction = false
    }

    /// Rolls back what the open transaction holds (for an append that failed).
    func abandon() {
        if inTransaction { try? db.rollback() }
        inTransaction = false
        for table in tableOrder { table.releaseStatements() }
    }

    private func table(named name: String, for record: IngestCore.Record) throws -> SQLiteTable {
        if let current, current.name == name { return current }
        if let table = tables[name] {
            current = table
            return table
        }
        let table: SQLiteTable
        if try db.tableExists(name) {
            let columns = try Row.fetchAll(db, sql: "SELECT name, type FROM pragma_table_info(?)", arguments: [name])
                .map { SQLiteTable.Column(name: $0["name"], type: ColumnType(declared: $0["type"]), jsonShape: nil) }
            // The record's fields find their columns in `write(_:)`, as every later record's do.
            table = SQLiteTable(name: name, existingColumns: columns, altersExisting: altersExistingTables)
        } else {
            table = SQLiteTable(name: name, existingColumns: nil)
            for field in record.fields {
                _ = try table.columnIndex(for: field.name, value: field.value, at: record.position, in: db, create: true)
            }
            try table.create(in: db)
        }
        table.conflictClause = design?.conflictClauses[name]
        tables[name] = table
        tableOrder.append(table)
        current = table
        return table
    }
}

/// A text or data value waiting in ``SQLiteSink``'s row buffer for its parameter slot.
private struct PendingText {
    var slot: Int32
    /// Bound as a BLOB (``FieldValue/data(_:)``) rather than TEXT. Beside `slot`, in
    /// what would be padding: the struct stays 24 bytes.
    var isBlob: Bool
    var offset: Int
    var count: Int
}

/// SQLite's `SQLITE_STATIC`: the bound bytes stay valid until the statement is reset.
private let sqliteStatic = unsafeBitCast(0, to: sqlite3_destructor_type.self)
