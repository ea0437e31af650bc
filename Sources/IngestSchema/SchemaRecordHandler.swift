import IngestCore
/// Reads the values a schema wants from below one element of a record — its
/// attributes, child elements' text, whole children as JSON — into the record's
/// value slots, and hands child entities' elements to their own record handlers.
///
/// One handler per ``SourceNode``, reused for every record; each caches, by
/// ``Name/id``, what a child element name leads to, so the hot path does no string
/// lookup for a name it has seen.
///
/// Safety of the unsafe references and unchecked properties here and in
/// ``EntityRecordHandler``: a handler is made by the handler of its parent element
/// and kept in that handler's `routes`, so an entity's handler owns, through that
/// chain, every node handler whose `owner` it is and every child entity's handler
/// whose `parent` it is; and whenever one of those is called, the owner or parent
/// is on the ``HandlerStack`` below it. So `owner` and `parent` outlive every use
/// (`owner = self` for an entity's own handler makes no cycle). The handlers run on
/// the parsing thread, one call at a time, and touch another handler's properties
/// (`owner.capture`, `parent.pending`) only while that handler is not running, so
/// no two accesses overlap.
class SourceNodeHandler: ElementHandler {
    let node: SourceNode
    /// The record the values belong to; for the record's own handler, itself.
    unowned(unsafe) var owner: EntityRecordHandler!

    private enum Route {
        /// A leaf: its text is the value.
        case text(SourceNode)
        /// Values further down, or attributes.
        case node(SourceNodeHandler)
        /// The element whole, as JSON.
        case json(SourceNode, ElementTreeHandler)
        /// A record of a child entity.
        case entity(EntityRecordHandler)
    }

    /// Per ``Name/id``: -2 not looked up yet, -1 nothing wanted, else an index into `routes`.
    @exclusivity(unchecked) private var routeIndex: [Int32] = []
    @exclusivity(unchecked) private var routes: [Route] = []
    /// Per ``Name/id`` of an attribute: the slots it fills (nil: not looked up yet).
    @exclusivity(unchecked) private var attributeSlotsByName: [[Int]?] = []
    private let leaf = TextHandler()

    init(node: SourceNode, owner: EntityRecordHandler?) {
        self.node = node
        self.owner = owner
    }

    var accumulatesText: Bool { !node.textSlots.isEmpty }

    func didStart(_ element: ElementStart) throws {
        guard !node.attributeSlots.isEmpty else { return }
        for attribute in element.attributes {
            let name = attribute.name
            if name.id >= attributeSlotsByName.count {
                attributeSlotsByName += Array(repeating: nil, count: name.id + 1 - attributeSlotsByName.count)
            }
            if attributeSlotsByName[name.id] == nil {
                attributeSlotsByName[name.id] = node.attributeSlots.filter { RecordPath.step($0.name, matches: name) }
                    .map(\.slot)
            }
            for slot in attributeSlotsByName[name.id]! {
                owner.capture(slot: slot, attribute.value, kind: .markup, at: element.position)
            }
        }
    }

    func handler(forChild element: ElementStart) throws -> (any ElementHandler)? {
        switch route(for: element.name) {
        case nil: return nil
        case .text: return leaf
        case .node(let handler): return handler
        case .json(_, let tree): return tree
        case .entity(let handler): return handler.entity.accepts(element.attributes) ? handler : nil
        }
    }

    /// Leaf children come whole when their value is their text (see ``take(scalar:)``).
    var takesLeafChildren: Bool { true }

    func take(scalar element: ElementEnd) throws -> Bool {
        if element.kind == .markup {
            // A leaf XML child, as didFinish would read it through its handler; nodes
            // and entities still go through theirs.
            switch route(for: element.name) {
            case nil: return true  // nothing wanted: skipped, as handler(forChild:) skips it
            case .text(let node):
                owner.capture(slots: node.textSlots, element.text.bytes, kind: .markup, at: element.startPosition)
            case .json(let node, _): owner.capture(value: .inferring(element.text.bytes), slots: node.jsonSlots)
            case .node, .entity: return false
            }
            return true
        }
        switch route(for: element.name) {
        case nil, .node: break  // a scalar where elements were expected: nothing to read
        case .text(let node):
            owner.capture(slots: node.textSlots, element.text.bytes, kind: element.kind, at: element.startPosition)
        case .json(let node, _):
            // A plain value is kept as the automatic mapping keeps it: typed, not quoted.
            owner.capture(value: FieldValue(scalar: element.kind, element.text.bytes), slots: node.jsonSlots)
        case .entity(let handler): try handler.takeRecord(scalar: element)
        }
        return true
    }

    func didFinish(child: any ElementHandler, element: ElementEnd) throws {
        switch route(for: element.name) {
        case .text(let node):
            owner.capture(slots: node.textSlots, element.text.bytes, kind: element.kind, at: element.startPosition)
        case .node(let handler) where !handler.node.textSlots.isEmpty:
            owner.capture(
                slots: handler.node.textSlots, element.text.bytes, kind: element.kind, at: element.startPosition)
        case .json(let node, let tree) where element.kind == .markup && tree.isLeaf:
            // A leaf XML element is its text, typed as the automatic mapping types it:
            // the column then holds what the automatic mapping would have put there.
            owner.capture(value: .inferring(element.text.bytes), slots: node.jsonSlots)
        case .json(let node, let tree):
            owner.capture(json: tree.value(of: element), slots: node.jsonSlots)
        default:
            break
        }
    }

    func didEnd(_ element: ElementEnd) throws {}

    private func route(for name: Name) -> Route? {
        if name.id >= routeIndex.count {
            routeIndex += Array(repeating: -2, count: name.id + 1 - routeIndex.count)
        }
        var index = routeIndex[name.id]
        if index == -2 {
            index = makeRoute(for: name)
            routeIndex[name.id] = index
        }
        return index < 0 ? nil : routes[Int(index)]
    }

    private func makeRoute(for name: Name) -> Int32 {
        guard let child = node.child(for: name) else { return -1 }
        // Two names (qualified and local) may lead to one node: one handler serves both.
        for (index, route) in routes.enumerated() {
            switch route {
            case .text(let node) where node === child: return Int32(index)
            case .node(let handler) where handler.node === child: return Int32(index)
            case .json(let node, _) where node === child: return Int32(index)
            case .entity(let handler) where handler.entity === child.entity: return Int32(index)
            default: continue
            }
        }
        let route: Route
        if let entity = child.entity {
            route = .entity(EntityRecordHandler(entity: entity, mapping: owner.mapping, parent: owner))
        } else if !child.jsonSlots.isEmpty {
            route = .json(child, ElementTreeHandler())
        } else if child.children.isEmpty, child.attributeSlots.isEmpty {
            route = .text(child)
        } else {
            route = .node(SourceNodeHandler(node: child, owner: owner))
        }
        routes.append(route)
        return Int32(routes.count - 1)
    }
}

/// The handler of one entity's record elements: collects the fields' values,
/// checks them against their types, and emits the record — or rejects it.
///
/// A child entity's records wait in their parent's ``pending`` list until the
/// parent ends, which fills in their foreign key with its primary key and emits
/// itself first, then them: a parent row always precedes its children's.
final class EntityRecordHandler: SourceNodeHandler {
    let entity: CompiledEntity
    unowned let mapping: SchemaDocumentMapping
    private unowned(unsafe) let parent: EntityRecordHandler?

    @exclusivity(unchecked) private var values: [FieldValue?]
    @exclusivity(unchecked) private var failure: RecordRejection?
    @exclusivity(unchecked) private var record: IngestRecord
    /// Records of child entities (and theirs), in document order.
    @exclusivity(unchecked) private var pending: [(record: IngestRecord, needsParentKey: Bool)] = []
    /// The entity's fields, held here so the hot path does not go through `entity`.
    private let fields: [CompiledField]

    init(entity: CompiledEntity, mapping: SchemaDocumentMapping, parent: EntityRecordHandler?) {
        self.entity = entity
        self.mapping = mapping
        self.parent = parent
        values = Array(repeating: nil, count: entity.slotCount)
        record = IngestRecord(table: entity.table)
        fields = entity.fields
        super.init(node: entity.root, owner: nil)
        owner = self
    }

    override func didStart(_ element: ElementStart) throws {
        begin(at: element.position)
        try super.didStart(element)
    }

    override func didEnd(_ element: ElementEnd) throws {
        if !node.textSlots.isEmpty {
            capture(slots: node.textSlots, element.text.bytes, kind: element.kind, at: element.startPosition)
        }
        try finish()
    }

    /// A record that is a plain JSON value (`"tags": ["a", "b"]`): its own text is `.`.
    func takeRecord(scalar element: ElementEnd) throws {
        begin(at: element.startPosition)
        capture(slots: node.textSlots, element.text.bytes, kind: element.kind, at: element.startPosition)
        try finish()
    }

    private func begin(at position: SourcePosition) {
        for index in values.indices { values[index] = nil }
        failure = nil
        record.position = position
    }

    // MARK: Values

    func capture(slots: [Int], _ bytes: UnsafeBufferPointer<UInt8>, kind: ContentKind, at position: SourcePosition) {
        for slot in slots { capture(slot: slot, bytes, kind: kind, at: position) }
    }

    /// Converts a value for `slot`; the first value met wins, and the first that does
    /// not fit its type is the record's rejection.
    func capture(slot: Int, _ bytes: UnsafeBufferPointer<UInt8>, kind: ContentKind, at position: SourcePosition) {
        guard values[slot] == nil else { return }
        guard slot < fields.count else {
            values[slot] = .text(String(decoding: bytes, as: UTF8.self))  // a predicate's value
            return
        }
        let field = fields[slot]
        do throws(FieldConverter.Mismatch) {
            if kind == .object || kind == .array {
                throw FieldConverter.Mismatch(
                    reason:
                        "a JSON \(kind == .object ? "object" : "array") is not \(field.type == .integer ? "an" : "a") \(field.type.rawValue); declare the field json to keep it"
                )
            }
            values[slot] = try field.converter.convert(bytes, kind: kind)
        } catch {
            if failure == nil {
                failure = RecordRejection(
                    entity: entity.name, field: field.schemaName, reason: error.reason,
                    position: position, value: String(decoding: bytes.prefix(200), as: UTF8.self))
            }
        }
    }

    func capture(json value: JSONValue, slots: [Int]) {
        for slot in slots where values[slot] == nil {
            values[slot] = .json(value.serialized, value.shape)
        }
    }

    func capture(value: FieldValue, slots: [Int]) {
        for slot in slots where values[slot] == nil { values[slot] = value }
    }

    // MARK: The record

    private func finish() throws {
        for predicate in entity.valuePredicates {
            guard case .text(let text)? = values[predicate.slot], text == predicate.value else {
                pending.removeAll(keepingCapacity: true)
                return
            }
        }
        record.fields.removeAll(keepingCapacity: true)
        if let foreignKey = entity.foreignKey { record.fields.append(.init(name: foreignKey.name, value: .null)) }
        for (index, field) in fields.enumerated() {
            let value = values[field.slot] ?? field.defaultValue
            if value == nil, failure == nil, field.required || entity.primaryKey.contains(index) {
                failure = RecordRejection(
                    entity: entity.name, field: field.schemaName,
                    reason:
                        "missing \(field.required ? "required field" : "primary key") (source \(field.source.description))",
                    position: record.position, value: nil)
            }
            if value == nil, mapping.omitsAbsentFields { continue }
            record.fields.append(.init(name: field.outputName, value: value ?? .null))
        }
        if let failure {
            pending.removeAll(keepingCapacity: true)
            if let parent {
                parent.failure = parent.failure ?? failure
            } else {
                try mapping.reject(failure, record: record)
            }
            return
        }
        if !pending.isEmpty, entity.primaryKey.count == 1 {
            // The key is never absent (a record without one is rejected above), but
            // absent fields before it may be left out of `record`.
            let keyField = fields[entity.primaryKey[0]]
            let key = values[keyField.slot] ?? keyField.defaultValue ?? .null
            for index in pending.indices where pending[index].needsParentKey {
                pending[index].record.fields[0].value = key
                pending[index].needsParentKey = false
            }
        }
        if let parent {
            parent.pending.append((record, true))
            parent.pending.append(contentsOf: pending)
        } else {
            try mapping.emit(record)
            for child in pending { try mapping.emit(child.record) }
        }
        pending.removeAll(keepingCapacity: true)
    }
}
