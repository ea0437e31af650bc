import ArgumentParser
import Foundation
import IngestKit
import NIOCore

/// `ingest feed SOURCE...`: RSS, Atom and JSON Feed from files, standard input or
/// http(s) URLs into an archive database that re-runs cleanly, or as gofeed's JSON.
struct FeedCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "feed",
        abstract: "Archive RSS, Atom and JSON Feed from files or URLs.",
        usage: """
        ingest feed <source> ... [--to db|postgres|json|ndjson]
                    [--out <path> | --db <uri>] [--jobs <n>]
                    [--timeout <seconds>] [--quiet|--verbose]
        """,
        discussion: FeedHelp.discussion
    )

    /// What `--to` writes.
    enum Kind: String, ExpressibleByArgument, CaseIterable {
        case db, postgres, json, ndjson

        /// Whether it is the archive, updated in place (SQLite or PostgreSQL).
        var isArchive: Bool { self == .db || self == .postgres }
    }

    @Argument(help: ArgumentHelp("Feeds to read: files, - (standard input) or http(s):// URLs.", valueName: "source"),
              completion: .file())
    var sources: [String]

    @Option(help: "What to write: db (the archive, SQLite), postgres (the archive in PostgreSQL, with --db), json (gofeed's JSON), ndjson (one item a line).")
    var to: Kind = .db

    /// `--db`, the database of `--to postgres`, as `ingest import` takes it.
    @OptionGroup var postgres: PostgresOptions

    @Option(name: [.customShort("o"), .long],
            help: ArgumentHelp("Output path; - writes standard output (json, ndjson). Default: feeds.db, feeds.json, feeds.ndjson.", valueName: "path"),
            completion: .file())
    var out: String?

    @Flag(help: "With --to json or ndjson: replace an existing output file.")
    var replace = false

    @Option(help: ArgumentHelp("URLs fetched at the same time.", valueName: "n"))
    var jobs = 4

    @Option(help: ArgumentHelp("Seconds to wait to connect, for the response, and for each piece of it; a fetch takes at most ten times this in all.", valueName: "seconds"))
    var timeout = 30.0

    @Flag(name: .shortAndLong, help: "Nothing on standard error but errors.")
    var quiet = false

    @Flag(name: .shortAndLong, help: "Say what is read and what each source gave, and print the summary even off a terminal.")
    var verbose = false

    func validate() throws {
        if sources.isEmpty { throw ValidationError("Name at least one feed: a file, - or an http(s):// URL.") }
        if sources.filter({ $0 == "-" }).count > 1 { throw ValidationError("Standard input (-) can be read only once.") }
        for source in sources { _ = try FeedSource(argument: source) }
        if jobs < 1 || jobs > 64 { throw ValidationError("--jobs must be between 1 and 64.") }
        if !(timeout > 0 && timeout <= 3600) { throw ValidationError("--timeout must be more than 0 and at most 3600 seconds.") }
        if quiet && verbose { throw ValidationError("--quiet and --verbose contradict each other: pick one.") }
        if out == "" { throw ValidationError("--out needs a path, or - for standard output.") }
        try postgres.validate(to: to.rawValue, out: out)
        if to == .db, out == "-" {
            throw ValidationError("--to db updates an archive in place: name a file with --out (default feeds.db).")
        }
        if to.isArchive, replace {
            throw ValidationError("--replace applies to --to json and ndjson; an archive is updated in place, never rebuilt.")
        }
        if let out, out != "-", sources.contains(out) {
            throw ValidationError("--out \(out) is also a source: the output never overwrites an input.")
        }
    }

    func run() throws {
        let console = Console(quiet: quiet, verbose: verbose)
        SignalCleanup.install()
        let stopwatch = Stopwatch()
        var unique: [FeedSource] = []
        for argument in sources {
            let source = try FeedSource(argument: argument)
            if !unique.contains(source) { unique.append(source) }
        }
        let path = out ?? "feeds.\(to.rawValue)"
        let destination: any FeedDestination
        do {
            destination = switch to {
            case .db: try ArchiveDestination(path: path, limits: .default)
            case .postgres: try ArchiveDestination(postgres: try postgres.settings(), limits: .default)
            case .json: try JSONDestination(path: path, replace: replace, single: unique.count == 1, limits: .default)
            case .ndjson: try NDJSONDestination(path: path, replace: replace, limits: .default)
            }
        } catch {
            let failure = CommandFailure(error)
            console.error(failure.message)
            throw ExitCode(failure.status)
        }
        let settings = FeedRun.Settings(
            jobs: jobs, timeout: .nanoseconds(Int64(timeout * 1e9)), maxTime: .seconds(timeout * 10),
            userAgent: "ingest/\(IngestCommand.configuration.version) (feed archiver)")
        let outcomes = FeedRun(sources: unique, settings: settings, destination: destination, console: console).run()
        let written = outcomes.contains { if case .failed = $0 { false } else { true } }
        do {
            if written || to.isArchive { try destination.finish() } else { destination.discard() }
        } catch {
            destination.discard()
            let failure = CommandFailure(error)
            console.error(failure.message)
            throw ExitCode(failure.status)
        }
        console.summary(FeedSummary(outcomes: outcomes, kind: to, destination: destination.displayName,
                                    seconds: stopwatch.seconds).line)
        let status = FeedSummary.exitStatus(outcomes)
        if status != 0 { throw ExitCode(status) }
    }
}
