import IngestCore

extension CompiledSchema {
    /// The tables the schema declares, for a database output: a column per field,
    /// typed and `NOT NULL` when required or part of the key, the primary key,
    /// unique sets and indexes, and per child entity its foreign key to the parent.
    ///
    /// With `upsert`, every entity must declare a primary key (`.usage` otherwise).
    public func tableDesign(upsert: Bool) throws -> TableDesign {
        if upsert, let keyless = entities.first(where: { $0.primaryKey.isEmpty }) {
            throw IngestError(
                .usage,
                "an upsert updates rows by their primary key, and entity \"\(keyless.name)\" (\(keyless.pointer)) declares none; add \"primaryKey\"",
                file: file)
        }
        let tables = allEntities.map { entity in
            let names = entity.fields.map(\.outputName.qualified)
            let foreignKey = entity.foreignKey.flatMap { key in
                entity.parent.map { parent in
                    let parentKey = parent.fields[parent.primaryKey[0]]
                    return TableDesign.ForeignKey(
                        column: key.column, parentTable: parent.table,
                        parentColumn: parentKey.outputName.qualified, type: parentKey.type)
                }
            }
            return TableDesign.Table(
                name: entity.table,
                columns: entity.fields.enumerated().map { index, field in
                    .init(
                        name: field.outputName.qualified, type: field.type,
                        notNull: field.required || entity.primaryKey.contains(index))
                },
                primaryKey: entity.primaryKey.map { names[$0] },
                unique: entity.unique.map { $0.map { names[$0] } },
                indexes: entity.indexes.map { $0.map { names[$0] } },
                foreignKey: foreignKey,
                childTables: entity.children.map(\.table))
        }
        return TableDesign(tables: tables, upsert: upsert)
    }
}
