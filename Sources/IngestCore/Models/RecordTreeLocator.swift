/// Finds the elements a ``RecordPath`` names and hands each one over whole, as a
/// ``JSONValue`` tree (built by ``ElementTreeHandler``), with the position where it
/// started: the records that model types are decoded from.
///
/// Like the automatic mapping it is a chain of handlers, one per path step, so only
/// one record's tree is in memory at a time.
final class RecordTreeLocator: ElementHandler {
    var receivesText: Bool { false }
    typealias Delivery = (_ tree: JSONValue, _ position: SourcePosition) throws -> Void

    private let steps: ArraySlice<String>
    private let path: RecordPath
    private let deliver: Delivery
    /// Shared by every step: whether the records' parent was met at all.
    private let found: FoundFlag

    final class FoundFlag { var value = false }

    /// The handler for the document element.
    convenience init(path: RecordPath, deliver: @escaping Delivery) {
        self.init(steps: path.steps[...], path: path, found: FoundFlag(), deliver: deliver)
    }

    private init(steps: ArraySlice<String>, path: RecordPath, found: FoundFlag, deliver: @escaping Delivery) {
        self.steps = steps
        self.path = path
        self.found = found
        self.deliver = deliver
    }

    var accumulatesText: Bool { false }

    /// Whether the records' parent was found; call after the parse.
    func checkMatched() throws {
        guard found.value else { throw IngestError(.data, "no element matches the record path \(path)") }
    }

    func didStart(_ element: ElementStart) throws {
        if element.depth == 1, !RecordPath.step(steps.first!, matches: element.name) {
            throw IngestError(.data, "the document element is <\(element.name)>, but the record path \(path) starts at <\(steps.first!)>")
        }
        if steps.count == 2 { found.value = true }
    }

    private var recordStep: String? { steps.count == 2 ? steps.last : nil }

    func handler(forChild element: ElementStart) throws -> (any ElementHandler)? {
        let rest = steps.dropFirst()
        guard RecordPath.step(rest.first!, matches: element.name) else { return nil }
        if recordStep != nil { return ElementTreeHandler(keepsNames: true) }
        return RecordTreeLocator(steps: rest, path: path, found: found, deliver: deliver)
    }

    func take(scalar element: ElementEnd) throws -> Bool {
        // A JSON record that is a plain value (`[1, 2]` at `*/item`).
        if let recordStep, RecordPath.step(recordStep, matches: element.name) {
            try deliver(JSONValue(scalar: element.kind, element.text), element.startPosition)
        }
        return true
    }

    func didFinish(child: any ElementHandler, element: ElementEnd) throws {
        guard let tree = child as? ElementTreeHandler else { return }
        try deliver(tree.value(of: element), element.startPosition)
    }
}
