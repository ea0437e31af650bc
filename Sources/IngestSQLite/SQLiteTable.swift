import IngestCore
import IngestSQL
internal import GRDB
internal import GRDBSQLite

/// One table the SQLite sink writes: its columns, their types, and the prepared
/// INSERT reused for every row.
final class SQLiteTable {
    struct Column {
        var name: String
        var type: SQLiteAffinity
        /// The shape of JSON values seen, so empty nested elements can become `[]`/`{}`.
        var jsonShape: FieldValue.JSONShape?
        /// Whether '' was stored, which ``finish(in:)`` may have to turn into `[]`/`{}`.
        var holdsEmptyText = false
    }

    var name: String
    // Safety (`@exclusivity(unchecked)` below): a table belongs to one SQLiteSink and
    // is used on its thread only; nothing it calls (GRDB, SQLite) can call back into
    // it, so no two accesses to these properties overlap. They are touched per row.
    @exclusivity(unchecked) private(set) var columns: [Column] = []
    /// Which column each field goes to, and the columns' names, distinct as SQLite
    /// compares identifiers; those of a preexisting table exist already.
    @exclusivity(unchecked) private var fieldColumns: FieldColumns
    /// Whether the table existed before this run; such tables are never rebuilt.
    var preexisting: Bool { fieldColumns.preexisting }
    /// The columns `ALTER TABLE … ADD COLUMN` added to a preexisting table, in order.
    var addedColumns: [String] { fieldColumns.added }
    /// The fields given a column, in the order met, for ``absorb(_:in:)``.
    private var fields: [(name: Name, column: Int)] = []
    @exclusivity(unchecked) private var insert: Statement?
    /// The INSERT of a full ``SQLiteRowGroup``, and how many rows it takes.
    @exclusivity(unchecked) private var groupInsert: (statement: Statement, rows: Int)?
    @exclusivity(unchecked) private(set) var rowCount = 0
    /// Appended to the INSERT (a declared keyless child table's upsert).
    var conflictClause: String?
    /// The primary key a table this run creates is given (`--pk`), by column name.
    var primaryKey: [String] = []
    /// With an upsert, the key a row whose key is stored is updated by.
    var upsertKey: [String]?
    /// With ``upsertKey``: whether the columns a record does not carry are set to
    /// NULL rather than kept.
    var upsertNulls = false
    /// With ``upsertKey`` and not ``upsertNulls``: an INSERT per set of columns the
    /// records carry (a bit per column), each updating only those columns.
    @exclusivity(unchecked) private var upserts: [[UInt64]: Statement] = [:]
    @exclusivity(unchecked) private var carried: [UInt64] = []

    /// - Parameters:
    ///   - existingColumns: the columns of a table already in the database, or `nil`
    ///     for one this run creates.
    ///   - altersExisting: whether a preexisting table may gain columns.
    init(name: String, existingColumns: [Column]?, altersExisting: Bool = false) {
        self.name = name
        isCreated = existingColumns != nil
        fieldColumns = FieldColumns(
            existing: existingColumns?.map(\.name), preexisting: existingColumns != nil,
            addsColumns: existingColumns == nil || altersExisting)
        columns = existingColumns ?? []
    }

    /// Whether the table exists in the database yet. A table this run creates is
    /// created with its first record that has a field: SQLite has no table without
    /// columns, so records without fields before it wait, counted, and are inserted
    /// first (``createIfNeeded(in:)``).
    private(set) var isCreated: Bool
    /// Records without fields met before the table could be created.
    private var waitingEmptyRows = 0

    /// Creates the table in `db` with the columns the first record needs, or — when
    /// the record has no fields — notes a row to insert once it can be created.
    func create(in db: Database) throws {
        guard !columns.isEmpty else {
            waitingEmptyRows += 1
            return
        }
        try db.execute(sql: "CREATE TABLE \(name.quotedSQLIdentifier) (\(columnDefinitions))")
        isCreated = true
        try insertWaitingRows(in: db)
    }

    /// Creates a table whose records all had no fields, with one column, `_`: the
    /// rows are kept, NULL in it.
    func createIfNeeded(in db: Database) throws {
        guard !isCreated else { return }
        if columns.isEmpty { columns.append(Column(name: fieldColumns.addPlaceholder(), type: .untyped)) }
        try db.execute(sql: "CREATE TABLE \(name.quotedSQLIdentifier) (\(columnDefinitions))")
        isCreated = true
        try insertWaitingRows(in: db)
    }

    private func insertWaitingRows(in db: Database) throws {
        for _ in 0..<waitingEmptyRows { try db.execute(sql: "INSERT INTO \(name.quotedSQLIdentifier) DEFAULT VALUES") }
        waitingEmptyRows = 0
    }

    private var columnDefinitions: String {
        let definitions = columns.map { "\($0.name.quotedSQLIdentifier) \($0.type.sql)".trimmingSuffixSpace }
        guard !primaryKey.isEmpty else { return definitions.joined(separator: ", ") }
        return (definitions + ["PRIMARY KEY (\(primaryKey.map(\.quotedSQLIdentifier).joined(separator: ", ")))"])
            .joined(separator: ", ")
    }

    /// Whether rows may go in a ``SQLiteRowGroup``: the table is this run's and has no
    /// key, so no constraint can refuse one of them (a design's tables, with their
    /// constraints, are the sink's to leave out).
    var takesRowGroups: Bool {
        !preexisting && primaryKey.isEmpty && upsertKey == nil && conflictClause == nil
    }

    /// The column field `name` has been given, if it has one already: then
    /// ``columnIndex(for:holding:at:in:)`` changes nothing.
    func knownColumn(for name: Name) -> Int? { fieldColumns.column(for: name) }

    /// Whether ``accommodate(_:shape:inColumn:db:)`` would rebuild the table to hold `needed`.
    func rebuilds(toHold needed: SQLiteAffinity?, inColumn index: Int) -> Bool {
        guard let needed else { return false }
        return needed > columns[index].type && !preexisting && isCreated
    }

    /// The index of the column called `name` (as SQLite compares names), if any.
    func columnIndex(named name: String) -> Int? {
        fieldColumns.index(named: name) ?? columns.firstIndex { $0.name.lowercased() == name.lowercased() }
    }

    /// The column index for field `name`, adding the column (of type `held`, the
    /// narrowest that holds the field's value) if new. A preexisting table that may
    /// not gain columns (without `altersExisting`) refuses a new field with a `.data`
    /// error at `position`, the record's.
    ///
    /// The column's name is the field's (a NUL written as U+FFFD, see ``SQLiteNames``)
    /// when no other column has it, else the first free of `name_2`, `name_3`… (see
    /// ``IngestCore/FieldColumns``); a preexisting table's column of exactly that name
    /// is the field's.
    func columnIndex(for name: Name, holding held: SQLiteAffinity?, at position: SourcePosition?, in db: Database)
        throws
        -> Int
    {
        if let index = fieldColumns.column(for: name) { return index }
        let index: Int
        switch fieldColumns.resolve(name, spelled: [SQLiteNames.column(name.qualified)]) {
        case .column(let existing):
            index = existing
        case .new(let choice):
            guard fieldColumns.addsColumns else {
                throw FieldColumns.missingColumnError(table: self.name, field: name.qualified, at: position)
            }
            let limit = Int(sqlite3_limit(db.sqliteConnection, SQLITE_LIMIT_COLUMN, -1))
            guard columns.count < limit else {
                throw IngestError(
                    .data,
                    "table \(self.name) would need more than \(limit) columns (SQLite's limit) for field \(name.qualified): choose a deeper record path, or write JSON",
                    position: position)
            }
            let column = Column(name: choice.name, type: held ?? .untyped)
            index = fieldColumns.add(choice, for: name)
            columns.append(column)
            if isCreated, plan == nil { try add(column, in: db) }
        }
        fields.append((name, index))
        return index
    }

    /// Widens column `index` so it holds a value needing `needed` (nested data of
    /// `shape`), rebuilding the table if it has rows.
    @inline(__always)
    func accommodate(_ needed: SQLiteAffinity?, shape: FieldValue.JSONShape?, inColumn index: Int, db: Database) throws
    {
        if let shape, columns[index].jsonShape == nil { columns[index].jsonShape = shape }
        guard let needed, needed > columns[index].type, !preexisting else { return }
        columns[index].type = needed
        if isCreated { try rebuild(in: db, copying: columns.count) }
    }

    /// The number of columns the table had when ``beginPlan()`` began gathering new
    /// ones, which ``applyPlan(in:)`` makes at once.
    private var plan: Int?

    /// Whether ``beginPlan()`` may gather this table's new columns: it is this run's
    /// and exists, so adding a column costs DDL (a preexisting table may only gain
    /// columns one by one).
    var takesPlans: Bool { isCreated && !preexisting }

    /// From now on, columns added change only this object, until ``applyPlan(in:)``
    /// makes them in the database.
    func beginPlan() {
        plan = columns.count
    }

    /// Makes the columns gathered since ``beginPlan()``: one `ALTER TABLE … ADD
    /// COLUMN` for a single one, else one rebuild — rather than an ALTER per column,
    /// each costing as much as the whole schema.
    func applyPlan(in db: Database) throws {
        guard let columnsBefore = plan else { return }
        plan = nil
        guard isCreated else { return }
        let added = columns[columnsBefore...]
        if added.count > 1 {
            try rebuild(in: db, copying: columnsBefore)
        } else if let column = added.first {
            try add(column, in: db)
        }
    }

    /// Adds `column` to the table in the database; the prepared INSERTs name the
    /// columns as they were, so they go.
    private func add(_ column: Column, in db: Database) throws {
        try db.execute(
            sql:
                "ALTER TABLE \(name.quotedSQLIdentifier) ADD COLUMN \(column.name.quotedSQLIdentifier) \(column.type.sql)"
        )
        dropStatements()
    }

    /// Recreates the table with the current columns and types, copying its rows into
    /// the first `copying` columns, the ones the table had. SQLite's affinity converts
    /// the stored values, losslessly given the number rules.
    private func rebuild(in db: Database, copying: Int) throws {
        dropStatements()
        let scratch = "ingest rebuild of \(name)"
        let copied = columns[..<copying].map(\.name.quotedSQLIdentifier).joined(separator: ", ")
        try db.execute(sql: "CREATE TABLE \(scratch.quotedSQLIdentifier) (\(columnDefinitions))")
        try db.execute(
            sql:
                "INSERT INTO \(scratch.quotedSQLIdentifier) (\(copied)) SELECT \(copied) FROM \(name.quotedSQLIdentifier)"
        )
        try db.execute(sql: "DROP TABLE \(name.quotedSQLIdentifier)")
        try db.execute(sql: "ALTER TABLE \(scratch.quotedSQLIdentifier) RENAME TO \(name.quotedSQLIdentifier)")
    }

    /// Moves the rows of `other`, a table this run created, into this one, and drops
    /// `other`. Each of `other`'s fields finds its column here as a record's field
    /// would (adding it where the table may gain columns), so the rows moved and the
    /// rows to come keep each field in one column.
    func absorb(_ other: SQLiteTable, in db: Database) throws {
        dropStatements()
        var targets: [String] = [], sources: [String] = []
        for (field, index) in other.fields {
            let column = other.columns[index]
            let target = try columnIndex(for: field, holding: column.type, at: nil, in: db)
            try accommodate(column.type, shape: column.jsonShape, inColumn: target, db: db)
            if column.holdsEmptyText { columns[target].holdsEmptyText = true }
            targets.append(columns[target].name.quotedSQLIdentifier)
            sources.append(column.name.quotedSQLIdentifier)
        }
        if other.isCreated {
            if !isCreated { try create(in: db) }
            try db.execute(
                sql:
                    "INSERT INTO \(name.quotedSQLIdentifier) (\(targets.joined(separator: ", "))) SELECT \(sources.joined(separator: ", ")) FROM \(other.name.quotedSQLIdentifier)"
            )
            try db.execute(sql: "DROP TABLE \(other.name.quotedSQLIdentifier)")
        }
        for _ in 0..<other.waitingEmptyRows {
            try db.execute(sql: "INSERT INTO \(name.quotedSQLIdentifier) DEFAULT VALUES")
        }
        rowCount += other.rowCount
    }

    /// Drops the prepared statements: they must be gone before the connection closes.
    func releaseStatements() {
        dropStatements()
    }

    /// Forgets the prepared INSERTs, which name the columns as they were.
    private func dropStatements() {
        insert = nil
        groupInsert = nil
        if !upserts.isEmpty { upserts.removeAll() }
    }

    func rename(to newName: String, in db: Database) throws {
        dropStatements()
        guard isCreated else {
            name = newName
            return
        }
        try db.execute(sql: "ALTER TABLE \(name.quotedSQLIdentifier) RENAME TO \(newName.quotedSQLIdentifier)")
        name = newName
    }

    /// The INSERT for all current columns, prepared once and reused until the
    /// columns change. With an upsert that keeps what a record does not carry, the
    /// INSERT that updates the columns `present` (the record's fields' columns) only.
    func insertStatement(in db: Database, carrying present: [Int]) throws -> SQLiteStatement {
        guard let upsertKey else {
            if let insert { return insert.sqliteStatement }
            let conflict = conflictClause.map { " " + $0 } ?? ""
            let statement = try db.makeStatement(sql: insertHead() + conflict)
            insert = statement
            return statement.sqliteStatement
        }
        if upsertNulls {
            if let insert { return insert.sqliteStatement }
            let clause = UpsertSQL.onConflict(
                key: upsertKey, updating: columns.map(\.name), quote: \.quotedSQLIdentifier)
            let statement = try db.makeStatement(sql: insertHead() + " " + clause)
            insert = statement
            return statement.sqliteStatement
        }
        let words = (columns.count + 63) / 64
        if carried.count != words { carried = Array(repeating: 0, count: words) }
        for index in carried.indices { carried[index] = 0 }
        for column in present { carried[column >> 6] |= 1 << UInt64(column & 63) }
        if let statement = upserts[carried] { return statement.sqliteStatement }
        let updated = present.sorted().map { columns[$0].name }
        let clause = UpsertSQL.onConflict(key: upsertKey, updating: updated, quote: \.quotedSQLIdentifier)
        let statement = try db.makeStatement(sql: insertHead() + " " + clause)
        upserts[carried] = statement
        return statement.sqliteStatement
    }

    /// How many rows a full ``SQLiteRowGroup`` of this table has: as many as
    /// ``SQLiteRowGroup/rowsPerStatement`` as long as their values fit in one statement's
    /// `limit` of parameters; 1 when two rows do not.
    func rowsPerGroup(parameterLimit limit: Int) -> Int {
        min(SQLiteRowGroup.rowsPerStatement, max(1, limit / max(1, columns.count)))
    }

    /// The INSERT of `rows` rows at once (`VALUES (…), (…)`), row `n`'s values in
    /// parameters `n × columns.count + 1` on; prepared once and reused until the
    /// columns change. Only for a table that ``takesRowGroups``.
    func groupInsertStatement(rows: Int, in db: Database) throws -> SQLiteStatement {
        if let groupInsert, groupInsert.rows == rows { return groupInsert.statement.sqliteStatement }
        let statement = try db.makeStatement(sql: insertHead(rows: rows))
        groupInsert = (statement, rows)
        return statement.sqliteStatement
    }

    /// `INSERT INTO t (every column) VALUES (?, …)`, with `rows` lists of values: a
    /// column no field fills is NULL.
    private func insertHead(rows: Int = 1) -> String {
        let names = columns.map(\.name.quotedSQLIdentifier).joined(separator: ", ")
        let slots = "(" + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")"
        let values = Array(repeating: slots, count: rows).joined(separator: ", ")
        return "INSERT INTO \(name.quotedSQLIdentifier) (\(names)) VALUES \(values)"
    }

    func didInsertRow() { rowCount += 1 }

    func didStoreEmptyText(inColumn index: Int) { columns[index].holdsEmptyText = true }

    /// Gives empty nested elements, stored as '' before the column was known to hold
    /// JSON, the empty JSON value of the column's shape.
    func finish(in db: Database) throws {
        releaseStatements()
        for column in columns where column.holdsEmptyText {
            guard let shape = column.jsonShape else { continue }
            try db.execute(
                sql:
                    "UPDATE \(name.quotedSQLIdentifier) SET \(column.name.quotedSQLIdentifier) = ? WHERE \(column.name.quotedSQLIdentifier) = ''",
                arguments: [shape == .array ? "[]" : "{}"])
        }
    }
}

private extension String {
    var trimmingSuffixSpace: String { hasSuffix(" ") ? String(dropLast()) : self }
}
