/// Where records are in a document: element names from the document element down,
/// separated by `/` (`rss/channel/item`). A step of `*` matches any element.
public struct RecordPath: Equatable, Sendable, CustomStringConvertible {
    /// The element names, from the outermost down (`["rss", "channel", "item"]`); `*`
    /// matches any name.
    public let steps: [String]
    /// The path as the user wrote it, for messages.
    private let written: String

    /// Parses `people/person`; a leading `/` is allowed. An XML path needs at least
    /// two steps, the records' parent and the records (the mapping checks); a JSON
    /// path starts below the top-level value, so `item` alone names the items of a
    /// top-level array.
    public init(_ text: String) throws {
        let steps = text.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        let trimmed = steps.first == "" ? Array(steps.dropFirst()) : steps
        guard !trimmed.isEmpty, !trimmed.contains("") else {
            throw IngestError(
                .usage, "record path \"\(text)\": expected element names separated by /, like people/person",
                reason: .invalidRecordPath(text))
        }
        self.steps = trimmed
        written = trimmed.joined(separator: "/")
    }

    /// The same path one level down: JSON paths start below the top-level value.
    package var belowDocumentElement: RecordPath {
        RecordPath(steps: ["*"] + steps, written: written)
    }

    private init(steps: [String], written: String) {
        self.steps = steps
        self.written = written
    }

    public var description: String { written }

    package static func step(_ step: String, matches name: Name) -> Bool {
        step == "*" || step == name.qualified || step == name.local
    }
}
