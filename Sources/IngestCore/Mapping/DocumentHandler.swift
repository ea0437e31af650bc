/// The document element when no record path is given: it finds the records.
///
/// - XML: the document element is the collection; its child elements are the records.
/// - A JSON array (or JSON Lines): its items are the records, in a table named after
///   the document (the input's name).
/// - A JSON object: each member whose value is an array is a collection of records,
///   in a table named after its key (`{"people":[...]}` → `people`). An object with
///   no array member, or a scalar, is itself one record.
final class DocumentHandler: ElementHandler, RecordEmitter {
    /// Held strongly: the mapping holds no handler (see ``RecordHandler/mapping``).
    let mapping: AutomaticDocumentMapping
    /// The document element as a collection (XML, JSON array).
    private var collection: CollectionHandler?
    /// The document as one record (JSON object or scalar), until an array turns up.
    private var whole: RecordHandler?
    private var foundArray = false
    private var scalarText: [UInt8] = []
    /// The document element's name, the first step of a JSON member's records path.
    private var name: Name?

    init(mapping: AutomaticDocumentMapping) {
        self.mapping = mapping
    }

    var accumulatesText: Bool { false }

    func didStart(_ element: ElementStart) throws {
        mapping.foundCollection = true
        name = element.name
        if element.kind == .markup || element.kind == .array {
            collection = CollectionHandler(recordStep: nil, mapping: mapping)
            try collection!.didStart(element)
        } else {
            whole = RecordHandler(emitter: self, mapping: mapping)
            try whole!.didStart(element)
        }
    }

    func didReceive(text: UnsafeBufferPointer<UInt8>) throws {
        if let collection { return try collection.didReceive(text: text) }
        scalarText.append(contentsOf: text)
    }

    func handler(forChild element: ElementStart) throws -> (any ElementHandler)? {
        if let collection { return try collection.handler(forChild: element) }
        if element.kind == .array {
            // The document is a collection after all: the fields gathered for it as
            // one record are dropped, and its arrays' records follow.
            if !foundArray { mapping.discardRecord() }
            foundArray = true
            return CollectionHandler(recordStep: nil, mapping: mapping, parentSteps: [name!.qualified])
        }
        return foundArray ? nil : try whole!.handler(forChild: element)
    }

    /// Scalar members of a top-level object are the whole-document record's fields
    /// (until an array turns up); an array's scalar items are records.
    func take(scalar element: ElementEnd) throws -> Bool {
        guard collection == nil else { return false }
        return try foundArray || whole!.take(scalar: element)
    }

    func didFinish(child: any ElementHandler, element: ElementEnd) throws {
        guard collection == nil, !foundArray, let whole else { return }
        try whole.didFinish(child: child, element: element)
    }

    func didEnd(_ element: ElementEnd) throws {
        guard collection == nil, !foundArray, let whole else { return }
        try scalarText.withUnsafeBufferPointer { text in
            var end = ElementEnd(
                name: element.name, text: TextBytes(text), startPosition: element.startPosition,
                position: element.position, depth: element.depth,
                hadChildElements: element.hadChildElements)
            end.kind = element.kind
            try whole.didEnd(end)
        }
    }

    func emit(kind: Name, position: SourcePosition) throws {
        let table =
            mapping.table == nil
            ? kind.qualified : try mapping.claimTableName(kind.qualified, for: [kind.qualified], at: position)
        mapping.locationObserver?.mapping(named: table, forRecordsAt: [kind.qualified])
        try mapping.emit(table: table, position: position)
    }
}
