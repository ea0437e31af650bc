import IngestCore

/// A ``TableDesign`` in SQLite's terms: the statements that create its tables and
/// indexes, and per table the clause its INSERT ends with.
///
/// - A column per field, typed (text, date, datetime, json: TEXT; integer, bool:
///   INTEGER; real: REAL; data: BLOB), `NOT NULL` when declared so;
/// - `PRIMARY KEY`, `UNIQUE` constraints and indexes as declared; a
///   ``IngestCore/TableDesign/Table/randomKey`` is `UNIQUE` instead of `PRIMARY KEY`,
///   so that an integer key is not the rowid and rows are stored in the order written;
/// - a child table's first column is its foreign key,
///   `REFERENCES parent(key) ON DELETE CASCADE`, indexed (by the primary key when
///   that starts with it), with foreign keys on;
/// - with an upsert, a row whose primary key exists updates it
///   (`ON CONFLICT (key) DO UPDATE SET …`, the columns the record carries unless
///   ``IngestCore/TableDesign/upsertNulls``, see `SQLiteTable`); a child table without a key of its own
///   gets a unique index over all its columns (a NULL keyed apart from every value),
///   so a re-run adds the children it has not seen and leaves the others
///   (`ON CONFLICT DO NOTHING`).
///
/// Every name is quoted as an SQL identifier. Tables that exist already are kept
/// (`CREATE TABLE IF NOT EXISTS`), so an append or an upsert adds to them.
struct SQLiteDesign {
    /// `CREATE TABLE IF NOT EXISTS …` and `CREATE INDEX IF NOT EXISTS …`, in order.
    let statements: [String]
    /// The INSERT clause of each keyless child table of an upsert, by table name.
    let conflictClauses: [String: String]
    /// The primary key each table of an upsert updates by, by table name.
    let upsertKeys: [String: [String]]
    let design: TableDesign

    /// Whether SQLite's foreign key enforcement must be on for the connection.
    var enforcesForeignKeys: Bool { design.tables.contains { $0.foreignKey != nil } }

    init(_ design: TableDesign) {
        self.design = design
        var statements: [String] = []
        var clauses: [String: String] = [:]
        var keys: [String: [String]] = [:]
        for table in design.tables {
            let name = table.name.quotedSQLIdentifier
            var definitions: [String] = []
            if let key = table.foreignKey {
                definitions.append(
                    "\(key.column.quotedSQLIdentifier) \(SQLiteAffinity(key.type).sql) NOT NULL REFERENCES \(key.parentTable.quotedSQLIdentifier) (\(key.parentColumn.quotedSQLIdentifier)) ON DELETE CASCADE"
                )
            }
            for column in table.columns {
                definitions.append(
                    "\(column.name.quotedSQLIdentifier) \(SQLiteAffinity(column.type).sql)\(column.notNull ? " NOT NULL" : "")"
                )
            }
            if !table.primaryKey.isEmpty {
                // An integer key would be the rowid, which orders the rows: a random one is
                // a unique key beside it, and rows stay in the order written.
                definitions.append("\(table.randomKey ? "UNIQUE" : "PRIMARY KEY") (\(Self.list(table.primaryKey)))")
            }
            for set in table.unique { definitions.append("UNIQUE (\(Self.list(set)))") }
            statements.append("CREATE TABLE IF NOT EXISTS \(name) (\(definitions.joined(separator: ", ")))")
            // A key that starts with the foreign key is an index for it already.
            if let key = table.foreignKey, table.primaryKey.first != key.column {
                let index = "\(table.name)_\(key.column)"
                statements.append(
                    "CREATE INDEX IF NOT EXISTS \(index.quotedSQLIdentifier) ON \(name) (\(key.column.quotedSQLIdentifier))"
                )
            }
            for set in table.indexes {
                let index = ([table.name] + set).joined(separator: "_")
                statements.append(
                    "CREATE INDEX IF NOT EXISTS \(index.quotedSQLIdentifier) ON \(name) (\(Self.list(set)))")
            }
            guard design.upsert else { continue }
            if !table.primaryKey.isEmpty {
                keys[table.name] = table.primaryKey
            } else if let key = table.foreignKey {
                // A keyless child row is the same row when every column is the same. A
                // unique index counts NULLs as all different, so a nullable column is
                // indexed as (is it NULL, its value or 0): a row with a NULL is found again.
                let all =
                    [key.column.quotedSQLIdentifier]
                    + table.columns.map { column in
                        let quoted = column.name.quotedSQLIdentifier
                        return column.notNull ? quoted : "(\(quoted) IS NULL), ifnull(\(quoted), 0)"
                    }
                let index = "\(table.name)_rows"
                statements.append(
                    "CREATE UNIQUE INDEX IF NOT EXISTS \(index.quotedSQLIdentifier) ON \(name) (\(all.joined(separator: ", ")))"
                )
                clauses[table.name] = "ON CONFLICT DO NOTHING"
            }
        }
        self.statements = statements
        conflictClauses = clauses
        upsertKeys = keys
    }

    private static func list(_ names: [String]) -> String {
        names.map(\.quotedSQLIdentifier).joined(separator: ", ")
    }
}
