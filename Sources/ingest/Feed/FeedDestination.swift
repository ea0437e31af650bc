import IngestKit

/// What became of one source.
enum SourceOutcome {
    /// Archived (or written): how many items were new, changed, unchanged.
    case archived(FeedArchiveCounts)
    /// Written to JSON or NDJSON: how many items.
    case written(items: Int)
    /// 304: nothing written.
    case notModified
    case failed(FeedFailure)
}

/// Where `ingest feed` writes: the archive database, JSON or NDJSON. It runs on
/// the writing thread, one source at a time, in the order they are ready.
protocol FeedDestination: AnyObject {
    /// The output's name in messages.
    var displayName: String { get }

    /// Writes one source's read — all of it or, when it fails, nothing of it.
    func write(_ job: FeedJob) -> SourceOutcome

    /// Completes the output once every source is written (a file is renamed into place).
    func finish() throws

    /// Gives up: the output stays as it was.
    func discard()
}
