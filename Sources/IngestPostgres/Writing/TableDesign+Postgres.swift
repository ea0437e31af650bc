import IngestCore

extension TableDesign.Table {
    /// The columns rows fill, in order: a child table's foreign key first (never NULL),
    /// then its own.
    var allColumns: [TableDesign.Column] {
        (foreignKey.map { [TableDesign.Column(name: $0.column, type: $0.type, notNull: true)] } ?? []) + columns
    }

    /// `CREATE TABLE` for this table under `physicalName` in `schema`, as the SQLite
    /// output declares it, in PostgreSQL's types:
    ///
    /// - a column per field, `NOT NULL` when required or part of the primary key;
    /// - `PRIMARY KEY` and `UNIQUE` as declared;
    /// - a child's foreign key `REFERENCES parent (key) ON DELETE CASCADE`, the parent
    ///   being `parentPhysicalName` (the parent's temporary name while a replacement is
    ///   built).
    ///
    /// Every name is a quoted identifier.
    func createStatement(schema: String, physicalName: String, parentPhysicalName: String?, ifNotExists: Bool) -> String
    {
        var definitions: [String] = []
        for column in allColumns {
            let notNull = column.notNull || primaryKey.contains(column.name) ? " NOT NULL" : ""
            var definition =
                "\(PostgresIdentifier.quoted(column.name)) \(PostgresColumnType(designed: column.type).sql)\(notNull)"
            if let foreignKey, column.name == foreignKey.column, let parentPhysicalName {
                definition +=
                    " REFERENCES \(PostgresIdentifier.qualified(schema, parentPhysicalName)) (\(PostgresIdentifier.quoted(foreignKey.parentColumn))) ON DELETE CASCADE"
            }
            definitions.append(definition)
        }
        if !primaryKey.isEmpty { definitions.append("PRIMARY KEY (\(Self.list(primaryKey)))") }
        for set in unique { definitions.append("UNIQUE (\(Self.list(set)))") }
        let exists = ifNotExists ? "IF NOT EXISTS " : ""
        return
            "CREATE TABLE \(exists)\(PostgresIdentifier.qualified(schema, physicalName)) (\(definitions.joined(separator: ", ")))"
    }

    /// The indexes of this table, named as the SQLite output names them after
    /// `physicalName` (`table_column…`, cut to 63 bytes), each with its `CREATE INDEX`:
    /// a child's foreign key, each declared index, and for an upsert into a child table
    /// without a primary key a unique index over all its columns (`table_rows`), which
    /// tells a child row already stored, NULLs included (a NULL is keyed apart from
    /// every value, where a plain unique index would let each NULL in again).
    ///
    /// In that unique index, text, `jsonb` and `bytea` columns are indexed by their MD5:
    /// a B-tree entry holds at most about 2 700 bytes, and a child row's text may be
    /// longer. Two values with one MD5 would count as one row; no such text is known
    /// to occur by chance.
    func indexes(schema: String, physicalName: String, upsert: Bool, ifNotExists: Bool) -> [(name: String, sql: String)]
    {
        let exists = ifNotExists ? "IF NOT EXISTS " : ""
        let table = PostgresIdentifier.qualified(schema, physicalName)
        var result: [(name: String, sql: String)] = []
        for set in (foreignKey.map { [[$0.column]] } ?? []) + indexes {
            let name = PostgresIdentifier.fitted(([physicalName] + set).joined(separator: "_"))
            result.append(
                (name, "CREATE INDEX \(exists)\(PostgresIdentifier.quoted(name)) ON \(table) (\(Self.list(set)))"))
        }
        if upsert, primaryKey.isEmpty, foreignKey != nil {
            let name = PostgresIdentifier.fitted(physicalName + "_rows")
            let keys = allColumns.flatMap { column -> [String] in
                let quoted = PostgresIdentifier.quoted(column.name)
                // A unique index counts NULLs as all different; a row with one must still
                // be found the second time, so a nullable column's NULL gets a key of its own.
                let nullable = !column.notNull
                switch column.type {
                case .text, .data: return [nullable ? "coalesce(md5(\(quoted)), '')" : "md5(\(quoted))"]
                case .json: return [nullable ? "coalesce(md5(\(quoted)::text), '')" : "md5(\(quoted)::text)"]
                case .bool: return [nullable ? "coalesce(\(quoted)::integer, 2)" : quoted]
                case .integer, .real, .date, .datetime:
                    guard nullable else { return [quoted] }
                    let stand = column.type == .date || column.type == .datetime ? "'2000-01-01'" : "0"
                    return ["(\(quoted) IS NULL)", "coalesce(\(quoted), \(stand))"]
                }
            }
            result.append(
                (
                    name,
                    "CREATE UNIQUE INDEX \(exists)\(PostgresIdentifier.quoted(name)) ON \(table) (\(keys.joined(separator: ", ")))"
                ))
        }
        return result
    }

    static func list(_ names: [String]) -> String {
        names.map(PostgresIdentifier.quoted).joined(separator: ", ")
    }
}
