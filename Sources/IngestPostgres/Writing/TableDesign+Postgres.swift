import IngestKit

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
    func createStatement(schema: String, physicalName: String, parentPhysicalName: String?, ifNotExists: Bool) -> String {
        var definitions: [String] = []
        for column in allColumns {
            let notNull = column.notNull || primaryKey.contains(column.name) ? " NOT NULL" : ""
            var definition = "\(PostgresIdentifier.quoted(column.name)) \(PostgresColumnType(designed: column.type).sql)\(notNull)"
            if let foreignKey, column.name == foreignKey.column, let parentPhysicalName {
                definition += " REFERENCES \(PostgresIdentifier.qualified(schema, parentPhysicalName)) (\(PostgresIdentifier.quoted(foreignKey.parentColumn))) ON DELETE CASCADE"
            }
            definitions.append(definition)
        }
        if !primaryKey.isEmpty { definitions.append("PRIMARY KEY (\(Self.list(primaryKey)))") }
        for set in unique { definitions.append("UNIQUE (\(Self.list(set)))") }
        let exists = ifNotExists ? "IF NOT EXISTS " : ""
        return "CREATE TABLE \(exists)\(PostgresIdentifier.qualified(schema, physicalName)) (\(definitions.joined(separator: ", ")))"
    }

    /// `CREATE INDEX` for a child's foreign key and for each declared index, named as the
    /// SQLite output names them (`table_column…`) after `physicalName`, cut to 63 bytes.
    func indexStatements(schema: String, physicalName: String, ifNotExists: Bool) -> [String] {
        let sets = (foreignKey.map { [[$0.column]] } ?? []) + indexes
        let exists = ifNotExists ? "IF NOT EXISTS " : ""
        return sets.map { set in
            let name = PostgresIdentifier.fitted(([physicalName] + set).joined(separator: "_"))
            return "CREATE INDEX \(exists)\(PostgresIdentifier.quoted(name)) ON \(PostgresIdentifier.qualified(schema, physicalName)) (\(Self.list(set)))"
        }
    }

    static func list(_ names: [String]) -> String {
        names.map(PostgresIdentifier.quoted).joined(separator: ", ")
    }
}
