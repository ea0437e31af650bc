import AsyncHTTPClient
import Foundation
import IngestKit
import NIOCore

/// One run of `ingest feed`: the sources fetched concurrently (URLs, at most
/// `jobs` at a time, each on a task of its own) and written one at a time, in the
/// order they are ready, by the command's own thread — the destination's outputs
/// are synchronous and take one transaction at a time. Files and standard input are
/// read by the writing thread itself.
struct FeedRun {
    /// How URLs are fetched.
    struct Settings: Sendable {
        /// Fetches at the same time.
        var jobs: Int
        /// Fetches from one host at the same time.
        var perHost = 2
        /// Connecting, the response's head, each wait for more of the body.
        var timeout: TimeAmount
        /// The longest one source's fetch may take in all.
        var maxTime: Duration
        var userAgent: String
        /// The most bytes of one body (``FeedFetcher/maxBodyBytes``).
        var maxBodyBytes = FeedFetcher.defaultMaxBodyBytes
        /// Whether descriptions and content are written sanitized (`--html safe`).
        var sanitizesHTML = false
        /// Asked before a URL is fetched, when runs share the archive: whether this
        /// run may fetch the source (``FeedLeases``).
        var claim: (@Sendable (FeedSource) async throws -> Bool)?
    }

    let sources: [FeedSource]
    let settings: Settings
    let destination: any FeedDestination
    let console: Console

    /// Runs every source to its outcome, reporting each as it is written. Throws
    /// the failure that ends the run early: standard output's reader went away, or
    /// a signal asked the command to end.
    func run() throws(FeedFailure) -> [SourceOutcome] {
        let queue = FeedJobQueue()
        let console = console
        var onWarning: ParseWarningHandler?
        if !console.quiet { onWarning = { (warning: ParseWarning) in console.warning(warning.description) } }
        let jobs = sources.enumerated().map {
            FeedJob(index: $0.offset, source: $0.element, queue: queue, onWarning: onWarning,
                    sanitizesHTML: settings.sanitizesHTML)
        }
        var remote: [(FeedJob, FeedFetcher.Plan)] = []
        for job in jobs {
            switch job.source {
            case .url(let url):
                let plan = (destination as? ArchiveDestination)?.plan(for: url) ?? FeedFetcher.Plan(url: url)
                if plan.url != url { console.info("\(url.absoluteString): moved permanently to \(plan.url.absoluteString)") }
                remote.append((job, plan))
            case .file, .standardInput, .directory:
                queue.submit(job)
            }
        }
        if remote.isEmpty {
            queue.close()
        } else {
            let fetching = RemoteFetching(jobs: remote, settings: settings)
            Task.detached {
                await fetching.run()
                queue.close()
            }
        }
        var outcomes = [SourceOutcome?](repeating: nil, count: jobs.count)
        while let job = queue.take() {
            if case .file = job.source { console.info("reading \(job.source.displayName)") }
            let outcome = destination.write(job)
            if let feed = job.discovered {
                console.notice("\(job.source.displayName): an HTML page; reading the first feed it advertises, \(feed.url) (\(feed.type))")
            }
            if case .failed(let failure) = outcome, failure.endsRun != nil { throw failure }
            outcomes[job.index] = outcome
            report(job.source, outcome)
        }
        return outcomes.map { $0 ?? .failed(FeedFailure("not read", exitCode: 70)) }
    }

    private func report(_ source: FeedSource, _ outcome: SourceOutcome) {
        let recovered = outcome.recovered.map { " (not well-formed XML, read in recovering mode: \($0))" } ?? ""
        switch outcome {
        case .archived(let counts, _): console.info("\(source.displayName): \(counts)\(recovered)")
        case .written(let items, _): console.info("\(source.displayName): \(items) item\(items == 1 ? "" : "s")\(recovered)")
        case .notModified: console.info("\(source.displayName): not modified (HTTP 304), nothing written")
        case .leasedElsewhere: console.info("\(source.displayName): fetched by another run (\(FeedLeases.table))")
        case .failed(let failure): console.error(failure.line(for: source))
        }
    }
}

/// The fetching side of a run: every URL, `jobs` at a time and `perHost` from one
/// host at a time, each bounded by `maxTime`; then the HTTP client is shut down.
/// URLs start in the order given, but for one whose host is busy: the next URL of
/// another host goes first.
private struct RemoteFetching: Sendable {
    let jobs: [(FeedJob, FeedFetcher.Plan)]
    let settings: FeedRun.Settings

    func run() async {
        let client = FeedFetcher.makeClient(timeout: settings.timeout)
        let fetcher = FeedFetcher(client: client, timeout: settings.timeout, userAgent: settings.userAgent,
                                  maxBodyBytes: settings.maxBodyBytes)
        let maxTime = settings.maxTime, claim = settings.claim
        await withTaskGroup(of: String.self) { group in
            var waiting = HostQueues(jobs, perHost: settings.perHost)
            var running = 0
            while true {
                while running < settings.jobs, let (job, plan) = waiting.next() {
                    running += 1
                    group.addTask {
                        await Self.fetch(plan, into: job, with: fetcher, maxTime: maxTime, claim: claim)
                        return HostQueues.host(of: plan)
                    }
                }
                guard let host = await group.next() else { break }
                running -= 1
                waiting.finished(host)
            }
        }
        try? await client.shutdown()
    }

    /// One fetch, once `claim` (if any) gives it to this run, raced against `maxTime`:
    /// when that comes first, the job ends as timed out (temporary) and the fetch is
    /// cancelled.
    private static func fetch(_ plan: FeedFetcher.Plan, into job: FeedJob, with fetcher: FeedFetcher,
                              maxTime: Duration, claim: (@Sendable (FeedSource) async throws -> Bool)?) async {
        if let claim {
            do {
                guard try await claim(job.source) else { return job.end(.leasedElsewhere) }
            } catch let error as IngestError {
                return job.end(.failed(FeedFailure(error.message, exitCode: error.kind.exitCode)))
            } catch {
                return job.end(.failed(FeedFailure("cannot claim the feed: \(error)", exitCode: 74)))
            }
        }
        await withTaskGroup(of: Void.self) { race in
            race.addTask { await fetcher.fetch(plan, into: job) }
            race.addTask {
                do {
                    try await Task.sleep(for: maxTime)
                    job.end(.failed(FeedFailure("not read within \(maxTime.components.seconds) s in all (timed out)",
                                                exitCode: IngestError.Kind.temporary.exitCode)))
                } catch {}
            }
            await race.next()
            race.cancelAll()
        }
    }
}
