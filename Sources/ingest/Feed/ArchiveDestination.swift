import Foundation
import IngestKit

/// `--to db`: the feed archive in a SQLite file (IngestFeedArchive over
/// `SQLiteOutput` in `.append` mode), one transaction per source.
final class ArchiveDestination: FeedDestination {
    let archive: FeedArchive
    let path: String
    let limits: ParseLimits

    /// Opens the archive at `path` (creating it on the first write) and reads what
    /// it stores about each feed.
    init(path: String, limits: ParseLimits) throws {
        self.path = path
        self.limits = limits
        archive = try FeedArchive { design in SQLiteOutput(path: path, mode: .append, design: design) }
    }

    var displayName: String { path }

    /// What to ask a server for `url`: the address the archive moved it to and the
    /// validators it stored.
    func plan(for url: URL) -> FeedFetcher.Plan {
        guard let stored = archive.storedFeed(for: url.absoluteString) else { return FeedFetcher.Plan(url: url) }
        return FeedFetcher.Plan(url: stored.url.flatMap(URL.init(string:)) ?? url,
                                etag: stored.etag, lastModified: stored.lastModified)
    }

    func write(_ job: FeedJob) -> SourceOutcome {
        let fetch: FeedFetch
        switch job.open() {
        case .notModified:
            return .notModified
        case .failed(let failure):
            return record(failure, of: job)
        case .feed(let opened):
            fetch = opened
        }
        let name: FeedArchive.SourceName = job.source.archiveName.map { .given($0) } ?? .fromFeed
        do {
            let counts = try archive.archive(name, fetch: fetch) { deliver in
                try job.read(limits: limits, deliver)
            }
            return .archived(counts)
        } catch {
            job.abandon()
            let failure = error as? FeedFailure ?? (error as? IngestError).map { FeedFailure.ingest($0) }
                ?? FeedFailure("\(error)", exitCode: 70)
            return record(failure, of: job)
        }
    }

    /// Notes a failure on the source's row (unless the output itself failed, or the
    /// source has no name before it is read).
    private func record(_ failure: FeedFailure, of job: FeedJob) -> SourceOutcome {
        guard !failure.isOutputFailure, let name = job.source.archiveName else { return .failed(failure) }
        let url = job.fetch?.url ?? archive.storedFeed(for: name)?.url ?? name
        do {
            try archive.recordFailure(name, fetch: FeedFetch(url: url, status: failure.status), error: failure.message)
        } catch let error as IngestError {
            return .failed(FeedFailure("\(failure.message); and the archive could not record it: \(error.message)",
                                       status: failure.status, exitCode: error.kind.exitCode))
        } catch {
            return .failed(failure)
        }
        return .failed(failure)
    }

    func finish() {}
    func discard() {}
}
