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
    /// The compiled schema whose entities are mapped.
    public let schema: CompiledSchema
    /// Where records that do not fit go; shared by every input of the import.
    public let rejects: RecordRejects
    /// Whether a field the input does not give (and the schema gives no default) is
    /// left out of the record rather than given as null: an upsert then leaves its
    /// column as stored (``/IngestCore/TableDesign/upsertNulls``).
    public let omitsAbsentFields: Bool

    /// A mapping by `schema`, with records that do not fit handled by `rejects`
    /// (by default, the first one fails the import); with `omitsAbsentFields`, a
    /// field the input does not give is left out of its record instead of null.
    public init(schema: CompiledSchema, rejects: RecordRejects = RecordRejects(), omitsAbsentFields: Bool = false) {
        self.schema = schema
        self.rejects = rejects
        self.omitsAbsentFields = omitsAbsentFields
    }

    /// The schema's handlers for one input of `format`, writing to `sink`; rejects
    /// name the input `inputName`.
    public func mapping(
        for format: InputFormat, inputName: String, limits: ParseLimits,
        into sink: any RecordSink
    ) -> any DocumentMapping {
        rejects.inputName = inputName
        return SchemaDocumentMapping(
            schema: schema, format: format, sink: sink, rejects: rejects, omitsAbsentFields: omitsAbsentFields)
    }

    /// A schema's records depend on their own elements only; but skipped records go
    /// to the rejects in input order, so only a mapping that fails at the first one
    /// maps lines alone.
    public var mapsEachLineAlone: Bool { rejects.mode == .fail }
}
