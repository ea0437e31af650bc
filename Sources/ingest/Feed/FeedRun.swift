import Foundation
import IngestFeedFetch
import IngestKit

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
        /// The fetcher's timeouts, byte limit and User-Agent.
        var fetching: FeedFetcher.Configuration
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
            FeedJob(
                index: $0.offset, source: $0.element, queue: queue, onWarning: onWarning,
                sanitizesHTML: settings.sanitizesHTML)
        }
        var remote: [(FeedJob, FeedRequest)] = []
        for job in jobs {
            switch job.source {
            case .url(let url):
                let plan = (destination as? ArchiveDestination)?.plan(for: url) ?? FeedRequest(url: url)
                if plan.url != url {
                    console.info("\(url.absoluteString): moved permanently to \(plan.url.absoluteString)")
                }
                remote.append((job, plan))
            case .file, .standardInput, .directory:
                queue.submit(job)
            }
        }
        // URLs being fetched, or fetched with a feed not yet written, at most: what
        // bounds the run's memory when the writer is slower than the fetches.
        let slots = FetchSlots(settings.jobs)
        if remote.isEmpty {
            queue.close()
        } else {
            let fetching = RemoteFetching(jobs: remote, settings: settings, slots: slots)
            Task.detached {
                await fetching.run()
                queue.close()
            }
        }
        var outcomes = [SourceOutcome?](repeating: nil, count: jobs.count)
        while let first = queue.take() {
            let written: [(FeedJob, SourceOutcome)]
            if first.endedWithoutFeed {
                // Written together: a note of each fetch, in one transaction.
                let jobs = [first] + queue.takeReady(upTo: 511) { $0.endedWithoutFeed }
                written = Array(zip(jobs, destination.write(endedWithoutFeed: jobs)))
            } else {
                if case .file = first.source { console.info("reading \(first.source.displayName)") }
                written = [(first, destination.write(first))]
            }
            for (job, outcome) in written {
                job.giveBackSlot()
                if let feed = job.discovered {
                    console.notice(
                        "\(job.source.displayName): an HTML page; reading the first feed it advertises, \(feed.url) (\(feed.type))"
                    )
                }
                if case .failed(let failure) = outcome, failure.endsRun != nil { throw failure }
                outcomes[job.index] = outcome
                report(job.source, outcome)
            }
        }
        return outcomes.map { $0 ?? .failed(FeedFailure("not read", exitCode: 70)) }
    }

    private func report(_ source: FeedSource, _ outcome: SourceOutcome) {
        let recovered = outcome.recovered.map { " (not well-formed XML, read in recovering mode: \($0))" } ?? ""
        switch outcome {
        case .archived(let counts, _): console.info("\(source.displayName): \(counts)\(recovered)")
        case .written(let items, _):
            console.info("\(source.displayName): \(items) item\(items == 1 ? "" : "s")\(recovered)")
        case .notModified: console.info("\(source.displayName): not modified (HTTP 304), nothing written")
        case .leasedElsewhere: console.info("\(source.displayName): fetched by another run (\(FeedLeases.table))")
        case .failed(let failure): console.error(failure.line(for: source))
        }
    }
}

/// The fetching side of a run: every URL, `jobs` at a time and `perHost` from one
/// host at a time, each bounded by the fetcher's whole-fetch timeout, and none
/// begun without a free slot of `slots`; then the HTTP client is shut down. URLs
/// start in the order given, but for one whose host is busy: the next URL of
/// another host goes first.
private struct RemoteFetching: Sendable {
    let jobs: [(FeedJob, FeedRequest)]
    let settings: FeedRun.Settings
    let slots: FetchSlots

    func run() async {
        var configuration = settings.fetching
        configuration.maxFetchesPerHost = settings.perHost
        let fetcher = FeedJobFetcher(fetcher: FeedFetcher(configuration: configuration))
        let claim = settings.claim
        await withTaskGroup(of: String.self) { group in
            var waiting = HostQueues(jobs, perHost: settings.perHost) {
                HostQueues<(FeedJob, FeedRequest)>.host(of: $0.1.url)
            }
            var running = 0
            while true {
                while running < settings.jobs {
                    await slots.take()
                    guard let ((job, request), host) = waiting.next() else {
                        // Every host busy, or every URL begun: the slot waits for the next round.
                        slots.giveBack()
                        break
                    }
                    running += 1
                    job.hold(slots)
                    group.addTask {
                        await Self.fetch(request, into: job, with: fetcher, claim: claim)
                        return host
                    }
                }
                guard let host = await group.next() else { break }
                running -= 1
                waiting.finished(host)
            }
        }
        try? await fetcher.fetcher.shutdown()
    }

    /// One fetch, once `claim` (if any) gives it to this run.
    private static func fetch(
        _ request: FeedRequest, into job: FeedJob, with fetcher: FeedJobFetcher,
        claim: (@Sendable (FeedSource) async throws -> Bool)?
    ) async {
        // A 304, a failure or a feed claimed elsewhere waits for the writer with
        // nothing to hold in memory.
        defer { if job.endedWithoutFeed { job.giveBackSlot() } }
        if let claim {
            do {
                guard try await claim(job.source) else { return job.end(.leasedElsewhere) }
            } catch let error as IngestError {
                return job.end(.failed(FeedFailure(error.message, exitCode: error.kind.exitCode)))
            } catch {
                return job.end(.failed(FeedFailure("cannot claim the feed: \(error)", exitCode: 74)))
            }
        }
        await fetcher.fetch(request, into: job)
    }
}
