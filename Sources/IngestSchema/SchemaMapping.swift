import IngestCore
/// The mapping a ``CompiledSchema`` declares, as handlers: path steps down to each
/// entity's records, then an `EntityRecordHandler` per entity, with a
/// `SourceNodeHandler` per element it reads from and the stock
/// ``/IngestCore/ElementTreeHandler`` for json fields — the same ``/IngestCore/HandlerStack`` and handler
/// protocol the automatic mapping uses.
///
/// ``SchemaRecordMapping`` makes one per input.
public final class SchemaMapping: DocumentMapping {
    let schema: CompiledSchema
    let sink: any RecordSink
    let rejects: RecordRejects
    /// Top-level entities whose records' parent was met.
    private var found = Set<ObjectIdentifier>()
    private let format: InputFormat

    init(schema: CompiledSchema, format: InputFormat, sink: any RecordSink, rejects: RecordRejects) {
        self.schema = schema
        self.format = format
        self.sink = sink
        self.rejects = rejects
    }

    /// The handler for the document element.
    public func makeRootHandler() throws -> any ElementHandler {
        var branches: [(steps: ArraySlice<SchemaPaths.Step>, entity: CompiledEntity)] = []
        for entity in schema.entities {
            // JSON paths start below the top-level value, like --records.
            let steps = format == .xml ? entity.steps : [SchemaPaths.Step(name: "*")] + entity.steps
            guard steps.count >= 2 else {
                throw CompiledSchema.error(schema.file, entity.pointer + "/records",
                                           "\"\(entity.steps.map(\.name).joined(separator: "/"))\": an XML records path starts at the document element and names the records' parent, then the records (people/person)")
            }
            branches.append((steps[...], entity))
        }
        return SchemaPathHandler(branches: branches, mapping: self, isDocument: true)
    }

    func didFindParent(of entity: CompiledEntity) {
        found.insert(ObjectIdentifier(entity))
    }

    /// Call after the parse: fails when no entity's records path met the document.
    public func checkMatched() throws {
        guard found.isEmpty else { return }
        let paths = schema.entities.map { $0.steps.map(\.name).joined(separator: "/") }
        throw IngestError(.data, "no element matches the schema's records path\(paths.count == 1 ? "" : "s") (\(paths.joined(separator: ", "))) in \(schema.file)")
    }

    func emit(_ record: Record) throws {
        try sink.write(record)
    }

    func reject(_ rejection: RecordRejection, record: Record) throws {
        try rejects.reject(rejection, recordStart: record.position)
    }
}

/// One step of the entities' records paths above the records: passes the children
/// that lead to records on, skips the others.
final class SchemaPathHandler: ElementHandler {
    var receivesText: Bool { false }
    private let branches: [(steps: ArraySlice<SchemaPaths.Step>, entity: CompiledEntity)]
    private unowned let mapping: SchemaMapping
    private let isDocument: Bool
    private var next: [ObjectIdentifier: any ElementHandler] = [:]

    init(branches: [(steps: ArraySlice<SchemaPaths.Step>, entity: CompiledEntity)], mapping: SchemaMapping, isDocument: Bool) {
        self.branches = branches
        self.mapping = mapping
        self.isDocument = isDocument
    }

    var accumulatesText: Bool { false }

    func didStart(_ element: ElementStart) throws {
        if isDocument, !branches.contains(where: { $0.steps.first!.matches(element.name) }) {
            let starts = Set(branches.map { "<\($0.steps.first!.name)>" }).sorted().joined(separator: " or ")
            throw IngestError(.data, "the document element is <\(element.name)>, but the schema's records paths start at \(starts)")
        }
        for branch in branches where branch.steps.count == 2 && branch.steps.first!.matches(element.name) {
            mapping.didFindParent(of: branch.entity)
        }
    }

    func handler(forChild element: ElementStart) throws -> (any ElementHandler)? {
        // Records first, in the schema's order: the first entity whose step and
        // attribute predicates match takes the element.
        for branch in branches where branch.steps.count == 2 {
            let step = branch.steps.last!
            if step.matches(element.name), branch.entity.accepts(element.attributes) {
                return recordHandler(for: branch.entity)
            }
        }
        let deeper = branches.filter { $0.steps.count > 2 && $0.steps.dropFirst().first!.matches(element.name) }
        guard !deeper.isEmpty else { return nil }
        let key = ObjectIdentifier(deeper[0].entity)
        if let handler = next[key] { return handler }
        let handler = SchemaPathHandler(branches: deeper.map { ($0.steps.dropFirst(), $0.entity) }, mapping: mapping, isDocument: false)
        next[key] = handler
        return handler
    }

    func take(scalar element: ElementEnd) throws -> Bool {
        for branch in branches where branch.steps.count == 2 && branch.steps.last!.matches(element.name) {
            guard let handler = recordHandler(for: branch.entity) as? EntityRecordHandler else { continue }
            try handler.takeRecord(scalar: element)
            return true
        }
        return true
    }

    private func recordHandler(for entity: CompiledEntity) -> any ElementHandler {
        let key = ObjectIdentifier(entity)
        if let handler = next[key] { return handler }
        let handler = EntityRecordHandler(entity: entity, mapping: mapping, parent: nil)
        next[key] = handler
        return handler
    }
}
