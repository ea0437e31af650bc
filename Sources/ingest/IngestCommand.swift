import ArgumentParser
import IngestKit
import Logging

@main
struct IngestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ingest",
        abstract: "Stream XML or JSON of any size into a SQLite database, a property list, a keyed archive or JSON.",
        usage: "ingest [<options>] <input> ...\ningest schema infer <input> ... [<options>]",
        discussion: """
        XML: records are the child elements of the document element, or the elements
        named by --records. Their attributes and leaf child elements become columns,
        typed from the values; nested or repeated children are kept as JSON text.

        JSON: records are the items of a top-level array, or of each array-valued
        member of the top-level object (table named after the key); with --nl (or a
        .ndjson/.jsonl name) every line is a record. Keys become columns; strings,
        numbers, booleans and null keep their types; nested values are kept as JSON.
        In --records, a JSON array's items are called item: --records people/item.

        The output is written to a temporary file and renamed into place only when
        the whole input has been read: a malformed input leaves an existing output
        untouched. An existing output is refused unless --replace or --append is given.
        --append writes in one transaction and leaves the columns of tables already
        in the database alone: a record with a field such a table has no column for
        fails the run (65) and nothing is written, unless --alter adds the column.

        --xpath EXPR is tree mode: the whole document is parsed into libxml2's tree
        (memory: several times the file; inputs over --max-tree-bytes, default
        256M, are refused) and each element EXPR selects is a record, mapped as
        --records would map it. --validate checks every input against an XML
        Schema (.xsd) or RELAX NG schema (.rng) first, streaming; an invalid input
        stops the run before anything is written.

        --to plist writes an Apple property list (XML, or --plist-format binary):
        an array of one dictionary per record, or a dictionary of such arrays when
        there are several tables. --to archive writes an NSKeyedArchiver archive
        (a binary plist by default): an NSArray of one object per record, of class
        --class NAME (default: the table name singularised and capitalised,
        people -> Person). --to json and --to ndjson write JSON.

        Which XML parser: both stream with flat memory and give the same records.
        expat (the default) reads UTF-8, UTF-16 and every encoding iconv can give
        it as a byte table (windows-1251, ISO-8859-2, KOI8-R, Shift_JIS, EUC-JP,
        Big5, ...); --parser libxml2 also reads ISO-2022-JP, GB18030 and UTF-7,
        and accepts the names XML 1.0's 5th edition added. libxml2 keeps its own
        limits (10 MB per attribute value or CDATA section, entity amplification);
        --huge lifts them, for trusted inputs only. To pick records by query, use
        --xpath: libxml2 builds the whole document as a tree first (about 12x the
        file in memory, refused above --max-tree-bytes); prefer --records when a
        path will do. --validate checks the input against an XSD or RELAX NG schema
        with libxml2, streaming, before anything is written, whichever parser
        then imports it.

        --schema FILE maps with a declarative mapping schema (JSON; see Schemas/ and
        the README) instead: which elements are records, typed fields (text, integer,
        real, bool, date, datetime, data, json), primary and unique keys, indexes,
        child entities in their own tables with a foreign key, and names per output
        (columns, plist keys, archive class and coder keys). A record that does not
        fit stops the run (exit 65) unless --on-error skip, which leaves it out and
        with --rejects FILE writes its position and reason there. --upsert updates
        rows by primary key and replaces their child rows: a cron job run twice
        leaves one copy of each record.

        EXAMPLES
          ingest folks.xml                      writes folks.db (table people)
          ingest folks.xml --to plist           writes folks.plist (XML)
          ingest folks.xml --to plist --plist-format binary --out folks.bplist
          ingest folks.xml --to archive         writes folks.archive (class Person)
          ingest folks.xml --to ndjson --out -  one JSON object per line on stdout
          ingest folks.xml --to db --out people.db --replace
          ingest feed.rss --records rss/channel/item
          ingest folks.xml --xpath "//person[lastName='Doright']"   one record
          ingest feed.atom --xpath //a:entry --ns a=http://www.w3.org/2005/Atom
          ingest folks.xml --validate Schemas/folks.xsd   (or .rng) then import
          ingest folks.xml --schema Schemas/folks.json --to archive   Person, keys first/last
          ingest people.xml --schema Schemas/people-with-tags.json --upsert --out people.db
          ingest people.xml --schema s.json --on-error skip --rejects rejects.ndjson
          ingest folks.json                     same people table as folks.xml
          ingest events.ndjson --append --out events.db
          zcat log.jsonl.gz | ingest - --nl --out log.db
          ingest export.json --records data/results/item
          curl -s https://example.org/export.xml | ingest - --out export.db
          ingest nightly.xml --out archive.db --append --quiet     (cron)
          ingest nightly.xml --append --alter --out archive.db   may add columns
          ingest suspect.xml --dry-run && echo well-formed
          ingest mail-iso2022.xml --parser libxml2       a stateful encoding
          ingest big.xml --parse-only --parser libxml2   well-formedness, libxml2
          ingest schema infer folks.xml         print a mapping schema to edit

        EXIT STATUS (sysexits)
          0 success, 64 usage (also a bad --xpath, a schema that does not compile),
          65 malformed or invalid input (also over --max-tree-bytes, or a field an
          existing table has no column for, without --alter), 66 input or schema
          missing or unreadable, 73 output cannot be created, 74 I/O error
        """,
        version: "0.1.0",
        subcommands: [SchemaCommand.self]
    )

    enum OutputKind: String, ExpressibleByArgument, CaseIterable {
        case db, plist, archive, json, ndjson
    }


    @Argument(help: ArgumentHelp("XML or JSON files to read; - reads standard input.", valueName: "input"))
    var inputs: [String]

    @Option(help: "What to write: db (SQLite), plist (property list), archive (NSKeyedArchiver), json, ndjson.")
    var to: OutputKind = .db

    @Option(help: ArgumentHelp("Property list encoding for --to plist and --to archive: xml or binary. Default: xml for plist, binary for archive.", valueName: "format"))
    var plistFormat: PlistFormat?

    @Option(name: .customLong("class"), help: ArgumentHelp("Class name of the record objects with --to archive. Default: the table name singularised and capitalised (people -> Person).", valueName: "name"))
    var className: String?

    @Option(help: ArgumentHelp("Output path; - writes to standard output. Default: each input's name with the output's extension, in the current directory.", valueName: "path"))
    var out: String?

    @Option(help: ArgumentHelp("Path of the record elements, from the document element down, e.g. rss/channel/item.", valueName: "path"))
    var records: String?

    @Option(help: ArgumentHelp("XML parser, both streaming, same records: expat (the default; UTF-8, UTF-16 and the encodings iconv gives it as byte tables) or libxml2 (also ISO-2022-JP, GB18030, UTF-7).", valueName: "name"))
    var parser: XMLParserKind = .expat

    @Flag(help: "With --parser libxml2: lift libxml2's limits (10 MB attribute values and CDATA sections, 50 000-byte names, entity amplification). Trusted inputs only.")
    var huge = false

    @Option(help: ArgumentHelp("Input format: xml, json or ndjson. Default: from the file name (.xml, .json, .ndjson, .jsonl), else from the first byte.", valueName: "format"))
    var from: InputFormat?

    @Flag(help: "Read JSON Lines: one JSON value per line (or concatenated values). Same as --from ndjson.")
    var nl = false

    @Flag(help: "Only check that the input is well-formed: parse, no mapping, nothing written.")
    var parseOnly = false

    @Flag(help: "Rebuild an existing output atomically.")
    var replace = false

    @Flag(help: "Insert into an existing database in one transaction, creating tables as needed (new fields in existing tables: see --alter).")
    var append = false

    @Flag(help: "With --append: add columns to existing tables for fields they lack, instead of failing.")
    var alter = false

    @Flag(help: "Parse and map, write nothing; the exit status tells valid from malformed.")
    var dryRun = false

    @Flag(name: .shortAndLong, help: "No progress bar and no summary.")
    var quiet = false

    @Flag(name: .shortAndLong, help: "Say what is being done.")
    var verbose = false

    @Option(help: ArgumentHelp("Deepest element nesting accepted.", valueName: "n"))
    var maxDepth = ParseLimits.default.maxDepth

    @Option(help: ArgumentHelp("Most text accepted in one element, in bytes.", valueName: "n"))
    var maxTextBytes = ParseLimits.default.maxTextBytes

    @Option(help: ArgumentHelp("Tree mode: parse the whole document with libxml2 and take each element the XPath expression selects as a record, e.g. //person[lastName='Doright'].", valueName: "expr"))
    var xpath: String?

    @Option(name: .customLong("ns"), help: ArgumentHelp("Bind a namespace prefix for --xpath; repeat for several.", valueName: "prefix=uri"))
    var namespaceBindings: [String] = []

    @Option(help: ArgumentHelp("Largest input --xpath parses into a tree; suffixes K, M, G (powers of 1024). Default: 256M.", valueName: "bytes"))
    var maxTreeBytes: ByteCount?

    @Option(name: .customLong("validate"), help: ArgumentHelp("Check every XML input against an XML Schema (.xsd) or a RELAX NG schema (.rng) before anything is written.", valueName: "schema"))
    var validationSchemaPath: String?

    @Option(help: ArgumentHelp("A mapping schema (JSON, see Schemas/): which elements are records, their fields, types, keys, child entities and names per output. Replaces the automatic mapping.", valueName: "file"))
    var schema: String?

    @Flag(help: "With --schema and --to db: a record whose primary key is already in the table updates that row and replaces its child rows. Implies --append.")
    var upsert = false

    @Option(help: ArgumentHelp("With --schema, a record that does not fit it (a value of the wrong type, a required field missing): fail stops the run, exit 65, nothing written (the default); skip leaves it out and goes on.", valueName: "fail|skip"))
    var onError: RecordRejects.Mode = .fail

    @Option(help: ArgumentHelp("With --on-error skip: write each rejected record's position and reason to this file, one JSON object per line.", valueName: "file"))
    var rejects: String?

    @Option(help: ArgumentHelp("With --on-error skip: fail the run once this many records are rejected.", valueName: "n"))
    var maxErrors: Int?

    func validate() throws {
        if replace && append { throw ValidationError("--replace and --append exclude each other: pick one.") }
        try validateFileOutputOptions()
        if inputs.contains("-") && out == nil && !dryRun && !parseOnly {
            throw ValidationError("Reading standard input: name the output with --out PATH (or --out - for standard output).")
        }
        if inputs.filter({ $0 == "-" }).count > 1 { throw ValidationError("Standard input (-) can be read only once.") }
        if maxDepth < 1 || maxTextBytes < 1 { throw ValidationError("--max-depth and --max-text-bytes must be positive.") }
        if let records { _ = try RecordPath(records) }
        if huge && parser != .libxml2 { throw ValidationError("--huge lifts libxml2's limits: it needs --parser libxml2.") }
        if nl, let from, from != .jsonLines { throw ValidationError("--nl reads JSON Lines; it contradicts --from \(from.rawValue).") }
        try validateTreeOptions()
        try validateSchemaOption()
        try validateMappingSchemaOptions()
    }

    func run() throws {
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = verbose ? .info : .warning
            return handler
        }
        let logger = Logger(label: "ingest")
        do {
            // Every input is checked before any output is opened.
            let standardInput = try validateInputs(format: nl ? .jsonLines : from, logger: logger)
            let mappingSchema = try schema.map { try CompiledSchema.load(path: $0, output: schemaOutput) }
            let recordRejects = try RecordRejects(mode: onError, maxErrors: maxErrors, path: rejects)
            defer { try? recordRejects.finish() }
            let importer = Importer(options: .init(
                recordPath: try records.map(RecordPath.init),
                limits: ParseLimits(maxDepth: maxDepth, maxTextBytes: maxTextBytes),
                format: nl ? .jsonLines : from,
                xmlParser: parser,
                allowsHugeDocuments: huge,
                schema: mappingSchema,
                rejects: recordRejects))
            for job in try jobs() {
                let started = Clock.now
                let rejectedBefore = recordRejects.count
                let counter = try run(job.reading(standardInput), importer: importer, logger: logger)
                if !quiet {
                    printSummary(job, counter: counter, rejected: recordRejects.count - rejectedBefore,
                                 seconds: Clock.now - started)
                }
            }
            try recordRejects.finish()
        } catch let error as IngestError {
            StandardError.write("ingest: \(error)\n")
            throw ExitCode(error.kind.exitCode)
        }
    }

    /// One output and the inputs that go into it.
    struct Job {
        var inputs: [String]
        var output: String?
        /// Standard input when it had to be read already (spooled by `--validate`).
        var standardInput: InputFile?
    }

    private func jobs() throws -> [Job] {
        if dryRun || parseOnly { return [Job(inputs: inputs, output: nil)] }
        if let out { return [Job(inputs: inputs, output: out)] }
        return inputs.map { Job(inputs: [$0], output: Self.defaultOutput(for: $0, extension: to.rawValue)) }
    }

    /// `data/folks.xml` becomes `folks.db` in the current directory.
    static func defaultOutput(for input: String, extension ext: String) -> String {
        "\(Importer.stem(input)).\(ext)"
    }

    private func run(_ job: Job, importer: Importer, logger: Logger) throws -> CountingSink {
        guard let output = job.output else {
            let counter = CountingSink()
            try readAll(job, importer: importer, output: nil, into: counter, logger: logger)
            return counter
        }
        if to != .db { return try runFileOutput(job, to: output, importer: importer, logger: logger) }
        let mode: SQLiteOutput.Mode = replace ? .replace : append || upsert ? .append : .create
        let database = try SQLiteOutput(path: output, mode: mode, altersExistingTables: alter)
        var counter = CountingSink()
        var written: SQLiteSink?
        try database.write(design: importer.options.schema?.sqliteDesign(upsert: upsert)) { sink in
            written = sink
            counter = CountingSink(forwardingTo: sink)
            try readAll(job, importer: importer, output: output, into: counter, logger: logger)
        }
        for (table, columns) in written?.columnsAddedToExistingTables ?? [] {
            logger.info("added column\(columns.count == 1 ? "" : "s") \(columns.joined(separator: ", ")) to table \(table) (--alter)")
        }
        logger.info("wrote \(output)")
        return counter
    }

    /// Reads every input into `counter`: a database is written while the next records
    /// are parsed on a second thread; a dry run parses on this one, and so does tree
    /// mode (`--xpath`), whose records come from a document already in memory.
    func readAll(_ job: Job, importer: Importer, output: String?, into counter: CountingSink, logger: Logger) throws {
        var importer = importer
        let selection = try xpathSelection()
        for path in job.inputs {
            let input = try (path == "-" ? job.standardInput : nil) ?? InputFile(path: path)
            logger.info("reading \(input.displayName)")
            let meter = ProgressMeter(label: input.displayName, total: input.size, enabled: !quiet)
            defer { meter.finish() }
            if path == "-" {
                // Standard input has no name: a JSON top-level array's table is named after the output.
                importer.options.documentName = output.flatMap { $0 == "-" ? nil : Importer.stem($0) } ?? "stdin"
            } else {
                importer.options.documentName = nil
            }
            if let selection {
                try importer.runTree(input, selecting: selection, into: counter) { bytes in
                    meter.update(bytes: bytes, records: counter.recordCount)
                }
            } else if parseOnly {
                try importer.parseOnly(input) { bytes in meter.update(bytes: bytes, records: 0) }
            } else if counter.downstream == nil {
                try importer.run(input, into: counter) { bytes in
                    meter.update(bytes: bytes, records: counter.recordCount)
                }
            } else {
                let previous = counter.recordCount
                try importer.runConcurrently(input, into: counter) { bytes, records in
                    meter.update(bytes: bytes, records: previous + records)
                }
            }
        }
    }

    private func printSummary(_ job: Job, counter: CountingSink, rejected: Int, seconds: Double) {
        let bytes = job.inputs.compactMap { try? InputFile(path: $0).size }.reduce(0, +)
        let megabytes = Double(bytes) / 1_048_576
        if parseOnly {
            StandardError.write("ingest: well-formed, \(Self.fixed(megabytes, 1)) MB in \(Self.fixed(seconds, 2)) s (\(Self.fixed(megabytes / max(seconds, 0.000_001), 1)) MB/s), nothing written\n")
            return
        }
        let tables = counter.tables.isEmpty ? "no table" : "\(counter.tables.count) table\(counter.tables.count == 1 ? "" : "s") (\(counter.tables.joined(separator: ", ")))"
        let destination = job.output.map { $0 == "-" ? " to standard output" : " to \($0)" } ?? ", dry run: nothing written"
        let rejects = schema == nil ? "" : ", \(rejected) rejected\(rejected > 0 && self.rejects != nil ? " (see \(self.rejects!))" : "")"
        StandardError.write("ingest: \(counter.recordCount) record\(counter.recordCount == 1 ? "" : "s") in \(tables)\(destination)\(rejects); \(Self.fixed(megabytes, 1)) MB in \(Self.fixed(seconds, 2)) s (\(Self.fixed(megabytes / max(seconds, 0.000_001), 1)) MB/s)\n")
    }

    static func fixed(_ value: Double, _ places: Int) -> String {
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        let scaled = Int((value * scale).rounded())
        let whole = scaled / Int(scale), fraction = abs(scaled % Int(scale))
        let digits = String(fraction)
        return places == 0 ? "\(whole)" : "\(whole).\(String(repeating: "0", count: places - digits.count))\(digits)"
    }
}

extension InputFormat: ExpressibleByArgument {}
extension XMLParserKind: ExpressibleByArgument {}
