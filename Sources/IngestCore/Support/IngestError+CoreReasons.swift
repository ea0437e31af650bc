/// The failures IngestCore names: limits of the handler stack and the JSON parser,
/// record paths, and what an output refuses.
extension IngestError.Code {
    /// Elements or JSON values nested deeper than ``ParseLimits/maxDepth``;
    /// ``IngestError/Reason/limit`` is the limit.
    public static let depthLimit = Self("depthLimit")
    /// One element's text, attribute value or JSON string longer than
    /// ``ParseLimits/maxTextBytes``; ``IngestError/Reason/limit`` is the limit.
    public static let textLimit = Self("textLimit")
    /// More JSON after the end of the document: JSON Lines read as one document.
    public static let moreThanOneJSONDocument = Self("moreThanOneJSONDocument")
    /// A record path that is not a path (fewer than two steps, an empty step);
    /// ``IngestError/Reason/paths`` holds it.
    public static let invalidRecordPath = Self("invalidRecordPath")
    /// A record path that matched nothing; ``IngestError/Reason/paths`` holds it and
    /// ``IngestError/Reason/suggestions`` the paths to records the document does hold.
    public static let recordPathMatchedNothing = Self("recordPathMatchedNothing")
    /// A field that an existing table has no column for, which altering the table
    /// would add; ``IngestError/Reason/missingColumn`` says which.
    public static let missingColumn = Self("missingColumn")
    /// An output that exists and may not be replaced; ``IngestError/Reason/appendable``
    /// says whether it is a database that could be appended to.
    public static let outputExists = Self("outputExists")
    /// Another run is writing the output (it holds its lock, or the database's write
    /// lock) and did not finish within the seconds waited
    /// (``IngestError/Reason/waitedSeconds``).
    public static let outputBusy = Self("outputBusy")
}

extension IngestError.Reason {
    /// Nesting past `limit` levels (``IngestError/Code/depthLimit``).
    public static func depthLimit(_ limit: Int) -> Self { Self(.depthLimit, limit) }
    /// One text past `limit` bytes (``IngestError/Code/textLimit``).
    public static func textLimit(_ limit: Int) -> Self { Self(.textLimit, limit) }
    /// More JSON after the document's end (``IngestError/Code/moreThanOneJSONDocument``).
    public static let moreThanOneJSONDocument = Self(.moreThanOneJSONDocument)
    /// `path` is not a record path (``IngestError/Code/invalidRecordPath``).
    public static func invalidRecordPath(_ path: String) -> Self {
        Self(.invalidRecordPath, IngestError.PathsNotFound(paths: [path], suggestions: []))
    }
    /// `path` matched no record; records are at `suggestions`
    /// (``IngestError/Code/recordPathMatchedNothing``).
    public static func recordPathMatchedNothing(_ path: String, suggestions: [String]) -> Self {
        Self(.recordPathMatchedNothing, IngestError.PathsNotFound(paths: [path], suggestions: suggestions))
    }
    /// Table `table` has no column for `field` (``IngestError/Code/missingColumn``).
    public static func missingColumn(table: String, field: String) -> Self {
        Self(.missingColumn, IngestError.MissingColumn(table: table, field: field))
    }
    /// The output exists (``IngestError/Code/outputExists``).
    public static func outputExists(appendable: Bool) -> Self { Self(.outputExists, appendable) }
    /// The output stayed locked for `waitedSeconds` (``IngestError/Code/outputBusy``).
    public static func outputBusy(waitedSeconds: Double) -> Self { Self(.outputBusy, waitedSeconds) }

    /// The number a limit's reason carries: the depth, byte count or count broken
    /// (``IngestError/Code/depthLimit``, ``IngestError/Code/textLimit``, IngestTree's
    /// `treeTooLarge`, IngestSchema's `tooManyRejects`, or any code of yours whose
    /// value is an `Int`).
    public var limit: Int? { value(as: Int.self) }
    /// The paths a path's reason is about: the record path, or a schema's `records`.
    public var paths: [String] { value(as: IngestError.PathsNotFound.self)?.paths ?? [] }
    /// Where the document does hold records, for a path that matched nothing.
    public var suggestions: [String] { value(as: IngestError.PathsNotFound.self)?.suggestions ?? [] }
    /// The table and field of ``IngestError/Code/missingColumn``.
    public var missingColumn: IngestError.MissingColumn? { value(as: IngestError.MissingColumn.self) }
    /// For ``IngestError/Code/outputExists``: whether the output could be appended to.
    public var appendable: Bool? { code == .outputExists ? value(as: Bool.self) : nil }
    /// For ``IngestError/Code/outputBusy``: how long the run waited for the lock.
    public var waitedSeconds: Double? { code == .outputBusy ? value(as: Double.self) : nil }
}

extension IngestError {
    /// Paths that matched nothing (or are no paths), and the paths to records the
    /// document does hold.
    public struct PathsNotFound: Sendable, Hashable {
        /// The paths given.
        public var paths: [String]
        /// Paths to records the document does hold, most likely first.
        public var suggestions: [String]

        /// `paths`, which matched nothing; records are at `suggestions`.
        public init(paths: [String], suggestions: [String]) {
            self.paths = paths
            self.suggestions = suggestions
        }
    }

    /// A field that an existing table has no column for.
    public struct MissingColumn: Sendable, Hashable {
        /// The table, as the output names it.
        public var table: String
        /// The field, as the records name it.
        public var field: String

        /// Field `field`, which table `table` has no column for.
        public init(table: String, field: String) {
            self.table = table
            self.field = field
        }
    }
}
