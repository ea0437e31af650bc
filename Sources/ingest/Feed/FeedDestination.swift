import IngestKit

/// What became of one source.
enum SourceOutcome {
    /// Archived: how many items were new, changed, unchanged; the first error of
    /// XML that was not well-formed and was read in recovering mode.
    case archived(FeedArchiveCounts, recovered: FeedParseError?)
    /// Written to JSON or NDJSON: how many items; as for ``archived(_:recovered:)``.
    case written(items: Int, recovered: FeedParseError?)
    /// 304: nothing written.
    case notModified
    /// Fetched by another run sharing the archive (``FeedLeases``): nothing written.
    case leasedElsewhere
    case failed(FeedFailure)

    /// The first error of a feed read in recovering mode, for it was not
    /// well-formed XML; `nil` for a well-formed one or one not read.
    var recovered: FeedParseError? {
        switch self {
        case .archived(_, let error), .written(_, let error): error
        case .notModified, .leasedElsewhere, .failed: nil
        }
    }
}

/// Where `ingest feed` writes: the archive database, JSON or NDJSON. It runs on
/// the writing thread, one source at a time, in the order they are ready.
protocol FeedDestination: AnyObject {
    /// The output's name in messages.
    var displayName: String { get }

    /// Writes one source's read — all of it or, when it fails, nothing of it.
    func write(_ job: FeedJob) -> SourceOutcome

    /// Writes sources whose reads ended without a feed (``FeedJob/endedWithoutFeed``),
    /// as one write when the destination can: what a run of unchanged feeds is made of.
    func write(endedWithoutFeed jobs: [FeedJob]) -> [SourceOutcome]

    /// Completes the output once every source is written (a file is renamed into place).
    func finish() throws

    /// Gives up: the output stays as it was.
    func discard()
}

extension FeedDestination {
    /// One ``write(_:)`` after another.
    func write(endedWithoutFeed jobs: [FeedJob]) -> [SourceOutcome] {
        jobs.map { write($0) }
    }
}
