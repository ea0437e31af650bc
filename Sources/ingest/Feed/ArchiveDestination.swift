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
            return recordNotModified(job)
        case .leasedElsewhere:
            return .leasedElsewhere
        case .failed(let failure):
            return record(failure, of: job)
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
            return record(.reading(error, of: job.source), of: job)
        }
    }

    /// Notes a failure on the source's row — unless the output itself failed, the
    /// source has no name before it is read, or it is a file never archived: a file
    /// has no fetch state to keep, and a mistyped path would stay in the archive for
    /// good. A URL's row is made on its first failure: the next runs retry it.
    private func record(_ failure: FeedFailure, of job: FeedJob) -> SourceOutcome {
        guard !failure.isOutputFailure, let name = job.source.archiveName else { return .failed(failure) }
        let stored = archive.storedFeed(for: name)
        if case .file = job.source, stored == nil { return .failed(failure) }
        let url = job.fetch?.url ?? stored?.url ?? name
        do {
            try archive.recordFailure(
                name, fetch: FeedFetch(url: url, status: failure.status, retryAfter: failure.retryAfter),
                error: failure.detail)
        } catch let error as IngestError {
            return .failed(
                FeedFailure(
                    "\(failure.message); and the archive could not record it: \(error.message)",
                    status: failure.status, exitCode: error.kind.exitCode))
        } catch {
            return .failed(failure)
        }
        return .failed(failure)
    }

    /// Notes a 304 on the source's row: when, the status, and the next fetch.
    private func recordNotModified(_ job: FeedJob) -> SourceOutcome {
        guard let name = job.source.archiveName, let fetch = job.fetch else { return .notModified }
        do {
            try archive.recordNotModified(name, fetch: fetch)
        } catch let error as IngestError {
            return .failed(
                FeedFailure(
                    "not modified, but the archive could not record it: \(error.message)",
                    status: fetch.status, exitCode: error.kind.exitCode))
        } catch {
            return .failed(FeedFailure("not modified, but the archive could not record it: \(error)", exitCode: 74))
        }
        return .notModified
    }

    func finish() {}
    func discard() {}
}
