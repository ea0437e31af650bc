/// The mapping used when no schema is given: it finds the records and turns each
/// into fields, inferring types from the values. ``AutomaticRecordMapping`` makes one
/// per input.
///
/// - Records are the child elements of the document element, or the elements a
///   ``RecordPath`` names (`--records rss/channel/item`).
/// - A record's attributes and leaf child elements become fields. A child element
///   with children of its own, with attributes, or repeated within the record
///   becomes one field holding JSON (see ``ElementTreeHandler``). A record's own
///   non-blank text becomes a field named after the record element.
/// - Records go into a table named after their parent when the parent is a pure
///   collection — it holds nothing but records of one kind — and otherwise after the
///   record element (`people` for folks.xml, `item` for an RSS channel's items).
///
/// It is a tree of ordinary ``ElementHandler``s — a path step per level, a
/// collection, a record, its fields — so a declarative schema can compile into the
/// same pieces.
public final class AutomaticDocumentMapping: DocumentMapping {
    /// Where the records are, from the document element down; `nil` for the
    /// children of the document element.
    public let recordPath: RecordPath?
    /// The one table every record goes to (`--table`), or `nil` to name tables after
    /// the records' collections.
    public let table: String?
    /// With ``table``: the records (collection path and element) that go to it;
    /// records of another kind fail the import rather than mix into it.
    private var tableOwner: [String]?
    let sink: any RecordSink
    /// The sink, when it wants to hear where each table's records are.
    let locationObserver: (any RecordLocationObserver)?
    /// Whether the records' parent element was found at all.
    var foundCollection = false
    // Safety (`@exclusivity(unchecked)` here and in the handlers below): a mapping
    // and its handlers run on the parsing thread only, called one at a time by the
    // HandlerStack; none of their methods is called from inside an access to one of
    // these properties (the only closures passed while one is accessed build bytes
    // or compare names), so no two accesses overlap.
    /// The records built and not yet handed to the sink: handed over every
    /// ``batchSize`` records or ``batchBytes`` bytes, before a rename, at ``checkMatched()``, and at
    /// ``flush()`` between records.
    @exclusivity(unchecked) private(set) var batch = RecordBatch()
    /// Whether a record is being built in ``batch`` (taken by ``batchForRecord()``,
    /// not yet emitted or discarded), so that the batch may not be handed over.
    @exclusivity(unchecked) private var buildingRecord = false
    /// Records per batch: 1 024 keeps a batch's arena in the cache of a core.
    let batchSize: Int
    /// The bytes of field values a batch is handed over at, however few records it
    /// holds: large records (a megabyte each) would otherwise make each batch, and
    /// the memory of an import, grow with them.
    static let batchBytes = 1 << 20
    /// What is known of each collection, by the names of the elements from the
    /// document element down to it: every element at that place shares it, so the
    /// records of `r/p/*` under several `p`s go to the same tables.
    private var collections: [[ExactString]: CollectionState] = [:]
    /// Table names in use, as SQL compares them (ASCII case folded), with the
    /// collection that names them: two collections never write to one table by
    /// accident, and `a` and `A` never meet in a database that ignores case.
    private var tableOwners: [[UInt8]: [String]] = [:]

    /// Bounds on one record: nested data is bounded by ``ParseLimits/maxTextBytes``.
    let limits: ParseLimits
    /// Whether a record was found.
    private(set) var foundRecord = false
    /// The document element, when it is not the one the record path starts at.
    var documentMismatch: Name?
    /// The format of the document, for the suggestions' paths.
    let format: InputFormat
    /// Where the document's records are, noted until the first record is found.
    public let survey: RecordPathSurvey?

    /// - Parameters:
    ///   - recordPath: where the records are, from the document element down; `nil`
    ///     for the children of the document element.
    ///   - sink: where the records go, in batches.
    ///   - batchSize: records per batch handed to `sink` (at least 1).
    ///   - format: the input's format; with a record path, JSON paths in
    ///     messages are written below the top-level value (`people/item`).
    ///   - limits: bounds on one record: nested data is bounded by ``ParseLimits/maxTextBytes``.
    ///   - table: the one table every record goes to, whatever its collection is
    ///     called; records of a second kind are then an error (`.data`).
    public init(
        recordPath: RecordPath? = nil, sink: any RecordSink, batchSize: Int = 1024, format: InputFormat = .xml,
        limits: ParseLimits = .default, table: String? = nil
    ) {
        self.recordPath = recordPath
        self.table = table
        self.sink = sink
        self.limits = limits
        self.batchSize = max(batchSize, 1)
        self.format = format
        locationObserver = sink as? any RecordLocationObserver
        survey = recordPath == nil ? nil : RecordPathSurvey()
    }

    /// The first record was found: the record path matched.
    func didFindRecord() {
        foundRecord = true
        survey?.finish()
    }

    /// The document element is not the record path's first step: nothing can match.
    /// Fails at once without a survey; with one, after a bounded look at the
    /// document for the suggestions.
    func documentElementMismatch(_ name: Name) throws {
        documentMismatch = name
        guard let survey else { throw unmatched() }
        survey.stop(after: RecordPathSurvey.elementsNotedAfterMismatch) { [unowned self] in self.unmatched() }
    }

    /// The shared state of the collection at `path`.
    func collection(at path: [String]) -> CollectionState {
        if let state = collections[path.exact] { return state }
        let state = CollectionState(path: path)
        collections[path.exact] = state
        return state
    }

    /// A table name for the records `owner` names (a collection's path and the
    /// records' element name): `preferred`, or if a table of other records already
    /// has that name (ignoring ASCII case), `preferred_2`, `preferred_3`…
    /// With ``table``, that name — for records of one kind only (`.data` otherwise).
    func claimTableName(_ preferred: String, for owner: [String], at position: SourcePosition? = nil) throws -> String {
        if let table {
            if let tableOwner, tableOwner != owner {
                throw IngestError(
                    .data,
                    "--table \(table) takes records of one kind, but <\(owner.last!)> records follow <\(tableOwner.last!)> records: choose the records with --records",
                    position: position)
            }
            tableOwner = owner
            return table
        }
        var candidate = preferred
        var suffix = 2
        while let holder = tableOwners[DistinctNames.foldingASCIICase(candidate)], holder != owner {
            candidate = "\(preferred)_\(suffix)"
            suffix += 1
        }
        tableOwners[DistinctNames.foldingASCIICase(candidate)] = owner
        return candidate
    }

    /// The batch a record starting now is built in; it is not handed over until the
    /// record is emitted or discarded.
    func batchForRecord() -> RecordBatch {
        buildingRecord = true
        return batch
    }

    /// The record being built in ``batch`` is finished: it goes to `table`.
    func emit(table: String, position: SourcePosition) throws {
        batch.endRecord(table: table, position: position)
        buildingRecord = false
        if batch.count >= batchSize || batch.byteCount >= Self.batchBytes { try handOver() }
    }

    /// The record being built in ``batch`` is dropped.
    func discardRecord() {
        batch.discardRecord()
        buildingRecord = false
    }

    /// Hands the records finished so far to the sink, unless a record is being built
    /// (the input went idle inside it): they go at its end, or at the next flush.
    public func flush() throws {
        if !buildingRecord { try handOver() }
    }

    /// Hands the records built so far to the sink, in a batch of their own.
    private func handOver() throws {
        guard batch.count > 0 else { return }
        let full = batch
        batch = RecordBatch(shapedLike: full)
        try sink.write(full)
    }

    /// A table the mapping named `old` is to be called `new`: the records built so
    /// far go first, so the sink renames what it holds.
    func renameTable(_ old: String, to new: String) throws {
        try handOver()
        try sink.renameTable(old, to: new)
    }

    /// The handler for the document element: hand it to a ``HandlerStack``. Throws
    /// (`.usage`) for a record path of one step: in XML it names the records'
    /// parent, then the records.
    public func makeRootHandler() throws -> any ElementHandler {
        guard let path = recordPath else { return DocumentHandler(mapping: self) }
        guard path.steps.count >= 2 else {
            throw IngestError(
                .usage,
                "record path \(path): an XML record path names the records' parent, then the records (people/person)",
                reason: .invalidRecordPath("\(path)"))
        }
        if path.steps.count == 2 {
            // `people/person`: the document element is the records' parent itself.
            return CollectionHandler(recordStep: path.steps[1], mapping: self, documentStep: path.steps[0])
        }
        return PathStepHandler(steps: path.steps[...], mapping: self)
    }

    /// Call after the parse: hands over the records still held, then fails (`.data`)
    /// when the record path matched no record, naming the paths to records the
    /// document does hold.
    public func checkMatched() throws {
        try handOver()
        if recordPath != nil, !foundRecord { throw unmatched() }
    }

    /// Whether a fresh mapping would go on as this one does from a record named `name`:
    /// no record is being built, and all it has met is one pure collection (its
    /// records' parent) holding nothing but records named `name`, if any, in a table
    /// of their own.
    public func mayBeginPart(withRecord name: Name) -> Bool {
        guard !buildingRecord, documentMismatch == nil, collections.count == 1,
            let state = collections.values.first, state.isPure, state.kinds.isEmpty || state.kinds == [name]
        else { return false }
        return tableOwners.count <= state.kinds.count
    }

    /// The error of a record path that matched no record.
    private func unmatched() -> IngestError {
        let path = "\(recordPath!)"
        let suggestions = survey?.suggestions(for: [path], format: format) ?? []
        let steps = recordPath!.steps
        let message =
            if let documentMismatch {
                "the document element is <\(documentMismatch)>, but the record path \(path) starts at <\(steps[0])>"
            } else if foundCollection {
                "no record matches the record path \(path): <\(steps[steps.count - 2])> holds no <\(steps[steps.count - 1])>"
            } else {
                "no element matches the record path \(path)"
            }
        return IngestError(.data, message, reason: .recordPathMatchedNothing(path, suggestions: suggestions))
    }
}

/// One step of a record path above the collection: passes the matching child on,
/// skips the others.
final class PathStepHandler: ElementHandler {
    var receivesText: Bool { false }
    let steps: ArraySlice<String>
    /// The names of the elements above this one, from the document element.
    let ancestors: [String]
    /// This element's own name, once started.
    private var name = ""
    /// Held strongly: the mapping holds no handler, so there is no cycle, and a
    /// strong `let` costs no reference counting per use (an `unowned` one does).
    let mapping: AutomaticDocumentMapping

    init(steps: ArraySlice<String>, mapping: AutomaticDocumentMapping, ancestors: [String] = []) {
        self.steps = steps
        self.mapping = mapping
        self.ancestors = ancestors
    }

    var accumulatesText: Bool { false }

    func didStart(_ element: ElementStart) throws {
        name = element.name.qualified
        if element.depth == 1, !RecordPath.step(steps.first!, matches: element.name) {
            try mapping.documentElementMismatch(element.name)
        }
    }

    func handler(forChild element: ElementStart) throws -> (any ElementHandler)? {
        if mapping.documentMismatch != nil { return nil }
        let rest = steps.dropFirst()
        guard RecordPath.step(rest.first!, matches: element.name) else { return nil }
        if rest.count == 2 {
            return CollectionHandler(recordStep: rest.last!, mapping: mapping, parentSteps: ancestors + [name])
        }
        return PathStepHandler(steps: rest, mapping: mapping, ancestors: ancestors + [name])
    }
}

/// The parent of records. Hands each record element to a ``RecordHandler`` and
/// decides the records' table name, renaming the table if the collection turns out
/// not to be pure after all.
final class CollectionHandler: ElementHandler, RecordEmitter {
    let recordStep: String?
    /// The step the document element must match, when the collection is the document
    /// element of a two-step record path.
    let documentStep: String?
    /// Names of the elements above the collection, from the document element, when
    /// there is no record path: for ``RecordLocationObserver`` only.
    let parentSteps: [String]
    /// Held strongly: the mapping holds no handler, so there is no cycle, and a
    /// strong `let` costs no reference counting per use (an `unowned` one does).
    let mapping: AutomaticDocumentMapping
    /// Whether this collection is a JSON array the record path named (`--records
    /// people` on `{"people": [...]}`): its items are the records.
    let isNamedArray: Bool
    @exclusivity(unchecked) private var name: Name?
    /// What every collection element at this place knows, shared.
    @exclusivity(unchecked) private var state: CollectionState!
    private lazy var recordHandler = RecordHandler(emitter: self, mapping: mapping)

    init(
        recordStep: String?, mapping: AutomaticDocumentMapping, documentStep: String? = nil, parentSteps: [String] = [],
        isNamedArray: Bool = false
    ) {
        self.recordStep = recordStep
        self.documentStep = documentStep
        self.parentSteps = parentSteps
        self.mapping = mapping
        self.isNamedArray = isNamedArray
    }

    var accumulatesText: Bool { false }

    func didStart(_ element: ElementStart) throws {
        if let documentStep, element.depth == 1, !RecordPath.step(documentStep, matches: element.name) {
            try mapping.documentElementMismatch(element.name)
        }
        name = element.name
        state = mapping.collection(at: parentSteps + [element.name.qualified])
        mapping.foundCollection = true
    }

    func didReceive(text: UnsafeBufferPointer<UInt8>) throws {
        if state.isPure, !TextBytes(text).isWhitespace { try losePurity() }
    }

    func handler(forChild element: ElementStart) throws -> (any ElementHandler)? {
        guard recordStep.map({ RecordPath.step($0, matches: element.name) }) ?? true else {
            if state.isPure { try losePurity() }
            return nil
        }
        if element.kind == .array, recordStep != nil, !isNamedArray, element.name.qualified != "item" {
            // The record path names a JSON array (`people`, not `people/item`): a
            // record that is a list of records is never what is meant, so its items
            // are the records, in a table named after the array.
            if documentStep != nil, mapping.documentMismatch != nil { return nil }
            return CollectionHandler(
                recordStep: "item", mapping: mapping, parentSteps: parentSteps + [name!.qualified],
                isNamedArray: true)
        }
        if state.tableNames[element.name] == nil {
            if documentStep != nil, mapping.documentMismatch != nil { return nil }
            if !mapping.foundRecord { mapping.didFindRecord() }
            state.kinds.append(element.name)
            if state.kinds.count > 1, state.isPure { try losePurity() }
            let preferred = state.isPure ? name!.qualified : element.name.qualified
            let table = try mapping.claimTableName(
                preferred, for: state.path + [element.name.qualified], at: element.position)
            state.tableNames[element.name] = table
            mapping.locationObserver?.mapping(named: table, forRecordsAt: path(to: element.name))
        }
        return recordHandler
    }

    /// Where records named `kind` are, for ``RecordLocationObserver``.
    private func path(to kind: Name) -> [String] {
        guard let recordPath = mapping.recordPath, !isNamedArray else {
            return parentSteps + [name!.qualified, kind.qualified]
        }
        var steps = recordPath.steps
        if steps.last == "*" { steps[steps.count - 1] = kind.qualified }
        return steps
    }

    func emit(kind: Name, position: SourcePosition) throws {
        try mapping.emit(table: state.tableNames[kind]!, position: position)
    }

    /// The collection holds more than one kind of thing: each kind's table is named
    /// after the record element from now on.
    private func losePurity() throws {
        state.isPure = false
        for kind in state.kinds {
            guard let table = state.tableNames[kind], table != kind.qualified else { continue }
            let renamed = try mapping.claimTableName(kind.qualified, for: state.path + [kind.qualified])
            guard renamed != table else { continue }
            try mapping.renameTable(table, to: renamed)
            state.tableNames[kind] = renamed
        }
    }
}

/// What is known of the collection at one place in the document, shared by every
/// element at that place: whether it is pure (nothing but records of one kind), the
/// kinds of records met, and the table of each.
final class CollectionState {
    let path: [String]
    var isPure = true
    var tableNames: [Name: String] = [:]
    var kinds: [Name] = []

    init(path: [String]) { self.path = path }
}

/// Builds one record from a record element, into the mapping's ``RecordBatch``:
/// attributes, leaf children and nested children become fields.
///
/// Safety of its unsafe references:
/// - `emitter` made this handler and holds it (`lazy var recordHandler`), and is on
///   the stack below it whenever it is called, so it outlives every use.
/// - `unmanagedBatch` (`batch`) is reloaded from the mapping at each record's start
///   (``AutomaticDocumentMapping/batchForRecord()``), and the mapping hands its batch over
///   only after a record has ended (`emit`), from the collection between records
///   (`renameTable`), or at ``AutomaticDocumentMapping/flush()`` while no record is built; records
///   do not nest, since this handler's children are field handlers. So while a
///   record is built, `batch` is the mapping's current batch, which the mapping
///   holds.
/// - `kind` and the names in `seen` belong to the parser's ``NameTable``, which holds
///   them for the whole document; a handler tree serves one document (each input
///   gets a fresh ``DocumentMapping``), so `seen` never holds a name of an earlier
///   table.
final class RecordHandler: ElementHandler {
    var receivesText: Bool { false }
    /// The collection (or document) that made this handler and holds it: it outlives
    /// the handler, so it is held without reference counting.
    unowned(unsafe) let emitter: any RecordEmitter
    /// Held strongly: the mapping holds no handler, so there is no cycle, and a
    /// strong `let` costs no reference counting per use (an `unowned` one does).
    let mapping: AutomaticDocumentMapping
    @exclusivity(unchecked) private unowned(unsafe) var kind: Name?
    @exclusivity(unchecked) private var position = SourcePosition.start
    /// Per ``Name/id``: the record the name was last met in, and its field there —
    /// finding a repeated field costs the same however many fields a record has.
    /// (Names are held by their table for the parse.)
    /// Names are compared by identity only, so they are kept as identifiers.
    @exclusivity(unchecked) private var seen: [(name: ObjectIdentifier?, record: Int, field: Int, repeat: Int)] = []
    /// The mapping's batch, taken when the record starts: a batch is handed over only
    /// between records. Unmanaged, so that a field costs no reference counting.
    @exclusivity(unchecked) private var unmanagedBatch: Unmanaged<RecordBatch>
    private var batch: RecordBatch { unmanagedBatch.takeUnretainedValue() }
    @exclusivity(unchecked) private var recordSerial = 0
    /// The values of the fields met more than once in this record, by field.
    @exclusivity(unchecked) private var repeats: [(field: Int, items: [JSONValue])] = []
    @exclusivity(unchecked) private var scratch: [UInt8] = []
    private let fieldHandler: JSONFieldHandler

    init(emitter: any RecordEmitter, mapping: AutomaticDocumentMapping) {
        self.emitter = emitter
        self.mapping = mapping
        fieldHandler = JSONFieldHandler(maxBytes: mapping.limits.maxTextBytes)
        unmanagedBatch = .passUnretained(mapping.batch)
    }

    func didStart(_ element: ElementStart) throws {
        unmanagedBatch = .passUnretained(mapping.batchForRecord())
        kind = element.name
        position = element.position
        recordSerial += 1
        if !repeats.isEmpty { repeats.removeAll(keepingCapacity: true) }
        for attribute in element.attributes {
            add(attribute.name, .inferred, .attribute, UnsafeRawBufferPointer(attribute.value))
        }
    }

    func handler(forChild element: ElementStart) throws -> (any ElementHandler)? {
        fieldHandler
    }

    /// Leaf field elements come whole, through ``take(scalar:)``.
    var takesLeafChildren: Bool { true }

    /// A leaf field element is a field of its text; a JSON scalar member is a field
    /// with its JSON type.
    func take(scalar element: ElementEnd) throws -> Bool {
        if element.kind == .markup {
            element.unmanagedName._withUnsafeGuaranteedRef {
                add($0, .inferred, .element, UnsafeRawBufferPointer(element.text.bytes))
            }
        } else {
            addScalar(element, .element)
        }
        return true
    }

    func didFinish(child: any ElementHandler, element: ElementEnd) throws {
        element.unmanagedName._withUnsafeGuaranteedRef { name in
            if element.kind == .markup, fieldHandler.isLeaf {
                add(name, .inferred, .element, UnsafeRawBufferPointer(element.text.bytes))
            } else {
                fieldHandler.withValue { json in
                    add(name, json.first == UInt8(ascii: "[") ? .jsonArray : .jsonObject, .element, json)
                }
            }
        }
    }

    func didEnd(_ element: ElementEnd) throws {
        if element.kind.isScalar {
            addScalar(element, .ownText)  // a JSON scalar as a record of its own
        } else if element.kind == .markup, !element.text.isWhitespace {
            element.unmanagedName._withUnsafeGuaranteedRef {
                add($0, .inferred, .ownText, UnsafeRawBufferPointer(element.text.bytes))
            }
        }
        for (field, items) in repeats {
            scratch.removeAll(keepingCapacity: true)
            JSONValue.array(items).write(into: &scratch)
            scratch.withUnsafeBytes { batch.replacePendingField(field, with: .jsonArray, bytes: $0) }
        }
        try emitter.emit(kind: kind!, position: position)
    }

    private func addScalar(_ element: ElementEnd, _ origin: IngestRecord.Field.Origin) {
        let kind: RecordBatch.Kind =
            switch element.kind {
            case .number: .number
            case .boolean: element.text.bytes.first == UInt8(ascii: "t") ? .true : .false
            case .null: .null
            default: .text
            }
        element.unmanagedName._withUnsafeGuaranteedRef {
            add($0, kind, origin, UnsafeRawBufferPointer(element.text.bytes))
        }
    }

    /// A name met again in the same record makes the field a list; it keeps the
    /// origin of its first value.
    @inline(__always)
    private func add(
        _ name: Name, _ kind: RecordBatch.Kind, _ origin: IngestRecord.Field.Origin,
        _ bytes: UnsafeRawBufferPointer
    ) {
        let id = name.id
        if id < seen.count, seen[id].name == ObjectIdentifier(name), seen[id].record == recordSerial {
            addRepeat(of: id, JSONValue(kind, bytes))
            return
        }
        if id >= seen.count { seen += Array(repeating: (nil, 0, 0, -1), count: id + 1 - seen.count) }
        unmanagedBatch._withUnsafeGuaranteedRef { batch in
            seen[id] = (ObjectIdentifier(name), recordSerial, batch.pendingFieldCount, -1)
            batch.append(name, kind, origin: origin, bytes: bytes)
        }
    }

    /// Adds a value to the list of the name with id `id`, met before in this record;
    /// `seen` keeps where its list is, so many repeated names cost no search.
    private func addRepeat(of id: Int, _ value: JSONValue) {
        let slot = seen[id].repeat
        if slot >= 0 {
            repeats[slot].items.append(value)
        } else {
            let field = seen[id].field
            seen[id].repeat = repeats.count
            repeats.append((field, [batch.pendingJSONValue(field), value]))
        }
    }
}

/// Whatever turns finished records into sink writes: decides their table.
protocol RecordEmitter: AnyObject {
    /// The record the mapping's batch is building, of element `kind`, is finished.
    func emit(kind: Name, position: SourcePosition) throws
}

extension FieldValue {
    /// The value of a JSON scalar: a string stays text, `true`/`false` a boolean,
    /// `null` null, and a number a ``Number`` (``FieldValue/jsonNumber(_:)``).
    package init(scalar kind: ContentKind, _ bytes: UnsafeBufferPointer<UInt8>) {
        switch kind {
        case .number: self = .jsonNumber(bytes)
        case .boolean: self = .bool(bytes.first == UInt8(ascii: "t"))
        case .null: self = .null
        default: self = .text(String(decoding: bytes, as: UTF8.self))
        }
    }

    /// The value as a JSON tree, for a field that turns out to repeat (data as its
    /// base64 string, since JSON has no bytes).
    package var jsonValue: JSONValue {
        switch self {
        case .null: .null
        case .bool(let value): .bool(value)
        case .number(let number): .string(number.text)
        case .text(let text): .string(text)
        case .json(let text, _): .string(text)
        case .data(let bytes): .string(Base64.encode(bytes))
        }
    }
}

extension JSONValue {
    /// A field's value in a list of repeated values: XML text stays a string, JSON
    /// keeps its types, nested data its tree.
    init(_ kind: RecordBatch.Kind, _ bytes: UnsafeRawBufferPointer) {
        let text = { String(decoding: bytes, as: UTF8.self) }
        switch kind {
        case .null: self = .null
        case .false: self = .bool(false)
        case .true: self = .bool(true)
        case .number, .integer, .real: self = .number(text())
        case .text, .inferred: self = .string(text())
        case .data: self = .string(Base64.encode(Array(bytes)))
        case .jsonArray, .jsonObject: self = (try? JSONValue(parsing: text())) ?? .string(text())
        }
    }

    package var shape: FieldValue.JSONShape {
        if case .array = self { return .array }
        return .object
    }
}

/// The name ``AutomaticDocumentMapping`` had before it said which half of a mapping it is.
@available(*, deprecated, renamed: "AutomaticDocumentMapping")
public typealias AutomaticMapping = AutomaticDocumentMapping
