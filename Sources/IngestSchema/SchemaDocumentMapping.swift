import IngestCore

/// The mapping a ``CompiledSchema`` declares, as handlers: path steps down to each
/// entity's records, then an `EntityRecordHandler` per entity, with a
/// `SourceNodeHandler` per element it reads from and the stock
/// ``/IngestCore/ElementTreeHandler`` for json fields — the same ``/IngestCore/HandlerStack`` and handler
/// protocol the automatic mapping uses.
///
/// ``SchemaRecordMapping`` makes one per input.
public final class SchemaDocumentMapping: DocumentMapping {
    let schema: CompiledSchema
    let sink: any RecordSink
    let rejects: RecordRejects
    /// Whether a field the input does not give is left out of its record (see
    /// ``SchemaRecordMapping/omitsAbsentFields``).
    let omitsAbsentFields: Bool
    /// Top-level entities whose records' parent was met.
    private var found = Set<ObjectIdentifier>()
    /// Whether a record of a top-level entity was met.
    private(set) var foundRecord = false
    /// The document element, when no records path starts at it.
    private(set) var documentMismatch: Name?
    private let format: InputFormat
    /// Where the document's records are, noted until the first record is met.
    public let survey: RecordPathSurvey? = RecordPathSurvey()

    init(
        schema: CompiledSchema, format: InputFormat, sink: any RecordSink, rejects: RecordRejects,
        omitsAbsentFields: Bool = false
    ) {
        self.schema = schema
        self.omitsAbsentFields = omitsAbsentFields
        self.format = format
        self.sink = sink
        self.rejects = rejects
    }

    /// The handler for the document element.
    public func makeRootHandler() throws -> any ElementHandler {
        var branches: [SchemaPathHandler.Branch] = []
        for entity in schema.entities {
            // JSON paths start below the top-level value, like --records.
            let steps = format == .xml ? entity.steps : [SchemaPaths.Step(name: "*")] + entity.steps
            guard steps.count >= 2 else {
                throw CompiledSchema.error(
                    schema.file, entity.pointer + "/records",
                    "\"\(entity.steps.map(\.name).joined(separator: "/"))\": an XML records path starts at the document element and names the records' parent, then the records (people/person)"
                )
            }
            branches.append((steps[...], entity))
        }
        return SchemaPathHandler(branches: branches, mapping: self, isDocument: true)
    }

    func didFindParent(of entity: CompiledEntity) {
        found.insert(ObjectIdentifier(entity))
    }

    /// A record of a top-level entity was met: the schema matched.
    func didFindRecord() {
        foundRecord = true
        survey?.finish()
    }

    /// No records path starts at the document element: fails after a bounded look
    /// at the document for the suggestions.
    func documentElementMismatch(_ name: Name) {
        documentMismatch = name
        survey?.stop(after: RecordPathSurvey.elementsNotedAfterMismatch) { [unowned self] in self.unmatched() }
    }

    /// Call after the parse: fails (`.data`) when no entity's records path matched a
    /// record, naming the paths to records the document does hold. (A schema whose
    /// entities are spread over several documents matches when one of them does.)
    public func checkMatched() throws {
        if !foundRecord { throw unmatched() }
    }

    private func unmatched() -> IngestError {
        let paths = schema.entities.map { $0.steps.map(\.name).joined(separator: "/") }
        let suggestions = survey?.suggestions(for: paths, format: format) ?? []
        let list = "\(paths.count == 1 ? "path" : "paths") \(paths.joined(separator: ", "))"
        let message =
            if let documentMismatch {
                "the document element is <\(documentMismatch)>, but the schema's records \(list) start\(paths.count == 1 ? "s" : "") at \(Set(paths.map { "<\($0.prefix { $0 != "/" })>" }).sorted().joined(separator: " or ")) in \(schema.file)"
            } else if !found.isEmpty {
                "no record matches the schema's records \(list) in \(schema.file): the records' parent holds none"
            } else {
                "no element matches the schema's records \(list) in \(schema.file)"
            }
        return IngestError(.data, message, reason: .schemaRecordsMatchedNothing(paths, suggestions: suggestions))
    }

    func emit(_ record: IngestRecord) throws {
        try sink.write(record)
    }

    func reject(_ rejection: RecordRejection, record: IngestRecord) throws {
        try rejects.reject(rejection, recordStart: record.position)
    }
}

/// One step of the entities' records paths above the records: passes the children
/// that lead to records on, skips the others. An element that is a record of one
/// entity and on the way to another's records (`rss/channel` and
/// `rss/channel/item`) goes to both, through a ``HandlerPair``.
final class SchemaPathHandler: ElementHandler {
    var receivesText: Bool { false }
    typealias Branch = (steps: ArraySlice<SchemaPaths.Step>, entity: CompiledEntity)

    private let branches: [Branch]
    private unowned let mapping: SchemaDocumentMapping
    private let isDocument: Bool
    private var recordHandlers: [ObjectIdentifier: EntityRecordHandler] = [:]
    private var pairs: [ObjectIdentifier: HandlerPair] = [:]

    /// What a child element's name leads to: the entities whose records it may be
    /// (their attribute predicates still to check), in the schema's order, and the
    /// handler of the branches that go deeper through it.
    private struct Route {
        var records: [CompiledEntity]
        var deeper: SchemaPathHandler?
    }

    /// Routes by ``Name/id``; nil where not worked out yet.
    private var routes: [Route?] = []

    init(branches: [Branch], mapping: SchemaDocumentMapping, isDocument: Bool) {
        self.branches = branches
        self.mapping = mapping
        self.isDocument = isDocument
    }

    var accumulatesText: Bool { false }

    func didStart(_ element: ElementStart) throws {
        if isDocument, !branches.contains(where: { $0.steps.first!.matches(element.name) }) {
            mapping.documentElementMismatch(element.name)
        }
        for branch in branches where branch.steps.count == 2 && branch.steps.first!.matches(element.name) {
            mapping.didFindParent(of: branch.entity)
        }
    }

    func handler(forChild element: ElementStart) throws -> (any ElementHandler)? {
        if isDocument, mapping.documentMismatch != nil { return nil }
        let route = route(for: element.name)
        // Records first, in the schema's order: the first entity whose step and
        // attribute predicates match takes the element.
        guard let entity = route.records.first(where: { $0.accepts(element.attributes) }) else { return route.deeper }
        let record = recordHandler(for: entity)
        guard let deeper = route.deeper else { return record }
        let key = ObjectIdentifier(entity)
        if let pair = pairs[key], pair.second === deeper { return pair }
        let pair = HandlerPair(record, deeper)
        pairs[key] = pair
        return pair
    }

    func take(scalar element: ElementEnd) throws -> Bool {
        for entity in route(for: element.name).records {
            try recordHandler(for: entity).takeRecord(scalar: element)
            return true
        }
        return true
    }

    private func route(for name: Name) -> Route {
        if name.id >= routes.count { routes += Array(repeating: nil, count: name.id + 1 - routes.count) }
        if let route = routes[name.id] { return route }
        let records = branches.filter { $0.steps.count == 2 && $0.steps.last!.matches(name) }.map(\.entity)
        let deeper = branches.filter { $0.steps.count > 2 && $0.steps.dropFirst().first!.matches(name) }
        let route = Route(
            records: records,
            deeper: deeper.isEmpty
                ? nil
                : SchemaPathHandler(
                    branches: deeper.map { ($0.steps.dropFirst(), $0.entity) },
                    mapping: mapping, isDocument: false))
        routes[name.id] = route
        return route
    }

    private func recordHandler(for entity: CompiledEntity) -> EntityRecordHandler {
        if !mapping.foundRecord { mapping.didFindRecord() }
        let key = ObjectIdentifier(entity)
        if let handler = recordHandlers[key] { return handler }
        let handler = EntityRecordHandler(entity: entity, mapping: mapping, parent: nil)
        recordHandlers[key] = handler
        return handler
    }
}

/// The name ``SchemaDocumentMapping`` had before it said which half of a mapping it is.
@available(*, deprecated, renamed: "SchemaDocumentMapping")
public typealias SchemaMapping = SchemaDocumentMapping
