import IngestCore

/// A mapping schema as an import's ``/IngestCore/RecordMapping``: the records, fields, types and
/// keys the schema declares, instead of the automatic mapping.
///
/// ```swift
/// let schema = try CompiledSchema.load(path: "Schemas/folks.json", output: .database)
/// let importer = Importer(options: .init(mapping: SchemaRecordMapping(schema: schema)))
/// let output = SQLiteOutput(path: "folks.db", mode: .replace, design: try schema.tableDesign(upsert: false))
/// try importer.run([InputFile(path: "folks.xml")], into: output)
/// ```
///
/// Records that do not fit go to `rejects`: by default the import fails at the
/// first one.
public struct SchemaRecordMapping: RecordMapping {
    public let schema: CompiledSchema
    public let rejects: RecordRejects

    public init(schema: CompiledSchema, rejects: RecordRejects = RecordRejects()) {
        self.schema = schema
        self.rejects = rejects
    }

    public func mapping(for format: InputFormat, inputName: String, into sink: any RecordSink) -> any DocumentMapping {
        rejects.inputName = inputName
        return SchemaMapping(schema: schema, format: format, sink: sink, rejects: rejects)
    }
}
