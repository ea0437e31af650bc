import IngestCore
internal import GRDB
internal import GRDBSQLite

/// One table the SQLite sink writes: its columns, their types, and the prepared
/// INSERT reused for every row.
final class SQLiteTable {
    struct Column {
        var name: String
        var type: ColumnType
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
    /// Whether the table existed before this run; such tables are never rebuilt.
    let preexisting: Bool
    /// Whether a field without a column may add one. Always for a table this run
    /// creates; for a preexisting table only when the caller asked (`--alter`).
    let addsColumns: Bool
    /// The columns `ALTER TABLE … ADD COLUMN` added to a preexisting table, in order.
    private(set) var addedColumns: [String] = []
    /// Column index by field name.
    @exclusivity(unchecked) private var indexByName = NameIndex()
    /// The names taken, as SQLite compares identifiers: ASCII letters without case.
    private var takenNames: Set<[UInt8]> = []
    @exclusivity(unchecked) private var insert: Statement?
    @exclusivity(unchecked) private(set) var rowCount = 0
    /// Appended to the INSERT (a declared table's upsert).
    var conflictClause: String?

    /// - Parameters:
    ///   - existingColumns: the columns of a table already in the database, or `nil`
    ///     for one this run creates.
    ///   - altersExisting: whether a preexisting table may gain columns.
    init(name: String, existingColumns: [Column]?, altersExisting: Bool = false) {
        self.name = name
        preexisting = existingColumns != nil
        isCreated = preexisting
        addsColumns = !preexisting || altersExisting
        for column in existingColumns ?? [] { register(column) }
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
        if columns.isEmpty { register(Column(name: uniqueName(for: "_"), type: .untyped)) }
        try db.execute(sql: "CREATE TABLE \(name.quotedSQLIdentifier) (\(columnDefinitions))")
        isCreated = true
        try insertWaitingRows(in: db)
    }

    private func insertWaitingRows(in db: Database) throws {
        for _ in 0..<waitingEmptyRows { try db.execute(sql: "INSERT INTO \(name.quotedSQLIdentifier) DEFAULT VALUES") }
        waitingEmptyRows = 0
    }

    private var columnDefinitions: String {
        columns.map { "\($0.name.quotedSQLIdentifier) \($0.type.sql)".trimmingSuffixSpace }.joined(separator: ", ")
    }

    /// The column index for field `name`, adding the column (of type `held`, the
    /// narrowest that holds the field's value) if new. A preexisting table that may
    /// not gain columns (``addsColumns``) refuses a new field with a `.data` error at
    /// `position`, the record's.
    func columnIndex(for name: Name, holding held: ColumnType?, at position: SourcePosition, in db: Database) throws -> Int {
        if let index = indexByName.value(for: name) { return index }
        let stored = SQLiteNames.column(name.qualified)
        if stored != name.qualified, let index = indexByName.value(forQualified: stored) {
            // A column an earlier run made for this field, its NUL written as U+FFFD.
            indexByName.set(index, for: name)
            return index
        }
        let index: Int
        do {
            guard addsColumns else {
                throw IngestError(.data, "the existing table \(self.name) has no column for field \(name.qualified)",
                                  position: position, reason: .missingColumn(table: self.name, field: name.qualified))
            }
            let limit = Int(sqlite3_limit(db.sqliteConnection, SQLITE_LIMIT_COLUMN, -1))
            guard columns.count < limit else {
                throw IngestError(.data, "table \(self.name) would need more than \(limit) columns (SQLite's limit) for field \(name.qualified): choose a deeper record path, or write JSON",
                                  position: position)
            }
            let column = Column(name: uniqueName(for: stored), type: held ?? .untyped)
            register(column)
            index = columns.count - 1
            if isCreated {
                try db.execute(sql: "ALTER TABLE \(self.name.quotedSQLIdentifier) ADD COLUMN \(column.name.quotedSQLIdentifier) \(column.type.sql)")
                insert = nil
                if preexisting { addedColumns.append(column.name) }
            }
        }
        indexByName.set(index, for: name)
        return index
    }

    /// A name no other column has, as SQLite compares names: `id`, then `id_2`, `id_3`…
    private func uniqueName(for name: String) -> String {
        var candidate = name
        var suffix = 2
        while takenNames.contains(SQLIdentifier.folded(candidate)) {
            candidate = "\(name)_\(suffix)"
            suffix += 1
        }
        return candidate
    }

    private func register(_ column: Column) {
        columns.append(column)
        indexByName.set(columns.count - 1, forQualified: column.name)
        takenNames.insert(SQLIdentifier.folded(column.name))
    }

    /// Widens column `index` so it holds a value needing `needed` (nested data of
    /// `shape`), rebuilding the table if it has rows.
    @inline(__always)
    func accommodate(_ needed: ColumnType?, shape: FieldValue.JSONShape?, inColumn index: Int, db: Database) throws {
        if let shape, columns[index].jsonShape == nil { columns[index].jsonShape = shape }
        guard let needed, needed > columns[index].type, !preexisting else { return }
        columns[index].type = needed
        if isCreated { try rebuild(in: db) }
    }

    /// Recreates the table with the current column types, copying its rows. SQLite's
    /// affinity converts the stored values, losslessly given the number rules.
    private func rebuild(in db: Database) throws {
        insert = nil
        let scratch = "ingest rebuild of \(name)"
        try db.execute(sql: "CREATE TABLE \(scratch.quotedSQLIdentifier) (\(columnDefinitions))")
        try db.execute(sql: "INSERT INTO \(scratch.quotedSQLIdentifier) SELECT * FROM \(name.quotedSQLIdentifier)")
        try db.execute(sql: "DROP TABLE \(name.quotedSQLIdentifier)")
        try db.execute(sql: "ALTER TABLE \(scratch.quotedSQLIdentifier) RENAME TO \(name.quotedSQLIdentifier)")
    }

    /// Moves the rows of `other`, a table this run created, into this one (adding the
    /// columns it lacks where it may gain columns), and drops `other`.
    func absorb(_ other: SQLiteTable, in db: Database) throws {
        insert = nil
        for column in other.columns where !takenNames.contains(SQLIdentifier.folded(column.name)) {
            guard addsColumns else {
                throw IngestError(.data, "the existing table \(name) has no column for field \(column.name)",
                                  reason: .missingColumn(table: name, field: column.name))
            }
            register(Column(name: column.name, type: column.type, jsonShape: column.jsonShape))
            try db.execute(sql: "ALTER TABLE \(name.quotedSQLIdentifier) ADD COLUMN \(column.name.quotedSQLIdentifier) \(column.type.sql)")
            if preexisting { addedColumns.append(column.name) }
        }
        if other.isCreated {
            let names = other.columns.map(\.name.quotedSQLIdentifier).joined(separator: ", ")
            try db.execute(sql: "INSERT INTO \(name.quotedSQLIdentifier) (\(names)) SELECT \(names) FROM \(other.name.quotedSQLIdentifier)")
            try db.execute(sql: "DROP TABLE \(other.name.quotedSQLIdentifier)")
        }
        for _ in 0..<other.waitingEmptyRows { try db.execute(sql: "INSERT INTO \(name.quotedSQLIdentifier) DEFAULT VALUES") }
        rowCount += other.rowCount
    }

    /// Drops the prepared statements: they must be gone before the connection closes.
    func releaseStatements() {
        insert = nil
    }

    func rename(to newName: String, in db: Database) throws {
        insert = nil
        guard isCreated else { name = newName; return }
        try db.execute(sql: "ALTER TABLE \(name.quotedSQLIdentifier) RENAME TO \(newName.quotedSQLIdentifier)")
        name = newName
    }

    /// The INSERT for all current columns, prepared once and reused until the
    /// columns change.
    func insertStatement(in db: Database) throws -> SQLiteStatement {
        if let insert { return insert.sqliteStatement }
        let names = columns.map(\.name.quotedSQLIdentifier).joined(separator: ", ")
        let slots = Array(repeating: "?", count: columns.count).joined(separator: ", ")
        let conflict = conflictClause.map { " " + $0 } ?? ""
        let statement = try db.makeStatement(sql: "INSERT INTO \(name.quotedSQLIdentifier) (\(names)) VALUES (\(slots))\(conflict)")
        insert = statement
        return statement.sqliteStatement
    }

    func didInsertRow() { rowCount += 1 }

    func didStoreEmptyText(inColumn index: Int) { columns[index].holdsEmptyText = true }

    /// Gives empty nested elements, stored as '' before the column was known to hold
    /// JSON, the empty JSON value of the column's shape.
    func finish(in db: Database) throws {
        releaseStatements()
        for column in columns where column.holdsEmptyText {
            guard let shape = column.jsonShape else { continue }
            try db.execute(sql: "UPDATE \(name.quotedSQLIdentifier) SET \(column.name.quotedSQLIdentifier) = ? WHERE \(column.name.quotedSQLIdentifier) = ''",
                           arguments: [shape == .array ? "[]" : "{}"])
        }
    }
}

private extension String {
    var trimmingSuffixSpace: String { hasSuffix(" ") ? String(dropLast()) : self }
}
