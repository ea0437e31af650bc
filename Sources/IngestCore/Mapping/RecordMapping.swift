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
    /// its own, on several threads at once (``JSONLinesPiece``). Default: `false`.
    var mapsEachLineAlone: Bool { get }
}

extension RecordMapping {
    /// Not known to map each line alone: a big JSON Lines file is read whole.
    public var mapsEachLineAlone: Bool { false }

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
}

extension DocumentMapping {
    /// No survey: a record path that matched nothing is reported without suggestions.
    public var survey: RecordPathSurvey? { nil }

    /// Gathers nothing: nothing to do.
    public func flush() throws {}
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
}

extension RecordMapping where Self == AutomaticRecordMapping {
    /// The automatic mapping, with records at `recordPath` when given.
    public static func automatic(recordPath: RecordPath? = nil) -> AutomaticRecordMapping {
        AutomaticRecordMapping(recordPath: recordPath)
    }
}
