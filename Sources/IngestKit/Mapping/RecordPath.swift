/// Where records are in a document: element names from the document element down,
/// separated by `/` (`rss/channel/item`). A step of `*` matches any element.
public struct RecordPath: Equatable, Sendable, CustomStringConvertible {
    public let steps: [String]

    /// Parses `people/person`; a leading `/` is allowed. Needs at least two steps:
    /// the records' parent and the records.
    public init(_ text: String) throws {
        let steps = text.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        let trimmed = steps.first == "" ? Array(steps.dropFirst()) : steps
        guard trimmed.count >= 2, !trimmed.contains("") else {
            throw IngestError(.usage, "--records \(text): expected a path like people/person (the records' parent, then the records)")
        }
        self.steps = trimmed
    }

    init(steps: [String]) {
        self.steps = steps
    }

    public var description: String { steps.joined(separator: "/") }

    static func step(_ step: String, matches name: Name) -> Bool {
        step == "*" || step == name.qualified || step == name.local
    }
}
