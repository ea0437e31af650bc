import IngestCore
import Foundation
internal import GRDB
internal import GRDBSQLite

/// Writes records into SQLite tables, one table per record kind.
///
/// Tables and columns are created as records need them; column types follow the
/// values (``IngestCore/ColumnType``, kept as its SQLite affinity) and widen when a
/// later value needs it. Every name from the input is quoted as an identifier, so no
/// element or attribute name can change the meaning of a statement. Each table has one prepared INSERT, reused for every row,
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
    /// Tables by the name the records give them, compared by bytes (see ``ExactString``).
    private var tables: [ExactString: SQLiteTable] = [:]
    private var tableOrder: [SQLiteTable] = []
    /// The names of the tables written, distinct as SQLite compares them: records
    /// named `sqlite_x` and `_sqlite_x` are not both kept in `_sqlite_x`.
    private var tableNames = DistinctNames(comparing: .asciiCaseInsensitive)
    // Touched for every row on one thread: exclusivity is checked statically only.
    // Safety: a sink is used by the one thread that writes (it is not `Sendable`),
    // and nothing it calls while accessing these — its tables, GRDB, SQLite — can
    // call back into it, so no two accesses overlap.
    @exclusivity(unchecked) private var rowsInBatch = 0
    @exclusivity(unchecked) private var inTransaction = false
    /// Per row: the column index of each field, and what number each field is.
    @exclusivity(unchecked) private var columnOfField: [Int] = []
    @exclusivity(unchecked) private var numberKinds: [FieldValue.Number.Kind?] = []
    /// Rows waiting to go in together (see ``SQLiteRowGroup``); empty between batches.
    @exclusivity(unchecked) private var group = SQLiteRowGroup()
    /// How many parameters a statement may have on this connection.
    private let parameterLimit: Int
    /// The batch ``write(_:)-(IngestRecord)`` writes a single record through.
    private let single = RecordBatch(reservingBytes: 4096)
    /// How long a text or blob value may be on this connection.
    private let valueLength: SQLiteValueLength

    /// Called after each batch is committed (see ``init(database:batchSize:altersExistingTables:afterBatch:design:)``).
    private let afterBatch: (() -> Void)?
    /// Declared tables; nil when tables grow from the records.
    private let design: SQLiteDesign?
    /// The key of the tables grown from the records (`--pk`), if any.
    private let keys: TableKeys?

    /// - Parameters:
    ///   - database: an open connection; the sink owns its transactions until ``finish()``.
    ///   - batchSize: rows per transaction, or `nil` for one transaction in all.
    ///   - altersExistingTables: whether a field that a table already in the database
    ///     has no column for adds one (`ALTER TABLE … ADD COLUMN`); if not, such a
    ///     record is an error. Tables the sink creates always gain columns.
    ///   - afterBatch: called after each batch's commit, e.g. to start writing the
    ///     file to disk early (``AtomicFile/startWriteback()``).
    ///   - design: tables declared by a schema, created (if missing) by ``prepare()``.
    ///   - keys: without a design, the primary key of every table, and whether to upsert.
    init(
        database: Database, batchSize: Int? = nil, altersExistingTables: Bool = false,
        afterBatch: (() -> Void)? = nil, design: SQLiteDesign? = nil, keys: TableKeys? = nil
    ) {
        self.keys = design == nil ? keys : nil
        db = database
        valueLength = SQLiteValueLength(connection: database.sqliteConnection)
        parameterLimit = Int(sqlite3_limit(database.sqliteConnection, SQLITE_LIMIT_VARIABLE_NUMBER, -1))
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
        try addMissingColumns(design.design)
    }

    /// Adds to a table made by an earlier version of its design the columns the
    /// design has gained since. A new column must be nullable: its old rows have no
    /// value for it.
    private func addMissingColumns(_ design: TableDesign) throws {
        for table in design.tables {
            let stored = Set(
                try Row.fetchAll(db, sql: "SELECT name FROM pragma_table_info(?)", arguments: [table.name])
                    .map { $0[0] as String })
            for column in table.columns where !stored.contains(column.name) {
                guard !column.notNull else {
                    throw IngestError(
                        .output,
                        "the table \(table.name) has no column \(column.name), which cannot be added to its rows (NOT NULL)"
                    )
                }
                try db.execute(
                    sql:
                        "ALTER TABLE \(table.name.quotedSQLIdentifier) ADD COLUMN \(column.name.quotedSQLIdentifier) \(SQLiteAffinity(column.type).sql)"
                )
            }
        }
    }

    /// The tables written, in the order they were first met, with their row counts.
    var tableSummaries: [(name: String, rows: Int)] { tableOrder.map { ($0.name, $0.rowCount) } }

    /// The columns added to tables that existed before this sink (only with
    /// `altersExistingTables`), by table in the order first met; tables that gained
    /// none are left out.
    var columnsAddedToExistingTables: [(table: String, columns: [String])] {
        tableOrder.filter { !$0.addedColumns.isEmpty }.map { ($0.name, $0.addedColumns) }
    }

    /// One record, written as a batch of one.
    func write(_ record: IngestRecord) throws {
        single.clear()
        single.append(record)
        try write(single)
    }

    func write(_ batch: RecordBatch) throws {
        // After an error, the rows waiting in the group go with the batch they point into;
        // after a batch that went in, the group is empty already.
        defer { group.removeAll() }
        var tableOfBatch = tableCache(for: batch)
        for record in 0..<batch.count {
            let entry = batch.entries[record]
            if inTransaction, let batchSize, rowsInBatch >= batchSize, !isChildTable(batch.tables[entry.table]) {
                // A batch ends before a record, never between a parent row and its children.
                try insertGroup(of: batch)
                try db.commit()
                inTransaction = false
                rowsInBatch = 0
                afterBatch?()
            }
            if !inTransaction {
                try db.beginTransaction(.immediate)
                inTransaction = true
            }
            let table: SQLiteTable
            if let known = tableOfBatch[entry.table] {
                table = known
            } else {
                table = try self.table(named: batch.tables[entry.table])
                tableOfBatch[entry.table] = table
            }
            try insert(record, of: batch, into: table)
        }
        // The group's values are the batch's bytes: they go in before the batch does.
        try insertGroup(of: batch)
    }

    /// The tables of `batch`'s table names, resolved as records meet them.
    private func tableCache(for batch: RecordBatch) -> [SQLiteTable?] {
        Array(repeating: nil, count: batch.tables.count)
    }

    /// Finds each field's column — the table widening where a value needs it (which
    /// can rebuild the table and its statement) — then binds the values to the final
    /// statement and runs it, or, for a table that takes them, adds the row to the
    /// ``SQLiteRowGroup``, which goes in once full.
    private func insert(_ record: Int, of batch: RecordBatch, into table: SQLiteTable) throws {
        if let waiting = group.table, waiting !== table { try insertGroup(of: batch) }
        let fields = batch.fields(of: record)
        let position = batch.entries[record].position
        columnOfField.removeAll(keepingCapacity: true)
        numberKinds.removeAll(keepingCapacity: true)
        for field in fields {
            let number = Self.numberKind(of: field, in: batch)
            let held = Self.columnType(of: field, number: number)
            let index = try field.unmanagedName._withUnsafeGuaranteedRef { name in
                if let known = table.knownColumn(for: name) { return known }
                // A new column changes the statement the waiting rows need.
                try insertGroup(of: batch)
                if table.takesPlans {
                    try planColumns(from: record, of: batch, for: table)
                    if let planned = table.knownColumn(for: name) { return planned }
                }
                return try table.columnIndex(for: name, holding: held, at: position, in: db)
            }
            if table.rebuilds(toHold: held, inColumn: index) { try insertGroup(of: batch) }
            try table.accommodate(held, shape: Self.jsonShape(of: field), inColumn: index, db: db)
            columnOfField.append(index)
            numberKinds.append(number)
        }
        if let keys {
            try keys.check(
                keys.primaryKey, of: table.name, fields: fields, columnOfField: columnOfField,
                columnIndex: table.columnIndex(named:), position: position)
        }
        if !table.isCreated {
            try table.create(in: db)
            guard table.isCreated else {
                // No field yet, so no column: the row waits for the table.
                table.didInsertRow()
                rowsInBatch += 1
                return
            }
        }
        if design == nil, table.takesRowGroups {
            group.append(record: record, of: table, columnOfField: columnOfField, numberKinds: numberKinds)
            table.didInsertRow()
            rowsInBatch += 1
            if group.count >= table.rowsPerGroup(parameterLimit: parameterLimit) { try insertGroup(of: batch) }
            return
        }
        let statement = try table.insertStatement(in: db, carrying: columnOfField)
        try bind(
            fields, of: batch, columns: columnOfField[...], numbers: numberKinds[...], firstSlot: 1, to: statement,
            in: table, at: position)
        try run(statement, inserting: fields, of: batch, into: table, at: position)
        table.didInsertRow()
        rowsInBatch += 1
    }

    /// A table this run created needs a new column for a field of record `first`: the
    /// new columns of that record and of the rest of the batch's records for the table
    /// are all made now, at once (``SQLiteTable/applyPlan(in:)``), each typed by its
    /// first value as it would have been one by one, so records that each bring a new
    /// field cost one rebuild per batch rather than an `ALTER TABLE` each.
    private func planColumns(from first: Int, of batch: RecordBatch, for table: SQLiteTable) throws {
        let tableIndex = batch.entries[first].table
        table.beginPlan()
        for record in first..<batch.count where batch.entries[record].table == tableIndex {
            let position = batch.entries[record].position
            for field in batch.fields(of: record) {
                try field.unmanagedName._withUnsafeGuaranteedRef { name in
                    guard table.knownColumn(for: name) == nil else { return }
                    let held = Self.columnType(of: field, number: Self.numberKind(of: field, in: batch))
                    _ = try table.columnIndex(for: name, holding: held, at: position, in: db)
                }
            }
        }
        try table.applyPlan(in: db)
    }

    /// Inserts the rows waiting in the group, all in one statement when the group is
    /// full, one by one when it is not (the end of a batch, a new column).
    private func insertGroup(of batch: RecordBatch) throws {
        guard let table = group.table else { return }
        defer { group.removeAll() }
        let columns = table.columns.count
        if group.count == table.rowsPerGroup(parameterLimit: parameterLimit) {
            let statement = try table.groupInsertStatement(rows: group.count, in: db)
            for (row, record) in group.records.enumerated() {
                let range = group.fields(ofRow: row)
                try bind(
                    batch.fields(of: record), of: batch, columns: group.columnOfField[range],
                    numbers: group.numberKinds[range], firstSlot: row * columns + 1, to: statement, in: table,
                    at: batch.entries[record].position)
            }
            let first = group.records[0]
            try run(
                statement, inserting: batch.fields(of: first), of: batch, into: table, at: batch.entries[first].position
            )
            return
        }
        let statement = try table.insertStatement(in: db, carrying: [])
        for (row, record) in group.records.enumerated() {
            let range = group.fields(ofRow: row)
            let position = batch.entries[record].position
            try bind(
                batch.fields(of: record), of: batch, columns: group.columnOfField[range],
                numbers: group.numberKinds[range], firstSlot: 1, to: statement, in: table, at: position)
            try run(statement, inserting: batch.fields(of: record), of: batch, into: table, at: position)
        }
    }

    /// Runs an INSERT whose values are bound, and clears them for the next. A refusal
    /// is the record's at `position`, whose `fields` name its key in the message.
    private func run(
        _ statement: SQLiteStatement, inserting fields: ArraySlice<RecordBatch.Field>, of batch: RecordBatch,
        into table: SQLiteTable, at position: SourcePosition?
    ) throws {
        let status = sqlite3_step(statement)
        sqlite3_reset(statement)
        sqlite3_clear_bindings(statement)
        guard status == SQLITE_DONE else {
            let message = String(cString: sqlite3_errmsg(db.sqliteConnection))
            // A constraint the data breaks (a duplicate key, a NULL where NOT NULL) is the
            // input's fault, not the disk's.
            let kind: IngestError.Kind = status & 0xFF == SQLITE_CONSTRAINT ? .data : .io
            let key =
                kind == .data ? keyDescription(of: fields, in: batch, table: table).map { " (key \($0))" } ?? "" : ""
            throw IngestError(kind, "cannot insert into \(table.name): \(message)\(key)", position: position)
        }
    }

    /// `id=7`: the values the record gives the table's key columns, for a message.
    private func keyDescription(of fields: ArraySlice<RecordBatch.Field>, in batch: RecordBatch, table: SQLiteTable)
        -> String?
    {
        let key = table.upsertKey ?? (table.primaryKey.isEmpty ? nil : table.primaryKey)
        guard let key else { return nil }
        var values: [(column: String, value: String)] = []
        for column in key {
            guard let index = table.columnIndex(named: column), let field = columnOfField.firstIndex(of: index) else {
                return nil
            }
            let bytes = batch.bytes(of: fields[fields.startIndex + field])
            values.append((column, String(decoding: bytes, as: UTF8.self)))
        }
        return TableKeys.describe(values)
    }

    /// Whether `name` is a declared child table, whose rows must follow their parent's
    /// in the same transaction.
    private func isChildTable(_ name: String) -> Bool {
        design?.design.table(named: name)?.foreignKey != nil
    }

    /// Binds the values straight from the batch's bytes (`SQLITE_STATIC`: they stay
    /// put until the statement has run and its bindings are cleared), field `n` to
    /// parameter `firstSlot + columns[n]`. Numbers are bound as numbers unless their
    /// column is TEXT; numbers in a BLOB column are bound as numbers too, as in an
    /// untyped one: BLOB affinity stores every value as given. A text or blob longer
    /// than SQLite takes is refused (``SQLiteValueLength``); the values bound before
    /// it are cleared, as they point into the batch.
    private func bind(
        _ fields: ArraySlice<RecordBatch.Field>, of batch: RecordBatch, columns: ArraySlice<Int>,
        numbers: ArraySlice<FieldValue.Number.Kind?>, firstSlot: Int, to statement: SQLiteStatement,
        in table: SQLiteTable, at position: SourcePosition?
    ) throws {
        do {
            for (offset, field) in fields.enumerated() {
                let column = columns[columns.startIndex + offset]
                let slot = Int32(truncatingIfNeeded: firstSlot + column)
                let bytes = batch.bytes(of: field)
                // Within the limit (every value but a hostile one) the count is exact as an Int32.
                let length =
                    bytes.count <= valueLength.limit
                    ? Int32(truncatingIfNeeded: bytes.count)
                    : try valueLength.checked(
                        bytes.count, field: field.name.qualified, table: table.name, position: position)
                let status: Int32
                switch field.kind {
                case .null:
                    status = sqlite3_bind_null(statement, slot)
                case .false, .true:
                    status = sqlite3_bind_int64(statement, slot, field.kind == .true ? 1 : 0)
                case .inferred, .number, .integer, .real:
                    switch (numbers[numbers.startIndex + offset], table.columns[column].type) {
                    case (.integer?, .integer), (.integer?, .untyped), (.integer?, .blob):
                        status = sqlite3_bind_int64(
                            statement, slot, NumberSyntax.int64(bytes.assumingMemoryBound(to: UInt8.self))!)
                    case (.integer?, .real), (.real?, .real), (.real?, .untyped), (.real?, .blob), (.real?, .integer):
                        status = sqlite3_bind_double(statement, slot, NumberSyntax.double(bytes))
                    default:
                        if bytes.isEmpty { table.didStoreEmptyText(inColumn: column) }
                        status = sqlite3_bind_text(
                            statement, slot, bytes.baseAddress!.assumingMemoryBound(to: CChar.self),
                            length, sqliteStatic)
                    }
                case .text:
                    if bytes.isEmpty { table.didStoreEmptyText(inColumn: column) }
                    status = sqlite3_bind_text(
                        statement, slot, bytes.baseAddress!.assumingMemoryBound(to: CChar.self),
                        length, sqliteStatic)
                case .jsonArray, .jsonObject:
                    status = sqlite3_bind_text(
                        statement, slot, bytes.baseAddress!.assumingMemoryBound(to: CChar.self),
                        length, sqliteStatic)
                case .data:
                    status = sqlite3_bind_blob(statement, slot, bytes.baseAddress!, length, sqliteStatic)
                }
                try check(status, "cannot bind a value")
            }
        } catch {
            sqlite3_clear_bindings(statement)
            throw error
        }
    }

    /// What number a field's bytes are, if they are one: ``FieldValue/Number``'s rules.
    private static func numberKind(of field: RecordBatch.Field, in batch: RecordBatch) -> FieldValue.Number.Kind? {
        switch field.kind {
        case .inferred: NumberSyntax.kind(of: batch.bytes(of: field))
        case .number: NumberSyntax.jsonKind(of: batch.bytes(of: field))
        case .integer: .integer
        case .real: .real
        default: nil
        }
    }

    /// The narrowest column type that holds the field, or `nil` for NULL (which fits any).
    private static func columnType(of field: RecordBatch.Field, number: FieldValue.Number.Kind?) -> SQLiteAffinity? {
        switch field.kind {
        case .null: nil
        case .false, .true: .integer
        case .inferred, .number, .integer, .real: number == .integer ? .integer : number == .real ? .real : .text
        case .text, .jsonArray, .jsonObject: .text
        case .data: .blob
        }
    }

    private static func jsonShape(of field: RecordBatch.Field) -> FieldValue.JSONShape? {
        switch field.kind {
        case .jsonArray: .array
        case .jsonObject: .object
        default: nil
        }
    }

    private func check(_ status: Int32, _ what: String) throws {
        guard status == SQLITE_OK else {
            throw IngestError(.io, "\(what): \(String(cString: sqlite3_errmsg(db.sqliteConnection)))")
        }
    }

    func renameTable(_ oldRecordTable: String, to newRecordTable: String) throws {
        guard let table = tables.removeValue(forKey: ExactString(oldRecordTable)) else { return }
        if let target = tables[ExactString(newRecordTable)] {
            // Another input of this run wrote these records' table already.
            guard !table.preexisting else {
                throw IngestError(
                    .data,
                    "cannot rename the table \(table.name) to \(target.name): the import writes a table of that name already"
                )
            }
            tableOrder.removeAll { $0 === table }
            tableNames.release(table.name)
            try target.absorb(table, in: db)
            return
        }
        tableNames.release(table.name)
        let new = tableNames.claim(SQLiteNames.table(newRecordTable))
        if !table.preexisting, try tableExists(new) {
            // An earlier run already named these records' table `new` (this run
            // called it `old` until a second kind of record appeared): the rows
            // written so far join it, as later ones will.
            tableOrder.removeAll { $0 === table }
            try openTable(new, for: newRecordTable).absorb(table, in: db)
            return
        }
        try table.rename(to: new, in: db)
        tables[ExactString(newRecordTable)] = table
    }

    /// Whether the database has a table `name`. Asked of SQLite itself, which
    /// compares names by bytes (ASCII case folded): GRDB's `tableExists` caches by
    /// `String`, where canonically equivalent spellings are one name.
    private func tableExists(_ name: String) throws -> Bool {
        try Bool.fetchOne(
            db, sql: "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' AND lower(name) = lower(?))",
            arguments: [name]) ?? false
    }

    func finish() throws {
        if !inTransaction, !tableOrder.isEmpty {
            try db.beginTransaction(.immediate)
            inTransaction = true
        }
        for table in tableOrder {
            try table.createIfNeeded(in: db)
            try table.finish(in: db)
        }
        if inTransaction { try db.commit() }
        inTransaction = false
    }

    /// Rolls back what the open transaction holds (for an append that failed).
    func abandon() {
        if inTransaction { try? db.rollback() }
        inTransaction = false
        for table in tableOrder { table.releaseStatements() }
    }

    /// The table of the records named `recordTable`: the first time, the first name
    /// free among this run's tables of ``SQLiteNames/table(_:)``, `…_2`, `…_3`…
    /// (see ``IngestCore/DistinctNames``).
    private func table(named recordTable: String) throws -> SQLiteTable {
        if let table = tables[ExactString(recordTable)] { return table }
        return try openTable(tableNames.claim(SQLiteNames.table(recordTable)), for: recordTable)
    }

    /// The table `name`, claimed for the records named `recordTable`: the database's,
    /// if it has one, or one created with its first record that has a field.
    private func openTable(_ name: String, for recordTable: String) throws -> SQLiteTable {
        let table: SQLiteTable
        if try tableExists(name) {
            let rows = try Row.fetchAll(db, sql: "SELECT name, type, pk FROM pragma_table_info(?)", arguments: [name])
            let columns = rows.map {
                SQLiteTable.Column(name: $0["name"], type: SQLiteAffinity(declared: $0["type"]), jsonShape: nil)
            }
            if let keys {
                let keyed = rows.compactMap { row -> (position: Int, name: String)? in
                    let position: Int = row["pk"]
                    return position > 0 ? (position, row["name"]) : nil
                }
                let stored = keyed.sorted { $0.position < $1.position }.map(\.name)
                if stored.map({ $0.lowercased() }) != keys.primaryKey.map({ $0.lowercased() }) {
                    throw keys.mismatch(stored: stored, table: name)
                }
            }
            // The record's fields find their columns in `write(_:)`, as every later record's do.
            table = SQLiteTable(name: name, existingColumns: columns, altersExisting: altersExistingTables)
        } else {
            // Created with its first record that has a field, by `insert`.
            table = SQLiteTable(name: name, existingColumns: nil)
            table.primaryKey = keys?.primaryKey ?? []
        }
        table.conflictClause = design?.conflictClauses[name]
        if let key = design?.upsertKeys[name] {
            table.upsertKey = key
            table.upsertNulls = design!.design.upsertNulls
        } else if let keys, keys.upsert {
            table.upsertKey = keys.primaryKey
            table.upsertNulls = keys.upsertNulls
        }
        tables[ExactString(recordTable)] = table
        tableOrder.append(table)
        return table
    }
}

/// SQLite's `SQLITE_STATIC`: the bound bytes stay valid until the statement is reset.
/// Computed, not stored: a global constant is initialised lazily, behind a check on
/// every value bound.
private var sqliteStatic: sqlite3_destructor_type { unsafeBitCast(0, to: sqlite3_destructor_type.self) }
