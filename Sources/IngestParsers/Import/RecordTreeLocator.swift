import IngestCore

/// Finds the elements a ``/IngestCore/RecordPath`` names and hands each one over whole, as a
/// ``JSONValue`` tree (built by ``/IngestCore/ElementTreeHandler``), with the position where it
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
    /// Shared by every step: whether a record was met, and where records are.
    private let found: FoundFlag

    final class FoundFlag {
        var value = false
        let survey = RecordPathSurvey()
        let format: InputFormat
        init(format: InputFormat) { self.format = format }
    }

    /// The handler for the document element; `format` writes the suggestions of a
    /// path that matched nothing (JSON paths start below the top-level value).
    convenience init(path: RecordPath, format: InputFormat = .xml, deliver: @escaping Delivery) {
        self.init(steps: path.steps[...], path: path, found: FoundFlag(format: format), deliver: deliver)
    }

    /// Notes where the document's records are until the first one is delivered.
    var survey: RecordPathSurvey { found.survey }

    private init(steps: ArraySlice<String>, path: RecordPath, found: FoundFlag, deliver: @escaping Delivery) {
        self.steps = steps
        self.path = path
        self.found = found
        self.deliver = deliver
    }

    var accumulatesText: Bool { false }

    /// Whether a record was found; call after the parse.
    func checkMatched() throws {
        guard found.value else { throw unmatched("no record matches the record path \(path)") }
    }

    private func unmatched(_ message: String) -> IngestError {
        let suggestions = found.survey.suggestions(for: ["\(path)"], format: found.format)
        return IngestError(.data, message, reason: .recordPathMatchedNothing("\(path)", suggestions: suggestions))
    }

    func didStart(_ element: ElementStart) throws {
        if element.depth == 1, !RecordPath.step(steps.first!, matches: element.name) {
            throw unmatched(
                "the document element is <\(element.name)>, but the record path \(path) starts at <\(steps.first!)>")
        }
    }

    private func delivered(_ tree: JSONValue, _ position: SourcePosition) throws {
        if !found.value {
            found.value = true
            found.survey.finish()
        }
        try deliver(tree, position)
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
            try delivered(JSONValue(scalar: element.kind, element.text), element.startPosition)
        }
        return true
    }

    func didFinish(child: any ElementHandler, element: ElementEnd) throws {
        guard let tree = child as? ElementTreeHandler else { return }
        try delivered(tree.value(of: element), element.startPosition)
    }
}
