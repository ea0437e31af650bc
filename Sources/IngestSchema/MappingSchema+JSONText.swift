import IngestCore
import IngestPOSIX
/// Writing a schema as the JSON file it is read from.
extension MappingSchema {
    /// The schema as indented JSON, members in the model's order and absent ones
    /// left out, ending in a newline: what `ingest schema infer` prints. It reads
    /// back as the same schema.
    public var jsonText: String { jsonValue.prettyText() + "\n" }

    /// Writes ``jsonText`` to `path` atomically (`-`: standard output). An existing
    /// file is refused (exit 73) unless `replace`.
    public func write(toFile path: String, replace: Bool) throws {
        try AtomicFile.write(Array(jsonText.utf8), to: path, replace: replace)
    }

    /// Every member, in `CodingKeys` order: the exhaustive switches make a member
    /// added to the format fail to compile until it is written here too.
    var jsonValue: JSONValue {
        .object(
            CodingKeys.allCases.compactMap { key in
                let value: JSONValue? =
                    switch key {
                    case .schema: schema.map(JSONValue.string)
                    case .description: description.map(JSONValue.string)
                    case .entities: .array(entities.map(\.jsonValue))
                    }
                return value.map { (key.stringValue, $0) }
            })
    }
}

extension MappingSchema.Entity {
    var jsonValue: JSONValue {
        .object(
            CodingKeys.allCases.compactMap { key in
                let value: JSONValue? =
                    switch key {
                    case .name: .string(name)
                    case .records: .string(records)
                    case .description: description.map(JSONValue.string)
                    case .table: table.map(JSONValue.string)
                    case .archiveClass: archiveClass.map(JSONValue.string)
                    case .fields: .array(fields.map(\.jsonValue))
                    case .primaryKey: primaryKey.map { .array($0.map(JSONValue.string)) }
                    case .unique: unique.map { .array($0.map { .array($0.map(JSONValue.string)) }) }
                    case .indexes: indexes.map { .array($0.map { .array($0.map(JSONValue.string)) }) }
                    case .children: children.map { .array($0.map(\.jsonValue)) }
                    case .foreignKey: foreignKey.map(JSONValue.string)
                    }
                return value.map { (key.stringValue, $0) }
            })
    }
}

extension MappingSchema.Field {
    var jsonValue: JSONValue {
        .object(
            CodingKeys.allCases.compactMap { key in
                let value: JSONValue? =
                    switch key {
                    case .name: .string(name)
                    case .source: source.map(JSONValue.string)
                    case .type: type.map { .string($0.rawValue) }
                    case .format: format.map(JSONValue.string)
                    case .required: required.map(JSONValue.bool)
                    case .default: self.default.map(JSONValue.string)
                    case .description: description.map(JSONValue.string)
                    case .column: column.map(JSONValue.string)
                    case .archiveKey: archiveKey.map(JSONValue.string)
                    case .plistKey: plistKey.map(JSONValue.string)
                    }
                return value.map { (key.stringValue, $0) }
            })
    }
}
