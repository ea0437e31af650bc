import IngestCore

/// The failures IngestSchema names: a schema that finds no records, and records that
/// do not fit it.
extension IngestError.Code {
    /// A mapping schema whose `records` paths (`IngestError.Reason.paths`) matched
    /// no record; `IngestError.Reason.suggestions` are paths to records the
    /// document does hold.
    public static let schemaRecordsMatchedNothing = Self("schemaRecordsMatchedNothing")
    /// A record that does not fit its mapping schema.
    public static let recordRejected = Self("recordRejected")
    /// More records rejected than allowed; `IngestError.Reason.limit` is the limit.
    public static let tooManyRejects = Self("tooManyRejects")
}

extension IngestError.Reason {
    /// The schema's `paths` matched nothing; records are at `suggestions`
    /// (``IngestError/Code/schemaRecordsMatchedNothing``).
    public static func schemaRecordsMatchedNothing(_ paths: [String], suggestions: [String]) -> Self {
        Self(.schemaRecordsMatchedNothing, IngestError.PathsNotFound(paths: paths, suggestions: suggestions))
    }
    /// A record did not fit (``IngestError/Code/recordRejected``).
    public static let recordRejected = Self(.recordRejected)
    /// More than `limit` records were rejected (``IngestError/Code/tooManyRejects``).
    public static func tooManyRejects(_ limit: Int) -> Self { Self(.tooManyRejects, limit) }
}
