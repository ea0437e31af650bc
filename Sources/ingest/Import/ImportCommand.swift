import ArgumentParser
import IngestKit
import IngestPostgres

/// `ingest [import] INPUT...`: the default subcommand. It parses options, builds an
/// import from the library's parts (a reader, an output, rejects), runs it and
/// prints what happened; the import loop itself is the library's.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import XML or JSON into SQLite, PostgreSQL or files.",
        usage: "ingest [import] <input> ... [--to <kind>] [--out <path>] [<options>]",
        discussion: ImportHelp.discussion
    )

    @OptionGroup(title: "Input") var input: InputOptions
    @OptionGroup(title: "Mapping") var mapping: MappingOptions
    @OptionGroup(title: "Output") var output: OutputOptions
    @OptionGroup(title: "Parsers and validation") var parsing: ParserOptions
    @OptionGroup(title: "Safety limits") var limits: LimitOptions
    @OptionGroup(title: "Messages") var messages: ReportingOptions

    /// Checks the options together. Called first thing in ``run()`` rather than as
    /// argument-parser's `validate()`, which runs before argument-parser reports an
    /// unknown option: `--ouput new.db` must be reported as the misspelt flag it is
    /// ("did you mean '--out'?"), not as an input named new.db.
    func validateOptions() throws {
        try input.check()
        try limits.check()
        try messages.check()
        try validateOutput()
        try validateMapping()
        try validateRecordPathFitsInputs()
        try validateTreeMode()
        try validateParsing()
        try validateDistinctFiles()
    }

    func run() throws {
        try validateOptions()
        let console = Console(quiet: messages.quiet, verbose: messages.verbose)
        var report = RunReport(arguments: Array(CommandLine.arguments.dropFirst()))
        SignalCleanup.install()
        SignalCleanup.ignoreBrokenPipes()
        do {
            // On a thread with a stack of a known size, whatever `ulimit -s` says: a
            // record nested up to --max-depth's cap is released and written there.
            try LargeStackThread.run { try runImport(console: console, report: &report) }
            try report.finish(status: 0, error: nil, to: messages.report)
        } catch let error as IngestError where error.reason == .readerClosed {
            // `ingest … --out - | head`: the reader has all it wanted.
            try? report.finish(status: 0, error: nil, to: messages.report)
        } catch {
            let failure = CommandFailure(explained(error))
            SignalCleanup.endIfInterrupted {
                try? report.finish(status: $0, error: failure.message, to: messages.report)
            }
            console.error(failure.message)
            try? report.finish(status: failure.status, error: failure.message, to: messages.report)
            throw ExitCode(failure.status)
        }
    }

    private func runImport(console: Console, report: inout RunReport) throws {
        // Every input is checked before any output is opened.
        let validated = try validateInputs(console: console)
        let schema = try mapping.schema.map { try CompiledSchema.load(path: $0, output: schemaOutput) }
        let rejects = try makeRejects()
        do {
            try runJobs(schema: schema, rejects: rejects, validated: validated, console: console, report: &report)
            try rejects?.finish()
        } catch {
            // The rejects file says why records were set aside, also when the run fails;
            // a failed run that set nothing aside leaves an existing one as it was.
            if let rejects {
                if rejects.count > 0 { try? rejects.finish() } else { rejects.discard() }
            }
            throw error
        }
    }

    /// Runs every job. Each job's output is written all or nothing; a job that fails
    /// leaves its output as it was and, unless `--fail-fast` (or it is the only job),
    /// the run carries on with the next, then ends with the worst failure's status.
    private func runJobs(
        schema: CompiledSchema?, rejects: RecordRejects?, validated: [String: InputFile],
        console: Console, report: inout RunReport
    ) throws {
        let jobs = jobs()
        var failed: [(job: Job, failure: CommandFailure)] = []
        for job in jobs {
            do {
                try run(job, schema: schema, rejects: rejects, validated: validated, console: console, report: &report)
            } catch {
                if output.failFast || jobs.count == 1 { throw error }
                let failure = CommandFailure(explained(error))
                console.error(failure.message)
                report.add(failedJob: job, failure: failure)
                failed.append((job, failure))
            }
        }
        guard !failed.isEmpty else { return }
        throw JobFailures(failed: failed.map { ($0.job.inputs.joined(separator: ", "), $0.failure) }, of: jobs.count)
    }

    private func run(
        _ job: Job, schema: CompiledSchema?, rejects: RecordRejects?, validated: [String: InputFile],
        console: Console, report: inout RunReport
    ) throws {
        let stopwatch = Stopwatch()
        let rejectedBefore = rejects?.count ?? 0
        let inputs = try job.inputs.map { path in try validated[path] ?? openInput(path) }
        // Standard input has no name: a JSON top-level array's table is named after the output.
        let standardInputName =
            job.output.flatMap { $0 == "-" || output.to == .postgres ? nil : Importer.stem($0) } ?? "stdin"
        let destination = try makeOutput(for: job, schema: schema)
        let reader = try makeReader(
            schema: schema, rejects: rejects, standardInputName: standardInputName,
            mapsOnItsOwnThread: mappingHasACore(inputs: inputs.count, output: destination, rejects: rejects))
        destination.whileWaitingForLock = { [lockTimeout = output.lockTimeout, name = destination.displayName] holder in
            console.notice(LockWaitNotice.text(holder: holder, output: name, timeout: lockTimeout))
        }
        for input in inputs { console.info("reading \(input.displayName)") }
        let meter = ProgressTracker(enabled: !messages.quiet)
        defer { meter.finish() }
        // The output's warnings (a password file ignored) matter most when the run fails.
        let warnings = { for warning in destination.warnings { console.warning(warning) } }
        let summary: ImportSummary
        do {
            summary = try reader.run(inputs, into: destination, inputsAtOnce: inputsAtOnce(rejects: rejects)) {
                meter.update($0)
            }
        } catch {
            meter.finish()
            reportRemovedFiles(of: destination, console: console)
            warnings()
            // Standard input cannot be read again: what it looked like is what was read.
            if let standardInput = inputs.first(where: { $0.path == nil }) {
                throw explained(error, file: standardInput.displayName, sample: standardInput.firstBytes)
            }
            throw error
        }
        meter.finish()
        reportRemovedFiles(of: destination, console: console)
        for (table, columns) in destination.columnsAddedToExistingTables {
            console.info(
                "added column\(columns.count == 1 ? "" : "s") \(columns.joined(separator: ", ")) to table \(table) (--alter)"
            )
        }
        warnings()
        if job.output != nil { console.info("wrote \(destination.displayName)") }
        let rejected = (rejects?.count ?? 0) - rejectedBefore
        // Time spent waiting for another run is not time spent importing.
        let seconds = max(0, stopwatch.seconds - destination.secondsWaitedForLock)
        report.add(job: job, summary: summary, rejected: rejected, seconds: seconds)
        var line = summaryLine(job, summary, rejected: rejected, seconds: seconds)
        if destination.secondsWaitedForLock >= 0.05 {
            line += " after waiting \(Decimal(destination.secondsWaitedForLock, places: 1)) s for another run"
        }
        console.summary(line)
    }

    /// How many inputs are parsed at once: `--jobs` (default the cores), but one at a
    /// time in tree mode (each input's tree is held whole) and when records set aside
    /// go to a rejects file or are counted (their lines and `--max-errors` follow the
    /// inputs' order).
    private func inputsAtOnce(rejects: RecordRejects?) -> Int {
        if mapping.xpath != nil { return 1 }
        if let rejects, rejects.mode != .fail { return 1 }
        return input.inputsAtOnce
    }

    /// Whether a big XML file's mapping may take a thread of its own: when, beside the
    /// parser's thread and the writer's (if the output has one), a core of `--jobs`
    /// (default the cores) is left for it, and no other input is parsed meanwhile.
    /// On a machine with no core to spare, a third thread only takes from the others.
    private func mappingHasACore(inputs: Int, output: any Output, rejects: RecordRejects?) -> Bool {
        let threads = output.prefersWriterThread ? 3 : 2
        let inputsInParallel = inputs > 1 && output.prefersWriterThread && inputsAtOnce(rejects: rejects) > 1
        return !inputsInParallel && input.inputsAtOnce >= threads
    }

    /// With `--verbose`, the temporary files of killed runs the output removed.
    private func reportRemovedFiles(of destination: any Output, console: Console) {
        for path in destination.removedTemporaryFiles {
            console.info("removed \(path), left by a run that no longer exists")
        }
    }

    /// A data error on an input file that is not XML or JSON at all, said as what
    /// the file looks like ("CSV text", "a SQLite database", "empty") rather than as
    /// the parser's first complaint; other errors as they are.
    private func explained(_ error: any Error) -> any Error {
        guard let ingestError = error as? IngestError, let file = ingestError.file,
            input.inputs.contains(file), InputResemblance.isRegularFile(file),
            let sample = try? InputFile(path: file).decompressed().peek({
                Array($0.prefix(InputResemblance.sampleSize))
            })
        else { return error }
        return explained(error, file: file, sample: sample)
    }

    /// A parser's error on input `file`, whose first bytes are `sample`, said as what
    /// it looks like when that is not XML or JSON; other errors as they are (a
    /// decompressor's, which has no position, says what is wrong already).
    private func explained(_ error: any Error, file: String, sample: [UInt8]) -> any Error {
        guard let error = error as? IngestError, error.kind == .data, error.file == file, error.position != nil,
            let resemblance = InputResemblance.describe(sample)
        else { return error }
        let message =
            switch resemblance {
            case "empty": "is empty: there is no XML or JSON in it"
            case "nothing but white space": "holds nothing but white space: there is no XML or JSON in it"
            default:
                "looks like \(resemblance), not XML or JSON (the parser stopped at \(error.position.map { "\($0): " } ?? "")\(error.message))"
            }
        return IngestError(.data, message, file: file)
    }

    /// One output and the inputs that go into it.
    struct Job {
        var inputs: [String]
        /// The output path; `nil` for a dry run or a well-formedness check.
        var output: String?
    }

    /// With `--out`, every input into one output; without, one output per input,
    /// named after it (`data/folks.xml` → `folks.db` in the current directory).
    /// PostgreSQL: every input into the database, in one transaction.
    func jobs() -> [Job] {
        if output.dryRun || output.parseOnly { return [Job(inputs: input.inputs, output: nil)] }
        if output.to == .postgres {
            return [
                Job(
                    inputs: input.inputs,
                    output: (try? output.postgres.settings().description) ?? output.postgres.db ?? "")
            ]
        }
        if let out = output.out { return [Job(inputs: input.inputs, output: out)] }
        return input.inputs.map { Job(inputs: [$0], output: "\(Importer.stem($0)).\(output.to.rawValue)") }
    }

    /// Opens `path` (`-`: standard input), decompressing it when its first bytes say
    /// it is gzip, bzip2, xz or zstd.
    private func openInput(_ path: String) throws -> InputFile {
        try InputFile(path: path).decompressed()
    }

    /// `ingest: 3 records in 1 table (people) to folks.db; 120 B in 0.01 s (9.4 KiB/s)`
    private func summaryLine(_ job: Job, _ summary: ImportSummary, rejected: Int, seconds: Double) -> String {
        let bytes = ByteCount.readable(summary.bytesRead)
        let rate = "\(ByteCount.readable(Int(Double(summary.bytesRead) / max(seconds, 0.000_001))))/s"
        let timing = "\(bytes) in \(Decimal(seconds, places: 2)) s (\(rate))"
        if output.parseOnly { return "well-formed, \(timing), nothing written" }
        let count = summary.recordCount
        let tables =
            summary.tables.isEmpty
            ? "no table"
            : "\(summary.tables.count) table\(summary.tables.count == 1 ? "" : "s") (\(summary.tables.map(\.name).joined(separator: ", ")))"
        let destination =
            job.output.map { $0 == "-" ? " to standard output" : " to \($0)" } ?? ", dry run: nothing written"
        let rejectedText =
            mapping.schema == nil
            ? ""
            : ", \(rejected) rejected\(rejected > 0 && mapping.rejects != nil ? " (see \(mapping.rejects!))" : "")"
        return "\(count) record\(count == 1 ? "" : "s") in \(tables)\(destination)\(rejectedText); \(timing)"
    }
}
