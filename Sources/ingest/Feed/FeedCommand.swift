import ArgumentParser
import Foundation
import IngestFeedFetch
import IngestKit

/// `ingest feed SOURCE...`: RSS, Atom and JSON Feed from files, standard input or
/// http(s) URLs into an archive database that re-runs cleanly, or as gofeed's JSON.
struct FeedCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "feed",
        abstract: "Archive RSS, Atom and JSON Feed from files or URLs.",
        usage: """
            ingest feed <source> ... [--to db|postgres|json|ndjson]
                        [--out <path> | --db <uri>] [--jobs <n>] [--per-host <n>]
                        [--due] [--all] [--html safe|original] [--timeout <seconds>]
                        [--quiet|--verbose] [--report <file>]
            """,
        discussion: FeedHelp.discussion
    )

    /// What `--to` writes.
    enum Kind: String, ExpressibleByArgument, CaseIterable {
        case db, postgres, json, ndjson

        /// Whether it is the archive, updated in place (SQLite or PostgreSQL).
        var isArchive: Bool { self == .db || self == .postgres }
    }

    /// What `--html` writes of descriptions and content.
    enum HTMLMode: String, ExpressibleByArgument, CaseIterable {
        /// Sanitized (IngestFeeds' `SafeHTML`).
        case safe
        /// As the feed gave it.
        case original
    }

    @Argument(
        help: ArgumentHelp(
            "Feeds to read: files, directories (the files in them), - (standard input) or http(s):// URLs.",
            valueName: "source"),
        completion: .file())
    var sources: [String] = []

    @Option(
        help: ArgumentHelp(
            "Read the subscriptions of an OPML file (every outline's xmlUrl) as sources; with an archive, their folders are kept as each feed's subscription_categories.",
            valueName: "file"),
        completion: .file())
    var opml: String?

    @Option(
        name: .customLong("export-opml"),
        help: ArgumentHelp(
            "Write the archive's feeds (address, title, site, folders) as OPML 2.0 to this file, or - for standard output, after reading the sources if any.",
            valueName: "file"),
        completion: .file())
    var exportOPML: String?

    @Option(
        help:
            "What to write: db (the archive, SQLite), postgres (the archive in PostgreSQL, with --db), json (gofeed's JSON), ndjson (one item a line)."
    )
    var to: Kind = .db

    /// `--db`, the database of `--to postgres`, as `ingest import` takes it.
    @OptionGroup var postgres: PostgresOptions

    @Option(
        name: [.customShort("o"), .long],
        help: ArgumentHelp(
            "Output path; - writes standard output (json, ndjson). Default: feeds.db, feeds.json, feeds.ndjson.",
            valueName: "path"),
        completion: .file())
    var out: String?

    @Option(
        help: ArgumentHelp(
            "Descriptions and content: safe (sanitized HTML: no scripts, style sheets or event handlers; links only http(s), mailto or relative) or original (as the feed gave them). An archive stores safe, json and ndjson write original, unless this says otherwise.",
            valueName: "safe|original"))
    var html: HTMLMode?

    @Flag(help: "With --to json or ndjson: replace an existing output file.")
    var replace = false

    @Flag(
        help:
            "When a URL answers with an HTML page, read every feed it advertises, each a source of its own (without it, the first is read in the page's place)."
    )
    var all = false

    @Flag(
        help:
            "With an archive: read only the sources that are due (their next_fetch has come; see ingest help feed), and say how many were not."
    )
    var due = false

    @Option(help: ArgumentHelp("URLs fetched at the same time.", valueName: "n"))
    var jobs = 4

    @Option(
        name: .customLong("per-host"),
        help: ArgumentHelp("URLs fetched at the same time from one host.", valueName: "n"))
    var perHost = 2

    @Option(
        help: ArgumentHelp(
            "Seconds to wait to connect, for the response, and for each piece of it; a fetch takes at most ten times this in all.",
            valueName: "seconds"))
    var timeout = 30.0

    @Option(
        name: .customLong("max-size"),
        help: ArgumentHelp(
            "The most bytes of one HTTP response body, as sent; K, M, G suffixes. Past it that source fails (65).",
            valueName: "bytes"))
    var maxSize = ByteCount(FeedFetcher.defaultMaxBodyBytes)

    @Flag(name: .shortAndLong, help: "Nothing on standard error but errors.")
    var quiet = false

    @Flag(
        name: .shortAndLong,
        help:
            "Say what is read, what each source gave and how many feeds were not well-formed XML, and print the summary even off a terminal."
    )
    var verbose = false

    @Option(
        help: ArgumentHelp(
            "Write a JSON account of the run (each source's outcome, items, error; time, exit status) to this file, or - for standard output.",
            valueName: "file"),
        completion: .file())
    var report: String?

    func validate() throws {
        if sources.isEmpty, opml == nil, exportOPML == nil {
            throw ValidationError("Name at least one feed: a file, - or an http(s):// URL (or --opml, --export-opml).")
        }
        if exportOPML != nil, !to.isArchive {
            throw ValidationError("--export-opml writes an archive's feeds: use it with --to db or postgres.")
        }
        if let exportOPML, exportOPML.isEmpty || (exportOPML == "-" && (out == "-" || report == "-")) {
            throw ValidationError("--export-opml needs a file, or - when nothing else writes standard output.")
        }
        if sources.filter({ $0 == "-" }).count > 1 {
            throw ValidationError("Standard input (-) can be read only once.")
        }
        for source in sources { _ = try FeedSource(argument: source) }
        if jobs < 1 || jobs > 64 { throw ValidationError("--jobs must be between 1 and 64.") }
        if perHost < 1 || perHost > 64 { throw ValidationError("--per-host must be between 1 and 64.") }
        if maxSize.value < 1 { throw ValidationError("--max-size must be at least 1 byte.") }
        if !(timeout > 0 && timeout <= 3600) {
            throw ValidationError("--timeout must be more than 0 and at most 3600 seconds.")
        }
        if quiet && verbose { throw ValidationError("--quiet and --verbose contradict each other: pick one.") }
        if out == "" { throw ValidationError("--out needs a path, or - for standard output.") }
        try postgres.validate(to: to.rawValue, out: out)
        if to == .db, out == "-" {
            throw ValidationError("--to db updates an archive in place: name a file with --out (default feeds.db).")
        }
        if due, !to.isArchive {
            throw ValidationError("--due reads the next fetch times an archive keeps: use it with --to db or postgres.")
        }
        if to.isArchive, replace {
            throw ValidationError(
                "--replace applies to --to json and ndjson; an archive is updated in place, never rebuilt.")
        }
        if let out, out != "-", sources.contains(out) {
            throw ValidationError("--out \(out) is also a source: the output never overwrites an input.")
        }
        try validateReport()
    }

    /// `--report` names a file that is neither a source nor the output, or `-` when
    /// the output is not standard output.
    private func validateReport() throws {
        guard let report else { return }
        if report.isEmpty { throw ValidationError("--report needs a file name, or - for standard output.") }
        if report == "-" {
            if out == "-" {
                throw ValidationError("--report - and --out - both write standard output: send one of them to a file.")
            }
            return
        }
        if let same = sources.first(where: { $0 != "-" && FileStatus.sameFile($0, report) }) {
            throw ValidationError(
                "--report \(report) is also a source\(same == report ? "" : " (\(same))"): pick another file.")
        }
        if to != .postgres, FileStatus.sameFile(outputPath, report) {
            throw ValidationError("--report \(report) is also the output: pick another file.")
        }
    }

    /// The output file (`-`: standard output), for every `--to` but postgres.
    private var outputPath: String { out ?? "feeds.\(to.rawValue)" }

    func run() throws {
        let console = Console(quiet: quiet, verbose: verbose)
        MallocArenas.limit(to: ProcessInfo.processInfo.activeProcessorCount)
        SignalCleanup.install()
        SignalCleanup.ignoreBrokenPipes()
        var runReport = RunReport(arguments: Array(CommandLine.arguments.dropFirst()), listing: "sources")
        var status: Int32
        var message: String?
        do {
            (status, message) = try runFeeds(console: console, report: &runReport)
        } catch let failure as FeedFailure where failure.endsRun == .readerClosed {
            // `ingest feed … --out - | head`: the reader has all it wanted.
            (status, message) = (0, nil)
        } catch let error as IngestError where error.reason == .readerClosed {
            (status, message) = (0, nil)
        } catch {
            let failure = CommandFailure(error)
            SignalCleanup.endIfInterrupted { try? runReport.finish(status: $0, error: failure.message, to: report) }
            console.error(failure.message)
            (status, message) = (failure.status, failure.message)
        }
        do {
            try runReport.finish(status: status, error: message, to: report)
        } catch {
            let failure = CommandFailure(error)
            console.error(failure.message)
            if status == 0 { status = failure.status }
        }
        if status != 0 { throw ExitCode(status) }
    }

    /// Reads every source into the output; returns the exit status and the message
    /// of the failure that decided it. Throws when the output cannot be opened or
    /// completed.
    private func runFeeds(console: Console, report runReport: inout RunReport) throws -> (Int32, String?) {
        if sources.isEmpty, opml == nil, let exportOPML {
            // Only the export: the archive must be there.
            if to == .db, !FileStatus.exists(outputPath) {
                throw IngestError(.input, "no archive to export: no such file", file: outputPath)
            }
            try Self.export(try openArchive(console: console), to: exportOPML)
            return (0, nil)
        }
        let stopwatch = Stopwatch()
        // A directory's files leave out the run's own: the output (and SQLite's files
        // beside it) and the report.
        var skipping = to == .postgres ? [] : [outputPath] + ["-journal", "-wal", "-shm"].map { outputPath + $0 }
        if let report, report != "-" { skipping.append(report) }
        var unique: [FeedSource] = []
        var seen: Set<FeedSource> = []
        var fromDirectory = false
        let subscriptions = try opml.map { try readSubscriptions($0, console: console) } ?? []
        for argument in sources + subscriptions.map(\.url) {
            let source = try FeedSource(argument: argument)
            let expanded = source.expanded(skipping: skipping)
            if expanded != [source] { fromDirectory = true }
            for source in expanded where seen.insert(source).inserted { unique.append(source) }
        }
        let userAgent = "ingest/\(IngestCommand.configuration.version) (feed archiver)"
        var fetching = FeedFetcher.Configuration(timeout: .nanoseconds(Int64(self.timeout * 1e9)))
        fetching.userAgent = userAgent
        fetching.maxBodyBytes = maxSize.value
        // Pages stand for the feeds they advertise: files here, URLs as they answer
        // (with --all, before the run).
        unique = HTMLPageFiles.expand(unique, all: all, console: console)
        if all { unique = AdvertisedFeeds.expand(unique, fetching: fetching, console: console) }
        var seenFeeds: Set<FeedSource> = []
        unique = unique.filter { seenFeeds.insert($0).inserted }
        let destination: any FeedDestination =
            switch to {
            case .db, .postgres: try openArchive(console: console)
            // One source named is one feed, an object; a directory is a list, however many files it holds.
            case .json:
                try JSONDestination(
                    path: outputPath, replace: replace, single: unique.count == 1 && !fromDirectory,
                    limits: .default)
            case .ndjson: try NDJSONDestination(path: outputPath, replace: replace, limits: .default)
            }
        runReport.set("output", .string(destination.displayName))
        if !subscriptions.isEmpty, let archive = destination as? ArchiveDestination {
            try archive.archive.recordSubscriptions(Self.archived(subscriptions))
        }
        var notDue: [(source: FeedSource, next: Date)] = []
        if due, let archive = destination as? ArchiveDestination {
            let now = Date()
            let next = unique.map { archive.nextFetch(for: $0, after: now) }
            notDue = zip(unique, next).compactMap { source, next in next.map { (source, $0) } }
            unique = zip(unique, next).filter { $0.1 == nil }.map(\.0)
            for (source, next) in notDue {
                console.info(
                    "\(source.displayName): not due until \(FeedDate(secondsSince1970: Int64(next.timeIntervalSince1970)).rfc3339)"
                )
            }
            runReport.set("notDue", .array(notDue.map { .string($0.source.displayName) }))
        }
        var settings = FeedRun.Settings(
            jobs: jobs, perHost: perHost, fetching: fetching,
            sanitizesHTML: (html ?? (to.isArchive ? .safe : .original)) == .safe)
        if due, to == .postgres, let archive = destination as? ArchiveDestination {
            // Runs on other hosts may share this archive: each due feed goes to one of them.
            settings.claim = try archive.leaseClaims(
                settings: postgres.settings(), seconds: Int((self.timeout * 20).rounded(.up)))
        }
        let outcomes: [SourceOutcome]
        do {
            outcomes = try FeedRun(sources: unique, settings: settings, destination: destination, console: console)
                .run()
        } catch {
            destination.discard()
            throw error
        }
        for (source, outcome) in zip(unique, outcomes) { runReport.add(source, outcome) }
        let written = outcomes.contains { if case .failed = $0 { false } else { true } }
        do {
            if written || to.isArchive { try destination.finish() } else { destination.discard() }
        } catch {
            destination.discard()
            throw error
        }
        let summary = FeedSummary(
            outcomes: outcomes, kind: to, destination: destination.displayName,
            seconds: stopwatch.seconds, notDue: notDue.count)
        if let line = summary.recoveredLine { console.info(line) }
        console.summary(summary.line)
        if let exportOPML, let archive = destination as? ArchiveDestination { try Self.export(archive, to: exportOPML) }
        guard let deciding = FeedSummary.decidingFailure(outcomes) else { return (0, nil) }
        return (deciding.failure.exitCode, deciding.failure.line(for: unique[deciding.index]))
    }

    /// The archive `--to db` or `--to postgres` names.
    private func openArchive(console: Console) throws -> ArchiveDestination {
        if to == .postgres { return try ArchiveDestination(postgres: try postgres.settings(), limits: .default) }
        return try ArchiveDestination(path: outputPath, limits: .default) { [outputPath] holder in
            console.notice(LockWaitNotice.text(holder: holder, output: outputPath, timeout: 60, option: nil))
        }
    }

    /// The http(s) subscriptions of the OPML file at `path`; an outline whose
    /// `xmlUrl` is no such URL is left out with a warning.
    private func readSubscriptions(_ path: String, console: Console) throws -> [OPMLSubscription] {
        guard FileStatus.exists(path) else {
            throw IngestError(.input, "cannot open: No such file or directory", file: path)
        }
        let document: OPMLDocument
        do {
            document = try OPMLDocument(contentsOf: URL(fileURLWithPath: path))
        } catch let error as IngestError {
            var worded = FeedFailure.worded(error)
            if worded.file == nil { worded.file = path }
            throw worded
        } catch {
            throw IngestError(.input, "cannot read: \(error.localizedDescription)", file: path)
        }
        return document.subscriptions.filter { subscription in
            guard Self.isHTTP(subscription.url) else {
                console.warning("\(path): \(subscription.url): not an http(s) URL, left out")
                return false
            }
            return true
        }
    }

    /// The subscriptions under the names the archive keeps their feeds by: the URL
    /// as it is fetched (percent-encoded where the OPML wrote a space or a letter
    /// outside ASCII), those that come to one name merged, categories in order.
    private static func archived(_ subscriptions: [OPMLSubscription]) throws -> [(
        source: String, categories: [String]
    )] {
        var merged: [(source: String, categories: [String])] = []
        var indexBySource: [String: Int] = [:]
        var seen: [Set<String>] = []
        for subscription in subscriptions {
            let source = try FeedSource(argument: subscription.url).archiveName ?? subscription.url
            guard let index = indexBySource[source] else {
                indexBySource[source] = merged.count
                merged.append((source, subscription.categories))
                seen.append(Set(subscription.categories))
                continue
            }
            for category in subscription.categories where seen[index].insert(category).inserted {
                merged[index].categories.append(category)
            }
        }
        return merged
    }

    /// Whether `address` is an http(s) URL: what a subscription list holds.
    private static func isHTTP(_ address: String) -> Bool {
        let lowercased = address.lowercased()
        return lowercased.hasPrefix("http://") || lowercased.hasPrefix("https://")
    }

    /// Writes the archive's http(s) feeds as OPML 2.0 to `path` (`-`: standard
    /// output), each under its subscription folders, by address.
    static func export(_ destination: ArchiveDestination, to path: String) throws {
        let feeds = destination.archive.feeds.compactMap { feed -> OPMLSubscription? in
            let url = feed.url ?? feed.source
            guard isHTTP(url) else { return nil }
            return OPMLSubscription(
                url: url, title: feed.title, siteURL: feed.link, categories: feed.subscriptionCategories)
        }
        let document = OPMLDocument(title: "ingest feed subscriptions", subscriptions: feeds.sorted { $0.url < $1.url })
        let bytes = Array(document.xml.utf8)
        if path == "-" {
            try bytes.withUnsafeBytes { try POSIX.writeAll(1, $0, to: "standard output") }
        } else {
            try AtomicFile.write(bytes, to: path, replace: true)
        }
    }
}
