import Foundation
import ArgumentParser
import IngestKit
import IngestPostgres

/// What to read: the inputs and how to tell what they hold.
struct InputOptions: ParsableArguments {
    @Argument(
        help: ArgumentHelp(
            "XML or JSON files to read (also .gz, .bz2, .xz, .zst); - reads standard input.", valueName: "input"),
        completion: .file())
    var inputs: [String] = []

    @Option(
        help: ArgumentHelp(
            "Input format: xml, json or ndjson. Default: from the file name, else from the first byte.",
            valueName: "format"))
    var from: InputFormat?

    @Flag(help: "Read JSON Lines: one JSON value per line (or concatenated values). Same as --from ndjson.")
    var nl = false

    @Option(
        help: ArgumentHelp(
            "Threads parsing at once (default: the cores): several inputs into one --out, written in input order; a big JSON Lines file alone, in parts on the threads beside the writer's; a big XML file alone, mapped on a thread of its own when a core is left beside the parser's and the writer's.",
            valueName: "n"))
    var jobs: Int?

    /// The format option and --nl, as one.
    var format: InputFormat? { nl ? .jsonLines : from }

    /// Inputs parsed at once: `--jobs`, else the cores this process may use.
    var inputsAtOnce: Int { jobs ?? ProcessInfo.processInfo.activeProcessorCount }

    /// Checked by ``ImportCommand/validateOptions()``, after argument-parser has reported
    /// any unknown option.
    func check() throws {
        if inputs.isEmpty {
            throw ValidationError("No input: give a file to read, or - for standard input (see ingest help import).")
        }
        if inputs.filter({ $0 == "-" }).count > 1 { throw ValidationError("Standard input (-) can be read only once.") }
        if inputs.contains("") { throw ValidationError("An input name is empty.") }
        if let jobs, jobs < 1 || jobs > 256 { throw ValidationError("--jobs must be between 1 and 256.") }
        if nl, let from, from != .jsonLines {
            throw ValidationError("--nl reads JSON Lines; it contradicts --from \(from.rawValue).")
        }
    }
}

/// How records are found and built.
struct MappingOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Path of the record elements from the document element down, e.g. rss/channel/item; JSON: below the top-level value, e.g. people/item.",
            valueName: "path"))
    var records: String?

    @Option(
        help: ArgumentHelp(
            "A mapping schema (JSON, see Schemas/): records, typed fields, keys, child tables, names per output.",
            valueName: "file"),
        completion: .file(extensions: ["json"]))
    var schema: String?

    @Option(
        help: ArgumentHelp(
            "Without --schema: the table every record goes to (default: named after the records, e.g. the input's name). Monthly files appended with --table events land in one table.",
            valueName: "name"))
    var table: String?

    @Option(
        help: ArgumentHelp(
            "Without --schema: make these columns the primary key of the tables created; every record must give them a value, and a duplicate key fails the run unless --upsert. Repeat or separate with commas.",
            valueName: "column[,column]"))
    var pk: [String] = []

    @Flag(
        help:
            "A record whose primary key is stored updates that row (never deletes), setting the columns the record carries and keeping the others. Needs --pk or --schema; implies --append."
    )
    var upsert = false

    @Flag(
        help:
            "With --upsert: the columns a record lacks are set to NULL in the row it updates (the whole row is replaced) instead of being kept."
    )
    var upsertNulls = false

    /// The `--pk` columns, however they were given (`--pk a,b` or `--pk a --pk b`).
    var primaryKey: [String] {
        pk.flatMap { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
    }

    @Option(
        help: ArgumentHelp(
            "With --schema, a record that does not fit: fail stops the run (exit 65, nothing written); skip leaves it out.",
            valueName: "fail|skip"))
    var onError: RecordRejects.Mode = .fail

    @Option(
        help: ArgumentHelp(
            "With --on-error skip: write each rejected record's position and reason here (NDJSON).", valueName: "file"),
        completion: .file())
    var rejects: String?

    @Option(
        help: ArgumentHelp("With --on-error skip: fail the run once this many records are rejected.", valueName: "n"))
    var maxErrors: Int?

    @Option(
        help: ArgumentHelp(
            "Tree mode: parse the whole document and take each element this XPath expression selects as a record.",
            valueName: "expr"))
    var xpath: String?

    @Option(
        name: .customLong("ns"),
        help: ArgumentHelp("Bind a namespace prefix for --xpath; repeat for several.", valueName: "prefix=uri"))
    var namespaceBindings: [String] = []
}

/// Where records go and how an existing output is treated.
struct OutputOptions: ParsableArguments {
    enum Kind: String, ExpressibleByArgument, CaseIterable {
        case db, postgres, plist, archive, json, ndjson

        /// Whether the output is a database, which tables are appended to and altered.
        var isDatabase: Bool { self == .db || self == .postgres }
    }

    @Option(
        help: ArgumentHelp(
            "What to write: db (SQLite), postgres (PostgreSQL, with --db), plist (property list), archive (NSKeyedArchiver), json, ndjson.",
            valueName: "kind"))
    var to: Kind = .db

    /// `--db`, the database of `--to postgres`.
    @OptionGroup var postgres: PostgresOptions

    @Option(
        name: [.customShort("o"), .long],
        help: ArgumentHelp(
            "Output path; - writes standard output. Default: the input's name with the output's extension.",
            valueName: "path"),
        completion: .file())
    var out: String?

    @Option(
        help: ArgumentHelp(
            "With --to postgres, how tables and columns made from the input are spelled: lower (the default) as PostgreSQL folds unquoted names, so queries need no quotes (firstName -> firstname); exact as the input spells them (\"firstName\"). --append finds tables and columns of either. A --schema's names are as it writes them.",
            valueName: "lower|exact"))
    var pgNames: PostgresOutput.IdentifierCase?

    @Flag(help: "Rebuild an existing output atomically.")
    var replace = false

    @Flag(help: "Insert into an existing database in one transaction, creating tables as needed.")
    var append = false

    @Flag(help: "With --append: add columns to existing tables for fields they lack, instead of failing.")
    var alter = false

    @Option(
        help: ArgumentHelp(
            "Property list encoding for --to plist and --to archive: xml or binary. Default: xml for plist, binary for archive.",
            valueName: "format"))
    var plistFormat: PlistFormat?

    @Option(
        name: .customLong("class"),
        help: ArgumentHelp(
            "Class name of the archived objects with --to archive. Default: from the table name (people -> Person).",
            valueName: "name"))
    var className: String?

    @Option(
        name: .customLong("lock-timeout"),
        help: ArgumentHelp(
            "Wait this long for another run writing the same output (cron overlap), then exit 75. Default: 60.",
            valueName: "seconds"))
    var lockTimeoutOption: Double?

    /// `--lock-timeout`, or 60 seconds.
    var lockTimeout: Double { lockTimeoutOption ?? 60 }

    @Flag(
        help:
            "With several inputs and no --out: stop at the first input that fails. Default: carry on with the next, exit with the worst failure's status."
    )
    var failFast = false

    @Flag(help: "Parse and map, write nothing; the exit status tells valid from malformed.")
    var dryRun = false

    @Flag(help: "Only check that the input is well-formed: no mapping, nothing written.")
    var parseOnly = false
}

/// Bounds that keep hostile input from exhausting memory or stack.
struct LimitOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Deepest element nesting accepted (at most \(ParseLimits.maxSupportedDepth)).", valueName: "n"))
    var maxDepth = ParseLimits.default.maxDepth

    @Option(
        help: ArgumentHelp("Most text in one element, attribute or JSON string; K, M, G suffixes.", valueName: "bytes"))
    var maxTextBytes = ByteCount(ParseLimits.default.maxTextBytes)

    @Option(
        help: ArgumentHelp(
            "Largest input --xpath parses into a tree; K, M, G suffixes. Default: \(ByteCount(XPathSelection.defaultMaxTreeBytes)).",
            valueName: "bytes"))
    var maxTreeBytes: ByteCount?

    /// `--max-tree-bytes`, or its default.
    var treeLimit: Int { maxTreeBytes?.value ?? XPathSelection.defaultMaxTreeBytes }

    var limits: ParseLimits { ParseLimits(maxDepth: maxDepth, maxTextBytes: maxTextBytes.value) }

    /// Checked by ``ImportCommand/validateOptions()``, after argument-parser has reported
    /// any unknown option.
    func check() throws {
        if maxDepth < 1 || maxDepth > ParseLimits.maxSupportedDepth {
            throw ValidationError(
                "--max-depth must be from 1 to \(ParseLimits.maxSupportedDepth), what the parsers provably hold.")
        }
        if maxTextBytes.value < 1 { throw ValidationError("--max-text-bytes must be positive.") }
        if let maxTreeBytes, maxTreeBytes.value < 1 { throw ValidationError("--max-tree-bytes must be positive.") }
    }
}

/// Which XML parser, and checks before the import.
struct ParserOptions: ParsableArguments {
    @Option(help: ArgumentHelp("XML parser: expat or libxml2 (also ISO-2022-JP, GB18030, UTF-7).", valueName: "name"))
    var parser: XMLParserKind = .expat

    @Flag(help: "With --parser libxml2: lift libxml2's own limits (--max-text-bytes still holds). Trusted inputs only.")
    var huge = false

    @Option(
        name: .customLong("validate"),
        help: ArgumentHelp(
            "Check every XML input against an XML Schema (.xsd) or RELAX NG schema (.rng) first.", valueName: "schema"),
        completion: .file(extensions: ["xsd", "rng"]))
    var validationSchema: String?
}

/// What is said while it runs and after.
struct ReportingOptions: ParsableArguments {
    @Flag(name: .shortAndLong, help: "Nothing on standard error but errors.")
    var quiet = false

    @Flag(name: .shortAndLong, help: "Say what is being done, and print the summary even off a terminal.")
    var verbose = false

    @Option(
        help: ArgumentHelp(
            "Write a JSON account of the run (inputs, bytes, records per table, rejects, time, exit status) to this file, or - for standard output.",
            valueName: "file"),
        completion: .file())
    var report: String?

    /// Checked by ``ImportCommand/validateOptions()``, after argument-parser has reported
    /// any unknown option.
    func check() throws {
        if quiet && verbose { throw ValidationError("--quiet and --verbose contradict each other: pick one.") }
        if report == "" { throw ValidationError("--report needs a file name, or - for standard output.") }
    }
}

extension InputFormat: ExpressibleByArgument {}
extension XMLParserKind: ExpressibleByArgument {}
extension PlistFormat: ExpressibleByArgument {}
extension PostgresOutput.IdentifierCase: ExpressibleByArgument {}
extension RecordRejects.Mode: ExpressibleByArgument {}
