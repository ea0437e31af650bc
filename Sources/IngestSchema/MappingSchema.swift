import IngestCore
import Foundation

/// A mapping schema: the declarative form of what Neuburg's delegate subclasses
/// hard-code per document — which elements are records, which fields they keep,
/// their types, keys and names in each output, and their child entities.
///
/// It is read from a JSON file (`--schema FILE`) described by
/// `Schemas/ingest-schema.schema.json`:
///
/// ```json
/// {
///   "entities": [{
///     "name": "person",
///     "records": "people/person",
///     "table": "people",
///     "archiveClass": "Person",
///     "primaryKey": ["id"],
///     "fields": [
///       {"name": "id", "source": "@id", "type": "integer", "required": true},
///       {"name": "firstName", "required": true, "archiveKey": "first"},
///       {"name": "born", "type": "date"}
///     ],
///     "children": [{
///       "name": "tag", "records": "tags/tag", "table": "tags",
///       "fields": [{"name": "tag", "source": "."}]
///     }]
///   }]
/// }
/// ```
///
/// ``CompiledSchema/load(path:output:)`` reads a file, checks it and compiles it
/// into the handlers that run it.
public struct MappingSchema: Codable, Equatable, Sendable {
    /// A link to the JSON Schema, for editors; ignored by ingest.
    public var schema: String?
    /// What the schema is for, for its readers; ignored by ingest.
    public var description: String?
    /// The kinds of record the schema declares, each with its fields and children.
    public var entities: [Entity]

    /// A schema declaring `entities`.
    public init(entities: [Entity], schema: String? = nil, description: String? = nil) {
        self.entities = entities
        self.schema = schema
        self.description = description
    }

    /// One kind of record, and the table, dictionary or class its records become.
    public struct Entity: Codable, Equatable, Sendable {
        /// The entity's name: the default table name and plist/JSON key.
        public var name: String
        /// Where its records are. Top level: a path from the document element, like
        /// `--records` (`people/person`; for JSON, below the top-level value:
        /// `people/item`). A child entity: a path from its parent's record element
        /// (`tags/tag`). The last step may carry predicates: `person[@type='admin']`,
        /// `person[status='active']`.
        public var records: String
        /// What the entity is, for the schema's readers; ignored by ingest.
        public var description: String?
        /// The SQLite table; default ``name``.
        public var table: String?
        /// The class of the objects in `--to archive`; default: the table name
        /// singularised and capitalised.
        public var archiveClass: String?
        /// The fields, in column order.
        public var fields: [Field]
        /// Names of the fields that identify a record; `--upsert` updates by it.
        public var primaryKey: [String]?
        /// Sets of fields whose values are unique together.
        public var unique: [[String]]?
        /// Sets of fields to index, in order.
        public var indexes: [[String]]?
        /// Entities whose records are inside this one's: a one-to-many relationship.
        public var children: [Entity]?
        /// A child entity's column holding its parent's primary key; default
        /// `<parent name>_<key field>`.
        public var foreignKey: String?

        /// An entity named `name` whose records are at `records`; the other members are
        /// optional, as in the file.
        public init(
            name: String, records: String, table: String? = nil, archiveClass: String? = nil,
            fields: [Field], primaryKey: [String]? = nil, unique: [[String]]? = nil,
            indexes: [[String]]? = nil, children: [Entity]? = nil, foreignKey: String? = nil,
            description: String? = nil
        ) {
            self.name = name
            self.records = records
            self.table = table
            self.archiveClass = archiveClass
            self.fields = fields
            self.primaryKey = primaryKey
            self.unique = unique
            self.indexes = indexes
            self.children = children
            self.foreignKey = foreignKey
            self.description = description
        }
    }

    /// One field of an entity's records.
    public struct Field: Codable, Equatable, Sendable {
        /// The field's name: the default column name, plist key and archive key.
        public var name: String
        /// Where the value is, relative to the record element: a child element
        /// (`firstName`, `address/city`), an attribute (`@id`, `address/@zip`), or
        /// the record's own text (`.`). A JSON member is a child (`address/city`).
        /// Default: ``name``.
        public var source: String?
        /// What the value must be and how outputs store it; default `ColumnType.text`.
        public var type: ColumnType?
        /// For `date` and `datetime`: the input's format as a Unicode date pattern
        /// (`dd/MM/yyyy`); default ISO 8601.
        public var format: String?
        /// Whether a record without this field is rejected.
        public var required: Bool?
        /// The value when the field is absent, as it would appear in the input.
        public var `default`: String?
        /// What the field holds, for the schema's readers; ignored by ingest.
        public var description: String?
        /// The column name in a database; default ``name``.
        public var column: String?
        /// The key the field is archived under in a keyed archive; default ``name``.
        public var archiveKey: String?
        /// The key of the field in a property list's dictionaries; default ``name``.
        public var plistKey: String?

        /// A field named `name`; the other members are optional, as in the file.
        public init(
            name: String, source: String? = nil, type: ColumnType? = nil, format: String? = nil,
            required: Bool? = nil, default: String? = nil, column: String? = nil,
            archiveKey: String? = nil, plistKey: String? = nil, description: String? = nil
        ) {
            self.name = name
            self.source = source
            self.type = type
            self.format = format
            self.required = required
            self.default = `default`
            self.column = column
            self.archiveKey = archiveKey
            self.plistKey = plistKey
            self.description = description
        }
    }

    /// A field's type: `ColumnType`, what its text must be and what the
    /// outputs store, so a field's type is its column's.
    @available(*, deprecated, renamed: "ColumnType")
    public typealias FieldType = ColumnType
}

extension MappingSchema {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case schema = "$schema", description, entities
    }

    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        schema = try container.decodeIfPresent(String.self, forKey: .schema)
        description = try container.decodeIfPresent(String.self, forKey: .description)
        entities = try container.decode([Entity].self, forKey: .entities)
    }
}

extension MappingSchema.Entity {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case name, records, description, table, archiveClass, fields, primaryKey, unique, indexes, children, foreignKey
    }

    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        records = try container.decode(String.self, forKey: .records)
        description = try container.decodeIfPresent(String.self, forKey: .description)
        table = try container.decodeIfPresent(String.self, forKey: .table)
        archiveClass = try container.decodeIfPresent(String.self, forKey: .archiveClass)
        fields = try container.decode([MappingSchema.Field].self, forKey: .fields)
        // A single key may be written as a string.
        if let one = try? container.decodeIfPresent(String.self, forKey: .primaryKey) {
            primaryKey = [one]
        } else {
            primaryKey = try container.decodeIfPresent([String].self, forKey: .primaryKey)
        }
        unique = try container.decodeIfPresent([[String]].self, forKey: .unique)
        indexes = try container.decodeIfPresent([[String]].self, forKey: .indexes)
        children = try container.decodeIfPresent([MappingSchema.Entity].self, forKey: .children)
        foreignKey = try container.decodeIfPresent(String.self, forKey: .foreignKey)
    }
}

extension MappingSchema.Field {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case name, source, type, format, required, `default`, description, column, archiveKey, plistKey
    }

    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        source = try container.decodeIfPresent(String.self, forKey: .source)
        if let typeName = try container.decodeIfPresent(String.self, forKey: .type) {
            guard let type = ColumnType(rawValue: typeName) else {
                throw DecodingError.dataCorrupted(
                    .init(
                        codingPath: decoder.codingPath + [CodingKeys.type],
                        debugDescription:
                            "\"\(typeName)\" is not a type; expected one of \(ColumnType.allCases.map(\.rawValue).joined(separator: ", "))"
                    ))
            }
            self.type = type
        }
        format = try container.decodeIfPresent(String.self, forKey: .format)
        required = try container.decodeIfPresent(Bool.self, forKey: .required)
        // A default may be written as the JSON value it stands for: 0, true, "n/a".
        if let text = try? container.decodeIfPresent(String.self, forKey: .default) {
            `default` = text
        } else if let flag = try? container.decodeIfPresent(Bool.self, forKey: .default) {
            `default` = flag ? "true" : "false"
        } else if let integer = try? container.decodeIfPresent(Int64.self, forKey: .default) {
            `default` = String(integer)
        } else if let number = try? container.decodeIfPresent(Double.self, forKey: .default) {
            `default` = number.description
        } else if container.contains(.default), try !container.decodeNil(forKey: .default) {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: decoder.codingPath + [CodingKeys.default],
                    debugDescription: "a default is a string, number or boolean"))
        }
        description = try container.decodeIfPresent(String.self, forKey: .description)
        column = try container.decodeIfPresent(String.self, forKey: .column)
        archiveKey = try container.decodeIfPresent(String.self, forKey: .archiveKey)
        plistKey = try container.decodeIfPresent(String.self, forKey: .plistKey)
    }
}

/// Any member name, to list what an object holds.
struct AnyCodingKey: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(stringValue: String) { self.stringValue = stringValue }
    init(intValue: Int) {
        stringValue = String(intValue)
        self.intValue = intValue
    }
}

extension Decoder {
    /// Fails on a member the schema format does not have: a misspelt `colum` must not
    /// be ignored silently.
    func rejectUnknownKeys<Keys: CodingKey & CaseIterable>(_ keys: Keys.Type) throws {
        let container = try self.container(keyedBy: AnyCodingKey.self)
        let known = Keys.allCases.map(\.stringValue)
        for key in container.allKeys where !known.contains(key.stringValue) {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: codingPath + [key],
                    debugDescription:
                        "unknown member \"\(key.stringValue)\"; expected one of \(known.joined(separator: ", "))"))
        }
    }
}
