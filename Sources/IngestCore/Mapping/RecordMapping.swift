/// How records are found in a document and built from its elements: the
/// ``AutomaticRecordMapping`` (what `ingest` does without a schema), a mapping
/// schema (IngestSchema's `SchemaRecordMapping`), or handlers of your own.
///
/// A mapping is a recipe; each input gets a fresh ``DocumentMapping`` from it.
public protocol RecordMapping: Sendable {
    /// Starts mapping one input of `format`, named `inputName` in messages, whose
    /// records go to `sink`; `limits` bound what one record may hold (nested data is
    /// bounded by ``ParseLimits/maxTextBytes`` like text).
    func mapping(
        for format: InputFormat, inputName: String, limits: ParseLimits,
        into sink: any RecordSink
    ) throws -> any DocumentMapping

    /// Whether each value of a JSON Lines input maps to the same records whatever
    /// values come before it, so that the parts of one big file may be mapped each on
    /// its own, on several threads at once (``FilePiece``). Default: `false`.
    var mapsEachLineAlone: Bool { get }

    /// The depth of the XML records (the document element's is 1) that a big XML
    /// file may be split between and its parts mapped each on its own, on several
    /// threads at once (``FilePiece/XMLContext``), when the mapping can begin afresh
    /// at such a record (``DocumentMapping/mayBeginPart(withRecord:)``); `nil` to
    /// read XML whole. Default: `nil`.
    var xmlPartRecordDepth: Int? { get }
}

extension RecordMapping {
    /// Not known to map each line alone: a big JSON Lines file is read whole.
    public var mapsEachLineAlone: Bool { false }

    /// Not known to map XML records on their own: an XML file is read whole.
    public var xmlPartRecordDepth: Int? { nil }

    /// Starts mapping one input with the default limits.
    public func mapping(for format: InputFormat, inputName: String, into sink: any RecordSink) throws
        -> any DocumentMapping
    {
        try mapping(for: format, inputName: inputName, limits: .default, into: sink)
    }
}

/// One input being mapped: the handler tree that turns its events into records.
public protocol DocumentMapping: AnyObject {
    /// The handler for the document element; hand it to a ``HandlerStack``.
    func makeRootHandler() throws -> any ElementHandler

    /// Call after the parse: throws (`.data`) when the document held none of the
    /// records the mapping looks for.
    func checkMatched() throws

    /// What notes where the document's records are, for ``checkMatched()`` to
    /// suggest paths when none matched; a ``HandlerStack`` made with
    /// ``HandlerStack/init(mapping:limits:)`` tells it every element. Default: `nil`.
    var survey: RecordPathSurvey? { get }

    /// Hands the finished records it gathers into a batch to its sink now: the input
    /// has nothing more for the moment. Default: nothing (records go on one by one).
    func flush() throws

    /// Whether, at the start of an XML record named `name` (at the depth
    /// ``RecordMapping/xmlPartRecordDepth`` gives, with no element above it begun or
    /// ended but its ancestors), a fresh mapping of the rest of the document under the
    /// same ancestors would map it as this one goes on to: where a part of the file
    /// read on another thread may begin. Default: never.
    func mayBeginPart(withRecord name: Name) -> Bool
}

extension DocumentMapping {
    /// No survey: a record path that matched nothing is reported without suggestions.
    public var survey: RecordPathSurvey? { nil }

    /// Gathers nothing: nothing to do.
    public func flush() throws {}

    /// Never: a part of an XML file is read to the end of the file.
    public func mayBeginPart(withRecord name: Name) -> Bool { false }
}

/// The automatic mapping as a ``RecordMapping``: records at `recordPath`, or the
/// children of the document element; see ``AutomaticDocumentMapping``.
public struct AutomaticRecordMapping: RecordMapping {
    /// Where the records are, from the document element down; for JSON inputs from
    /// below the top-level value (`people/item`), as ijson counts.
    public var recordPath: RecordPath?
    /// The one table every record goes to (`--table`), or `nil` to name tables
    /// after the records (see ``AutomaticDocumentMapping``).
    public var table: String?

    /// The automatic mapping of the records at `recordPath`, or, when it is `nil`,
    /// of the children of the document element; with `table`, every record goes
    /// to that table, and records of a second kind fail the import (`.data`).
    public init(recordPath: RecordPath? = nil, table: String? = nil) {
        self.recordPath = recordPath
        self.table = table
    }

    /// An ``AutomaticDocumentMapping`` of one input, whose JSON record path is taken to
    /// start below the top-level value; it never throws.
    public func mapping(
        for format: InputFormat, inputName: String, limits: ParseLimits,
        into sink: any RecordSink
    ) -> any DocumentMapping {
        // JSON paths start below the top-level value, as ijson's do (`people/item`).
        let path = format == .xml ? recordPath : recordPath?.belowDocumentElement
        return AutomaticDocumentMapping(recordPath: path, sink: sink, format: format, limits: limits, table: table)
    }

    /// Each line's value is one record of the one table when no record path is
    /// given; records found by a path name their tables by what was met before.
    public var mapsEachLineAlone: Bool { recordPath == nil }

    /// The records' depth: the document element's children (2), or the record
    /// path's last step.
    public var xmlPartRecordDepth: Int? { recordPath.map { max($0.steps.count, 2) } ?? 2 }
}

extension RecordMapping where Self == AutomaticRecordMapping {
    /// The automatic mapping, with records at `recordPath` when given.
    public static func automatic(recordPath: RecordPath? = nil) -> AutomaticRecordMapping {
        AutomaticRecordMapping(recordPath: recordPath)
    }
}
