import IngestCore
import IngestParsers
/// Infers a ``MappingSchema`` from a sample of inputs: the schema that, run over the
/// same inputs, gives what the automatic mapping gives — the same tables, the same
/// columns in the same order, the same values — written out so it can be edited.
///
/// It runs the automatic mapping itself (``/IngestParsers/Importer``) over the first
/// ``sampleSize`` records of each input and keeps, per table, in the order first met:
///
/// - `records`: where the table's records are. XML: from the document element
///   (`people/person`); JSON: below the top-level value (`people/item`, or `item`
///   for a top-level array or JSON Lines); with a record path, the path as given,
///   a last step `*` replaced by the record element's name. A JSON document that is
///   one record (an object without arrays, or a scalar) is `.`.
/// - `table` and the entity's `name`: the table the automatic mapping named.
/// - each field's `source` (`firstName`, `@id`, or `.` for the record's own text)
///   and `type`, widened over the sample as the automatic mapping widens a column
///   (``/IngestCore/ColumnType/widened(toHold:)``): `bool` only when every non-null
///   value was a JSON boolean, then integer < real < text, `data` holding anything;
///   `json` when any value was nested or repeated; `text` when all were null.
///   A field whose name SQLite would take for an earlier one (`ID` after `id`) gets
///   the `column` the automatic mapping gave it (`ID_2`).
///
/// Nothing is marked `required`: a sample cannot prove a field is never missing.
/// Several inputs merge into one schema; a table met in more than one widens.
///
/// ```swift
/// let inference = SchemaInference(sampleSize: 100)
/// try inference.add(InputFile(path: "folks.xml"))
/// print(inference.schema.jsonText)
/// ```
public final class SchemaInference {
    /// 1000 records per input, what `ingest schema infer` samples unless told otherwise.
    public static let defaultSampleSize = 1000

    /// How inputs are read: record path, format, limits, parser.
    public let options: Importer.Options
    /// Records read from each input; 0 reads them all.
    public let sampleSize: Int
    /// Records sampled so far, over all inputs.
    public private(set) var recordCount = 0
    /// Inputs sampled so far, by display name.
    public private(set) var inputNames: [String] = []
    private let sampler = SchemaSampler()
    private var formats: Set<InputFormat> = []

    /// An inference reading inputs as `options` say, `sampleSize` records of each (0
    /// for all of them).
    public init(options: Importer.Options = .init(), sampleSize: Int = defaultSampleSize) {
        precondition(sampleSize >= 0, "a sample size is a count of records, or 0 for all")
        self.options = options
        self.sampleSize = sampleSize
        sampler.sampleSize = sampleSize
    }

    /// Samples the first ``sampleSize`` records of `input` and adds what they show.
    /// Throws as ``/IngestParsers/Importer/read(_:into:progress:)`` does for what it read: an input
    /// that is malformed past the sample is not noticed.
    public func add(_ input: InputFile) throws {
        var options = self.options
        let format = try options.format ?? InputFormat.detect(input)
        options.format = format
        formats.insert(format)
        sampler.beginInput(format: format)
        do {
            try Importer(options: options).read(input, into: sampler)
        } catch {
            // The sampler stopped the parse: the sample is complete, not the input wrong.
            guard sampler.stoppedEarly else { throw error }
        }
        recordCount += sampler.recordsInInput
        inputNames.append(input.displayName)
    }

    /// The schema of everything sampled so far: one entity per table that had records.
    public var schema: MappingSchema { build().schema }

    /// What the schema cannot say exactly, one message per problem: a JSON key that
    /// cannot be written as a source or records path, a field whose values came from
    /// an attribute in some records and a child element in others, records of one
    /// table at paths of different lengths, inputs of both XML and JSON.
    public var warnings: [String] { build().warnings }

    private func build() -> (schema: MappingSchema, warnings: [String]) {
        var warnings = sampler.pathConflicts
        if formats.contains(.xml), formats.count > 1 {
            warnings.append(
                "the inputs are both XML and JSON, whose records paths are written differently; the schema suits one of them"
            )
        }
        var entities: [MappingSchema.Entity] = []
        for table in sampler.tables where table.recordCount > 0 {
            let records = SchemaSampler.written(table.path ?? [])
            if let path = table.path, !path.isEmpty, !Self.isWritable(records: path) {
                warnings.append(
                    "\(table.name): the records path \(records) does not read back as those element names; edit it")
            }
            var fields: [MappingSchema.Field] = []
            var takenColumns: Set<String> = []
            for field in table.fields {
                let origin = field.origins.first ?? .element
                let source = Self.source(of: field.name, origin: origin)
                if !Self.isWritable(source: source, name: field.name, origin: origin) {
                    warnings.append(
                        "\(table.name).\(field.name): the source \(source) does not read back as that name; edit or remove the field"
                    )
                }
                if field.origins.isMixed {
                    warnings.append(
                        "\(table.name).\(field.name): an attribute, a child element or the record's own text in different records; the source \(source) takes only the first kind met"
                    )
                }
                let column = Self.uniqueColumn(field.name, taken: &takenColumns)
                fields.append(
                    MappingSchema.Field(
                        name: field.name, source: source, type: field.evidence.type,
                        column: column == field.name ? nil : column))
            }
            entities.append(MappingSchema.Entity(name: table.name, records: records, table: table.name, fields: fields))
        }
        return (MappingSchema(entities: entities), warnings)
    }

    /// The source of a field: `name`, `@name`, or `.`.
    static func source(of name: String, origin: IngestRecord.Field.Origin) -> String {
        switch origin {
        case .element: name
        case .attribute: "@" + name
        case .ownText: "."
        }
    }

    /// Whether `source` parses back to the child, attribute or own text it stands
    /// for: a JSON key such as `a/b`, `@x`, `.` or `""` does not.
    static func isWritable(source: String, name: String, origin: IngestRecord.Field.Origin) -> Bool {
        guard let parsed = try? SchemaPaths.source(source) else { return false }
        switch origin {
        case .element: return parsed == SchemaPaths.Source(elements: [name])
        case .attribute: return parsed == SchemaPaths.Source(elements: [], attribute: name)
        case .ownText: return parsed.isOwnText
        }
    }

    /// Whether the records path parses back to `steps`, without predicates.
    static func isWritable(records steps: [String]) -> Bool {
        guard let parsed = try? SchemaPaths.records(steps.joined(separator: "/")) else { return false }
        return parsed.map(\.name) == steps && parsed.allSatisfy(\.predicates.isEmpty)
    }

    /// The column SQLite gives `name` after the columns in `taken` (lower-cased):
    /// `id`, then `ID_2`, as ``SQLiteSink`` names them.
    static func uniqueColumn(_ name: String, taken: inout Set<String>) -> String {
        var candidate = name
        var suffix = 2
        while taken.contains(candidate.lowercased()) {
            candidate = "\(name)_\(suffix)"
            suffix += 1
        }
        taken.insert(candidate.lowercased())
        return candidate
    }
}
