import IngestCore
import Foundation

/// A mapping schema checked and resolved for one kind of output: paths parsed,
/// names chosen, fields numbered. ``SchemaDocumentMapping`` builds handlers from it.
///
/// Everything the schema says is checked here, before any input is read; an error
/// names the file, a JSON pointer to the bad spot (`/entities/0/fields/2/type`) and
/// what would be valid.
///
/// Immutable once made, so one instance serves every input and thread of a run.
public final class CompiledSchema: @unchecked Sendable {
    /// Which output's names the records carry (``MappingSchema/Field/column`` and so on).
    public enum OutputKind: Sendable {
        /// The output whose names the records carry: a database (``MappingSchema/Field/column``),
        /// a property list (``MappingSchema/Field/plistKey``), a keyed archive
        /// (``MappingSchema/Field/archiveKey``) or JSON (the field's ``MappingSchema/Field/name``).
        case database, plist, archive, json
    }

    /// The schema as it was read.
    public let schema: MappingSchema
    /// The schema file, for messages.
    public let file: String
    /// The output whose names the records carry.
    public let output: OutputKind
    /// The top-level entities.
    let entities: [CompiledEntity]
    /// Every entity, parents before their children.
    var allEntities: [CompiledEntity] { entities.flatMap(\.withDescendants) }
    /// Output field names; a sink sees only these.
    let names = NameTable()

    /// Reads `path` and compiles it; a missing file is an input error (66), a schema
    /// that does not compile a usage error (64).
    public static func load(path: String, output: OutputKind) throws -> CompiledSchema {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw IngestError(.input, "cannot read the schema: \(error.localizedDescription)", file: path)
        }
        let schema: MappingSchema
        do {
            schema = try JSONDecoder().decode(MappingSchema.self, from: data)
        } catch let error as DecodingError {
            throw Self.describe(error, file: path)
        }
        return try CompiledSchema(schema, file: path, output: output)
    }

    /// Checks `schema` and compiles it for `output`; `file` names it in errors, which
    /// are `.usage` (exit 64) and point at the bad spot.
    public init(_ schema: MappingSchema, file: String, output: OutputKind) throws {
        self.schema = schema
        self.file = file
        self.output = output
        guard !schema.entities.isEmpty else {
            throw Self.error(
                file, "/entities",
                "no entities; declare at least one, e.g. {\"name\": \"person\", \"records\": \"people/person\", \"fields\": [...]}"
            )
        }
        var compiled: [CompiledEntity] = []
        var tables: [String: String] = [:]
        for (index, entity) in schema.entities.enumerated() {
            compiled.append(
                try CompiledEntity(
                    entity, pointer: "/entities/\(index)", parent: nil, schema: file,
                    output: output, names: names, tables: &tables))
        }
        entities = compiled
    }

    /// The archive class of each table whose entity names one (`archiveClass`).
    public var archiveClasses: [String: String] {
        Dictionary(
            allEntities.compactMap { entity in entity.archiveClass.map { (entity.table, $0) } },
            uniquingKeysWith: { first, _ in first })
    }

    static func error(_ file: String, _ pointer: String, _ message: String) -> IngestError {
        IngestError(.usage, "\(pointer): \(message)", file: file)
    }

    /// A decoding error as `file: /pointer: what is wrong`.
    private static func describe(_ error: DecodingError, file: String) -> IngestError {
        func pointer(_ path: [any CodingKey]) -> String {
            path.isEmpty ? "/" : path.map { "/" + ($0.intValue.map(String.init) ?? $0.stringValue) }.joined()
        }
        switch error {
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            let detail = (context.underlyingError as NSError?)?.userInfo[NSDebugDescriptionErrorKey] as? String
            return IngestError(.usage, "not valid JSON: \(detail ?? context.debugDescription)", file: file)
        case .dataCorrupted(let context):
            return Self.error(file, pointer(context.codingPath), context.debugDescription)
        case .keyNotFound(let key, let context):
            return Self.error(file, pointer(context.codingPath), "missing member \"\(key.stringValue)\"")
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            let expected =
                type == String.self
                ? "a string"
                : type == Bool.self
                    ? "true or false"
                    : "\(type)".hasPrefix("Array") ? "an array" : "an object"
            return Self.error(file, pointer(context.codingPath), "expected \(expected)")
        @unknown default:
            return IngestError(.usage, "\(error)", file: file)
        }
    }
}

/// One entity, resolved: its records path, fields and where their values are.
final class CompiledEntity {
    let name: String
    let pointer: String
    /// The table its records go to (also the plist/JSON key).
    let table: String
    let archiveClass: String?
    let steps: [SchemaPaths.Step]
    let fields: [CompiledField]
    let primaryKey: [Int]
    let unique: [[Int]]
    let indexes: [[Int]]
    private(set) var children: [CompiledEntity] = []
    weak var parent: CompiledEntity?
    /// A child's column holding its parent's key, always the record's first field.
    let foreignKey: (name: Name, column: String)?
    /// Where every value is, relative to the record element.
    let root: SourceNode
    /// Value slots: one per field, then one per child-value predicate.
    let slotCount: Int
    let attributePredicates: [(name: String, value: String)]
    let valuePredicates: [(slot: Int, value: String)]

    var withDescendants: [CompiledEntity] { [self] + children.flatMap(\.withDescendants) }

    init(
        _ entity: MappingSchema.Entity, pointer: String, parent: CompiledEntity?, schema file: String,
        output: CompiledSchema.OutputKind, names: NameTable, tables: inout [String: String]
    ) throws {
        func fail(_ at: String, _ message: String) -> IngestError { CompiledSchema.error(file, pointer + at, message) }
        name = entity.name
        self.pointer = pointer
        self.parent = parent
        guard !name.isEmpty else { throw fail("/name", "an entity needs a name") }
        table = entity.table ?? entity.name
        guard !table.isEmpty else { throw fail("/table", "a table needs a name") }
        if let other = tables[table.lowercased()] {
            throw fail(
                entity.table == nil ? "/name" : "/table",
                "table \"\(table)\" is already used by \(other); give this entity another \"table\"")
        }
        tables[table.lowercased()] = pointer
        archiveClass = entity.archiveClass
        if let archiveClass, archiveClass.isEmpty || archiveClass.hasPrefix("$") {
            throw fail("/archiveClass", "\"\(archiveClass)\" is not a class name; expected a name such as Person")
        }
        do {
            steps = try SchemaPaths.records(entity.records)
        } catch {
            throw fail("/records", error.message)
        }

        // Fields, and their names in this output.
        var fields: [CompiledField] = []
        var outputNames: [String: Int] = [:]
        let parentKey = parent.flatMap { $0.primaryKey.count == 1 ? $0.fields[$0.primaryKey[0]] : nil }
        if let parent {
            guard let parentKey else {
                throw CompiledSchema.error(
                    file, parent.pointer + "/primaryKey",
                    "entity \"\(parent.name)\" has child entities, so it needs a primaryKey of one field for their foreign key"
                )
            }
            let column = entity.foreignKey ?? "\(parent.name)_\(parentKey.schemaName)"
            foreignKey = (names.intern(column), column)
            outputNames[column.lowercased()] = -1
        } else {
            if entity.foreignKey != nil {
                throw fail("/foreignKey", "only a child entity (in \"children\") has a foreign key")
            }
            foreignKey = nil
        }
        guard !entity.fields.isEmpty else {
            throw fail("/fields", "no fields; declare at least one, e.g. {\"name\": \"title\"}")
        }
        for (index, field) in entity.fields.enumerated() {
            let compiled = try CompiledField(
                field, slot: index, pointer: "\(pointer)/fields/\(index)", file: file, output: output, names: names)
            let key = compiled.outputName.qualified.lowercased()
            if let other = outputNames[key] {
                let what = other < 0 ? "the foreign key" : "field \(other)"
                throw fail(
                    "/fields/\(index)",
                    "name \"\(compiled.outputName.qualified)\" is already taken by \(what) in this output; names compare without case"
                )
            }
            outputNames[key] = index
            fields.append(compiled)
        }
        self.fields = fields

        func resolve(_ list: [String], at: String) throws -> [Int] {
            try list.enumerated().map { offset, name in
                guard let index = fields.firstIndex(where: { $0.schemaName == name }) else {
                    throw fail(
                        "\(at)/\(offset)",
                        "no field named \"\(name)\"; fields are \(fields.map(\.schemaName).joined(separator: ", "))")
                }
                return index
            }
        }
        primaryKey = try resolve(entity.primaryKey ?? [], at: "/primaryKey")
        unique = try (entity.unique ?? []).enumerated().map { try resolve($1, at: "/unique/\($0)") }
        indexes = try (entity.indexes ?? []).enumerated().map { try resolve($1, at: "/indexes/\($0)") }

        // Predicates: attributes are checked when the record starts, child values at its end.
        let root = SourceNode()
        var attributePredicates: [(String, String)] = []
        var valuePredicates: [(Int, String)] = []
        var slot = fields.count
        for predicate in steps.last!.predicates {
            if predicate.source.elements.isEmpty, let attribute = predicate.source.attribute {
                attributePredicates.append((attribute, predicate.value))
            } else {
                do {
                    try root.add(predicate.source, slot: slot, isJSON: false)
                } catch let problem as SchemaPaths.Problem {
                    throw fail("/records", problem.message)
                }
                valuePredicates.append((slot, predicate.value))
                slot += 1
            }
        }
        for (index, field) in fields.enumerated() {
            do {
                try root.add(field.source, slot: field.slot, isJSON: field.type == .json)
            } catch let problem as SchemaPaths.Problem {
                throw fail("/fields/\(index)/source", problem.message)
            }
        }
        self.root = root
        self.attributePredicates = attributePredicates
        self.valuePredicates = valuePredicates
        slotCount = slot

        for (index, child) in (entity.children ?? []).enumerated() {
            let compiled = try CompiledEntity(
                child, pointer: "\(pointer)/children/\(index)", parent: self,
                schema: file, output: output, names: names, tables: &tables)
            do {
                try root.add(entity: compiled, at: compiled.steps)
            } catch let problem as SchemaPaths.Problem {
                throw CompiledSchema.error(file, compiled.pointer + "/records", problem.message)
            }
            children.append(compiled)
        }
    }

    /// Whether an element's attributes satisfy the `[@name='value']` predicates.
    func accepts(_ attributes: Attributes) -> Bool {
        attributePredicates.allSatisfy { predicate in
            attributes.contains { RecordPath.step(predicate.name, matches: $0.name) && $0.string == predicate.value }
        }
    }
}

/// One field, resolved. A class: the record handler reads it for every value, and a
/// reference costs one retain where a struct of references costs several.
final class CompiledField {
    /// The name in the schema, which keys refer to.
    let schemaName: String
    /// The name records carry for this output.
    let outputName: Name
    let source: SchemaPaths.Source
    let type: ColumnType
    let converter: FieldConverter
    let required: Bool
    let defaultValue: FieldValue?
    let slot: Int

    init(
        _ field: MappingSchema.Field, slot: Int, pointer: String, file: String,
        output: CompiledSchema.OutputKind, names: NameTable
    ) throws {
        func fail(_ at: String, _ message: String) -> IngestError { CompiledSchema.error(file, pointer + at, message) }
        schemaName = field.name
        guard !field.name.isEmpty else { throw fail("/name", "a field needs a name") }
        let name: String =
            switch output {
            case .database: field.column ?? field.name
            case .plist: field.plistKey ?? field.name
            case .archive: field.archiveKey ?? field.name
            case .json: field.name
            }
        guard !name.isEmpty else { throw fail("", "an output name is empty") }
        outputName = names.intern(name)
        do {
            source = try SchemaPaths.source(field.source ?? field.name)
        } catch {
            throw fail("/source", error.message)
        }
        type = field.type ?? .text
        if field.format != nil, type != .date, type != .datetime {
            throw fail("/format", "a format applies to date and datetime fields only; this field is \(type.rawValue)")
        }
        let converter = FieldConverter(type: type, format: field.format)
        self.converter = converter
        required = field.required ?? false
        self.slot = slot
        if let text = field.default {
            if required { throw fail("/default", "a required field has no use for a default; drop one of them") }
            var bytes = Array(text.utf8)
            do {
                defaultValue = try bytes.withUnsafeMutableBufferPointer { buffer throws(FieldConverter.Mismatch) in
                    try converter.convert(UnsafeBufferPointer(buffer), kind: .markup)
                }
            } catch {
                throw fail("/default", "\(error.reason), as the field's type \(type.rawValue) requires")
            }
        } else {
            defaultValue = nil
        }
    }
}

/// Where values are below one element: the attributes and children a schema reads.
final class SourceNode {
    var children: [String: SourceNode] = [:]
    /// Fields holding this element's text.
    var textSlots: [Int] = []
    /// Fields holding this element whole, as JSON.
    var jsonSlots: [Int] = []
    var attributeSlots: [(name: String, slot: Int)] = []
    /// The child entity whose records are these elements.
    var entity: CompiledEntity?

    func add(_ source: SchemaPaths.Source, slot: Int, isJSON: Bool) throws {
        var node = self
        for step in source.elements { node = try node.child(step) }
        if let attribute = source.attribute {
            node.attributeSlots.append((attribute, slot))
        } else if isJSON {
            node.jsonSlots.append(slot)
        } else {
            node.textSlots.append(slot)
        }
        try node.checkJSON()
    }

    func add(entity: CompiledEntity, at steps: [SchemaPaths.Step]) throws {
        var node = self
        for step in steps { node = try node.child(step.name) }
        guard node.entity == nil else { throw SchemaPaths.Problem("another child entity already takes these elements") }
        node.entity = entity
        try node.checkJSON()
    }

    private func child(_ name: String) throws -> SourceNode {
        if !jsonSlots.isEmpty { throw SchemaPaths.Problem("a json field already takes this element whole") }
        if let existing = children[name] { return existing }
        let node = SourceNode()
        children[name] = node
        return node
    }

    private func checkJSON() throws {
        guard !jsonSlots.isEmpty else { return }
        if !children.isEmpty || !attributeSlots.isEmpty || !textSlots.isEmpty || entity != nil {
            throw SchemaPaths.Problem(
                "this element is also a json field's, which takes it whole; read its parts from the JSON, or drop the json field"
            )
        }
    }

    /// The node for a child element called `name`.
    func child(for name: Name) -> SourceNode? {
        children[name.qualified] ?? (name.local != name.qualified ? children[name.local] : nil) ?? children["*"]
    }
}
