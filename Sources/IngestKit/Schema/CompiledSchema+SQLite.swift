extension CompiledSchema {
    /// The SQLite tables the schema declares:
    ///
    /// - a column per field, typed (text, date, datetime, json: TEXT; integer, bool:
    ///   INTEGER; real: REAL; data: BLOB), `NOT NULL` when required or part of the key;
    /// - `PRIMARY KEY`, `UNIQUE` constraints and indexes as declared;
    /// - a child entity's first column is its foreign key,
    ///   `REFERENCES parent(key) ON DELETE CASCADE`, indexed, with foreign keys on;
    /// - with `upsert`, a row whose primary key exists updates it
    ///   (`ON CONFLICT (key) DO UPDATE SET …`) and its child rows are replaced.
    ///
    /// Every name is quoted as an SQL identifier. Tables that exist already are kept
    /// (`CREATE TABLE IF NOT EXISTS`), so an append or an upsert adds to them.
    public func sqliteDesign(upsert: Bool) throws -> SQLiteDesign {
        if upsert, let keyless = entities.first(where: { $0.primaryKey.isEmpty }) {
            throw IngestError(.usage, "--upsert updates rows by their primary key, and entity \"\(keyless.name)\" (\(keyless.pointer)) declares none; add \"primaryKey\"", file: file)
        }
        var statements: [String] = []
        var tables: [SQLiteDesign.Table] = []
        for entity in allEntities {
            let table = entity.table.quotedSQLIdentifier
            var definitions: [String] = []
            if let foreignKey = entity.foreignKey, let parent = entity.parent {
                let key = parent.fields[parent.primaryKey[0]]
                definitions.append("\(foreignKey.column.quotedSQLIdentifier) \(key.type.sqlType) NOT NULL REFERENCES \(parent.table.quotedSQLIdentifier) (\(key.outputName.qualified.quotedSQLIdentifier)) ON DELETE CASCADE")
            }
            for (index, field) in entity.fields.enumerated() {
                let notNull = field.required || entity.primaryKey.contains(index) ? " NOT NULL" : ""
                definitions.append("\(field.outputName.qualified.quotedSQLIdentifier) \(field.type.sqlType)\(notNull)")
            }
            func columns(_ indexes: [Int]) -> String {
                indexes.map { entity.fields[$0].outputName.qualified.quotedSQLIdentifier }.joined(separator: ", ")
            }
            if !entity.primaryKey.isEmpty { definitions.append("PRIMARY KEY (\(columns(entity.primaryKey)))") }
            for set in entity.unique { definitions.append("UNIQUE (\(columns(set)))") }
            statements.append("CREATE TABLE IF NOT EXISTS \(table) (\(definitions.joined(separator: ", ")))")
            if let foreignKey = entity.foreignKey {
                let name = "\(entity.table)_\(foreignKey.column)"
                statements.append("CREATE INDEX IF NOT EXISTS \(name.quotedSQLIdentifier) ON \(table) (\(foreignKey.column.quotedSQLIdentifier))")
            }
            for set in entity.indexes {
                let name = ([entity.table] + set.map { entity.fields[$0].outputName.qualified }).joined(separator: "_")
                statements.append("CREATE INDEX IF NOT EXISTS \(name.quotedSQLIdentifier) ON \(table) (\(columns(set)))")
            }
            var conflictClause: String?
            if upsert, !entity.primaryKey.isEmpty {
                let others = entity.fields.indices.filter { !entity.primaryKey.contains($0) }
                    .map { entity.fields[$0].outputName.qualified.quotedSQLIdentifier }
                    + (entity.foreignKey.map { [$0.column.quotedSQLIdentifier] } ?? [])
                let update = others.isEmpty ? "DO NOTHING" : "DO UPDATE SET " + others.map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
                conflictClause = "ON CONFLICT (\(columns(entity.primaryKey))) \(update)"
            }
            tables.append(.init(
                name: entity.table,
                conflictClause: conflictClause,
                keyColumn: entity.primaryKey.count == 1 ? entity.fields[entity.primaryKey[0]].outputName.qualified : nil,
                childTables: entity.children.map { .init(table: $0.table, foreignKey: $0.foreignKey!.column) },
                isChild: entity.parent != nil))
        }
        let hasChildren = allEntities.contains { $0.parent != nil }
        return SQLiteDesign(statements: statements, tables: tables, enforcesForeignKeys: hasChildren, replacesChildRows: upsert)
    }
}

extension MappingSchema.FieldType {
    /// The declared column type, which gives the column its affinity.
    var sqlType: String {
        switch self {
        case .text, .date, .datetime, .json: "TEXT"
        case .integer, .bool: "INTEGER"
        case .real: "REAL"
        case .data: "BLOB"
        }
    }
}
