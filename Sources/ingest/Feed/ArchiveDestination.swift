import Foundation
import IngestFeedFetch
import IngestKit
import IngestPostgres

/// `--to db` and `--to postgres`: the feed archive (IngestFeedArchive) in a SQLite
/// file or a PostgreSQL database, written in place with upserts, one transaction per
/// source.
final class ArchiveDestination: FeedDestination {
    let archive: FeedArchive
    let displayName: String
    let limits: ParseLimits

    /// Opens the archive in the SQLite file at `path` (created on the first write)
    /// and reads what it stores about each feed. `whileWaiting` hears when a write
    /// starts waiting for another run's lock on the file, with the holder's pid.
    convenience init(path: String, limits: ParseLimits, whileWaiting: ((Int32?) -> Void)? = nil) throws {
        try self.init(displayName: path, limits: limits) { design in
            let output = SQLiteOutput(path: path, mode: .append, design: design)
            output.whileWaitingForLock = whileWaiting
            return output
        }
    }

    /// Opens the archive in the PostgreSQL database `settings` name (its tables
    /// created on the first write) and reads what it stores about each feed.
    convenience init(postgres settings: PostgresConnectionSettings, limits: ParseLimits) throws {
        try self.init(displayName: settings.description, limits: limits) { design in
            PostgresOutput(settings: settings, mode: .append, design: design)
        }
    }

    private init(displayName: String, limits: ParseLimits, output: @escaping FeedArchive.OutputMaker) throws {
        self.displayName = displayName
        self.limits = limits
        archive = try FeedArchive(output: output)
    }

    /// What to ask a server for `url`: the address the archive moved it to and the
    /// validators it stored.
    func plan(for url: URL) -> FeedRequest {
        guard let stored = archive.storedFeed(for: url.absoluteString) else { return FeedRequest(url: url) }
        return FeedRequest(
            url: stored.url.flatMap(URL.init(string:)) ?? url,
            etag: stored.etag, lastModified: stored.lastModified)
    }

    /// When `source` is due next, if that is after `date`; `nil` when it is due (or
    /// was never archived, or has no name before it is read: standard input).
    func nextFetch(for source: FeedSource, after date: Date) -> Date? {
        guard let name = source.archiveName, let next = archive.storedFeed(for: name)?.nextFetch, next > date else {
            return nil
        }
        return next
    }

    /// Claims of the sources' feeds for this run, each held `seconds` (``FeedLeases``),
    /// in the PostgreSQL database `settings` name; the archive's tables are created
    /// first if it is new. A source without a name before it is read is never claimed.
    func leaseClaims(settings: PostgresConnectionSettings, seconds: Int) throws
        -> @Sendable (FeedSource) async throws -> Bool
    {
        try archive.createTables()
        let leases = try FeedLeases(settings: settings, seconds: seconds)
        let archive = archive
        return { source in
            guard let name = source.archiveName else { return true }
            return try await leases.claimed(archive.key(for: name))
        }
    }

    func write(_ job: FeedJob) -> SourceOutcome {
        let fetch: FeedFetch
        switch job.open() {
        case .notModified:
            return recordFetches([(job, nil)])[0]
        case .leasedElsewhere:
            return .leasedElsewhere
        case .failed(let failure):
            return recordFetches([(job, failure)])[0]
        case .feed(let opened):
            fetch = opened
        }
        let name: FeedArchive.SourceName = job.source.archiveName.map { .given($0) } ?? .fromFeed
        var recovered: FeedParseError?
        do {
            let counts = try archive.archive(name, fetch: fetch) { deliver in
                let feed = try job.read(limits: limits, deliver)
                recovered = feed.firstError
                return feed
            }
            return .archived(counts, recovered: recovered)
        } catch {
            job.abandon()
            return recordFetches([(job, .reading(error, of: job.source))])[0]
        }
    }

    /// Sources whose reads ended without a feed (``FeedJob/endedWithoutFeed``): their
    /// fetches recorded in one transaction.
    func write(endedWithoutFeed jobs: [FeedJob]) -> [SourceOutcome] {
        var outcomes = [SourceOutcome](repeating: .leasedElsewhere, count: jobs.count)
        var ended: [(job: FeedJob, failure: FeedFailure?)] = []
        var places: [Int] = []
        for (place, job) in jobs.enumerated() {
            switch job.open() {
            case .notModified: ended.append((job, nil))
            case .failed(let failure): ended.append((job, failure))
            case .leasedElsewhere: continue
            case .feed:
                outcomes[place] = write(job)
                continue
            }
            places.append(place)
        }
        for (place, outcome) in zip(places, recordFetches(ended)) { outcomes[place] = outcome }
        return outcomes
    }

    /// Notes on each source's row its fetch: a 304 (no failure) or a failure — unless
    /// the output itself failed, the source has no name before it is read, or it is a
    /// file never archived: a file has no fetch state to keep, and a mistyped path
    /// would stay in the archive for good. A URL's row is made on its first failure:
    /// the next runs retry it. All in one transaction; should it fail, every source
    /// in it says so.
    private func recordFetches(_ ended: [(job: FeedJob, failure: FeedFailure?)]) -> [SourceOutcome] {
        var outcomes = ended.map { $0.failure.map(SourceOutcome.failed) ?? .notModified }
        var records: [(source: String, fetch: FeedFetch, error: String?)] = []
        var recorded: [Int] = []
        for (place, (job, failure)) in ended.enumerated() {
            guard let name = job.source.archiveName else { continue }
            if let failure {
                guard !failure.isOutputFailure else { continue }
                let stored = archive.storedFeed(for: name)
                if case .file = job.source, stored == nil { continue }
                let url = job.fetch?.url ?? stored?.url ?? name
                records.append(
                    (
                        name,
                        FeedFetch(
                            url: url, status: failure.status, date: failure.date, retryAfter: failure.retryAfter),
                        failure.detail
                    ))
            } else {
                guard let fetch = job.fetch else { continue }
                records.append((name, fetch, nil))
            }
            recorded.append(place)
        }
        do {
            try archive.recordFetches(records)
        } catch {
            let (reason, exitCode) =
                (error as? IngestError).map { ($0.message, $0.kind.exitCode) } ?? ("\(error)", 74)
            for place in recorded {
                outcomes[place] =
                    if let failure = ended[place].failure {
                        .failed(
                            FeedFailure(
                                "\(failure.message); and the archive could not record it: \(reason)",
                                status: failure.status, exitCode: exitCode))
                    } else {
                        .failed(
                            FeedFailure(
                                "not modified, but the archive could not record it: \(reason)",
                                status: ended[place].job.fetch?.status, exitCode: exitCode))
                    }
            }
        }
        return outcomes
    }

    func finish() {}
    func discard() {}
}
