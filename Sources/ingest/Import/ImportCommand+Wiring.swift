import ArgumentParser
import IngestKit
import IngestPostgres

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// From options to the library's parts: which reader, which output, which rejects.
extension ImportCommand {
    /// The reader the options ask for: tree mode, a well-formedness check, or the
    /// streaming import with the automatic mapping or a schema.
    /// The reader of one job; `standardInputName` names the document element of JSON
    /// read from standard input, which has no file name to take it from; with
    /// `mapsOnItsOwnThread`, a big XML file is mapped on a thread beside the parser's.
    func makeReader(
        schema: CompiledSchema?, rejects: RecordRejects?, standardInputName: String, mapsOnItsOwnThread: Bool
    ) throws -> any RecordReader {
        if let selection = try xpathSelection() {
            return XPathReader(selection: selection, limits: limits.limits, format: input.format)
        }
        let recordMapping: any RecordMapping =
            if let schema {
                SchemaRecordMapping(
                    schema: schema, rejects: rejects ?? RecordRejects(),
                    omitsAbsentFields: mapping.upsert && !mapping.upsertNulls)
            } else {
                AutomaticRecordMapping(recordPath: try mapping.records.map(RecordPath.init), table: mapping.table)
            }
        let console = Console(quiet: messages.quiet, verbose: messages.verbose)
        var onWarning: ParseWarningHandler?
        if !messages.quiet { onWarning = { (warning: ParseWarning) in console.warning(warning.description) } }
        var options = Importer.Options(
            mapping: recordMapping,
            limits: limits.limits,
            format: input.format,
            documentName: standardInputName,
            xmlParser: parsing.parser,
            allowsHugeDocuments: parsing.huge,
            onWarning: onWarning)
        options.mappingThreadThreshold = mapsOnItsOwnThread ? defaultChunkSize : nil
        let importer = Importer(options: options)
        return output.parseOnly ? WellFormednessCheck(importer: importer) : importer
    }

    /// Where `job` writes: nowhere for a dry run, else the output `--to` names.
    func makeOutput(for job: Job, schema: CompiledSchema?) throws -> any Output {
        guard let path = job.output else { return DiscardingOutput() }
        let format: FileOutput.Format
        switch output.to {
        case .db:
            let mode: SQLiteOutput.Mode =
                output.replace ? .replace : output.append || mapping.upsert ? .append : .create
            let database = SQLiteOutput(
                path: path, mode: mode, altersExistingTables: output.alter,
                design: try tableDesign(schema), keys: tableKeys)
            database.lockTimeout = output.lockTimeout
            return database
        case .postgres:
            let mode: PostgresOutput.Mode =
                output.replace ? .replace : output.append || mapping.upsert ? .append : .create
            let database = PostgresOutput(
                settings: try output.postgres.settings(), mode: mode, altersExistingTables: output.alter,
                design: try tableDesign(schema), keys: tableKeys,
                identifierCase: output.pgNames ?? .lower)
            database.lockTimeout = output.lockTimeout
            return database
        case .plist:
            format = .propertyList(output.plistFormat ?? .xml)
        case .archive:
            format = .keyedArchive(
                output.plistFormat ?? .binary, className: output.className,
                classNames: schema?.archiveClasses ?? [:])
        case .json:
            format = .json
        case .ndjson:
            format = .jsonLines
        }
        let file = FileOutput(path: path, format: format, replace: output.replace)
        file.lockTimeout = output.lockTimeout
        file.mayWriteSeveralTables = try schema.map { try $0.tableDesign(upsert: false).tables.count > 1 } ?? false
        return file
    }

    /// The schema's tables, for a database output.
    private func tableDesign(_ schema: CompiledSchema?) throws -> TableDesign? {
        guard var design = try schema?.tableDesign(upsert: mapping.upsert) else { return nil }
        design.upsertNulls = mapping.upsertNulls
        return design
    }

    /// `--pk` and `--upsert` without a schema.
    private var tableKeys: TableKeys? {
        let key = mapping.primaryKey
        return key.isEmpty ? nil : TableKeys(primaryKey: key, upsert: mapping.upsert, upsertNulls: mapping.upsertNulls)
    }

    /// The rejects of `--on-error skip`, written to `--rejects` when given; `nil`
    /// without a schema.
    func makeRejects() throws -> RecordRejects? {
        guard mapping.schema != nil else { return nil }
        guard let path = mapping.rejects else {
            return RecordRejects(mode: mapping.onError, maxErrors: mapping.maxErrors)
        }
        return try RecordRejects(
            mode: mapping.onError, maxErrors: mapping.maxErrors, path: path, replace: output.replace)
    }

    /// Which names the schema's records carry: columns, plist keys, archive keys or field names.
    var schemaOutput: CompiledSchema.OutputKind {
        switch output.to {
        case .db, .postgres: .database
        case .plist: .plist
        case .archive: .archive
        case .json, .ndjson: .json
        }
    }

    /// What `--xpath` asks for, or `nil` for streaming.
    func xpathSelection() throws -> XPathSelection? {
        guard let xpath = mapping.xpath else { return nil }
        return XPathSelection(xpath, namespaces: try namespaces(), maxTreeBytes: limits.treeLimit)
    }

    /// The `--ns` bindings, prefix → URI.
    func namespaces() throws -> [String: String] {
        var bindings: [String: String] = [:]
        for binding in mapping.namespaceBindings {
            guard let equals = binding.firstIndex(of: "=") else {
                throw ValidationError("--ns \(binding): expected PREFIX=URI, e.g. --ns a=http://www.w3.org/2005/Atom.")
            }
            let prefix = String(binding[..<equals]), uri = String(binding[binding.index(after: equals)...])
            guard !prefix.isEmpty, !uri.isEmpty, !prefix.contains(":"),
                prefix.first.map({ $0.isLetter || $0 == "_" }) == true,
                prefix.allSatisfy({ $0.isLetter || $0.isNumber || "_-.".contains($0) })
            else {
                throw ValidationError(
                    "--ns \(binding): expected PREFIX=URI with a prefix such as a or dc, e.g. --ns a=http://www.w3.org/2005/Atom."
                )
            }
            if prefix == "xmlns" { throw ValidationError("--ns: the prefix xmlns is reserved; pick another.") }
            if let bound = bindings[prefix], bound != uri {
                throw ValidationError("--ns binds \(prefix) twice, to \(bound) and to \(uri).")
            }
            bindings[prefix] = uri
        }
        return bindings
    }

    /// With `--validate`, checks every input against the schema before any output is
    /// opened, printing each problem (the first 20 per input); throws `.data` if any
    /// input is invalid. An input that can be read only once (standard input, a pipe)
    /// is copied to a temporary file first: returns the copies for the import, by path.
    func validateInputs(console: Console) throws -> [String: InputFile] {
        guard let schemaPath = parsing.validationSchema else { return [:] }
        let schema = try ValidationSchema(contentsOf: schemaPath)
        var copies: [String: InputFile] = [:]
        var invalid: [ValidationReport] = []
        for path in input.inputs {
            var file = try InputFile(path: path).decompressed()
            if file.storedSize == nil {
                let spooled = try file.spooled(readers: 2)
                file = spooled[0]
                copies[path] = spooled[1]
            }
            guard try (input.format ?? InputFormat.detect(file)) == .xml else {
                throw IngestError(.usage, "--validate checks XML against a schema, and \(file.displayName) is JSON")
            }
            console.info("validating \(file.displayName) against \(schemaPath)")
            let report = try schema.validate(file)
            guard !report.isValid else { continue }
            for problem in report.problems { console.error("\(problem)") }
            if report.problemCount > report.problems.count {
                console.error("\(report.file): … and \(report.problemCount - report.problems.count) more problems")
            }
            invalid.append(report)
        }
        guard let first = invalid.first else { return copies }
        if invalid.count == 1 {
            throw IngestError(
                .data,
                "not valid against \(schemaPath) (\(first.problemCount) problem\(first.problemCount == 1 ? "" : "s")); nothing written",
                file: first.file)
        }
        throw IngestError(
            .data,
            "\(invalid.count) of \(input.inputs.count) inputs are not valid against \(schemaPath); nothing written")
    }
}

/// The checks of options against each other, before anything is read.
extension ImportCommand {
    func validateOutput() throws {
        let to = output.to
        if output.replace && output.append {
            throw ValidationError("--replace and --append exclude each other: pick one.")
        }
        if output.dryRun && output.parseOnly {
            throw ValidationError("--dry-run and --parse-only exclude each other: pick one.")
        }
        if output.append && !to.isDatabase {
            throw ValidationError(
                "--append adds to a database; with --to \(to.rawValue) use --replace to rebuild the file.")
        }
        if output.alter && !to.isDatabase {
            throw ValidationError("--alter adds columns to the tables of a database; --to \(to.rawValue) has none.")
        }
        if output.plistFormat != nil && to != .plist && to != .archive {
            throw ValidationError("--plist-format applies to --to plist and --to archive only.")
        }
        if let className = output.className {
            guard to == .archive else { throw ValidationError("--class names the objects of --to archive only.") }
            guard !className.isEmpty, !className.hasPrefix("$") else {
                throw ValidationError("--class needs a class name such as Person.")
            }
        }
        if output.pgNames != nil {
            guard to == .postgres else { throw ValidationError("--pg-names spells the names of --to postgres only.") }
            guard mapping.schema == nil else {
                throw ValidationError(
                    "--pg-names spells the names made from the input; a --schema's tables and columns are named as it writes them (its \"table\" and \"column\"): drop --pg-names."
                )
            }
        }
        try output.postgres.validate(to: to.rawValue, out: output.out, connects: !output.dryRun && !output.parseOnly)
        if to == .postgres { return }
        if let out = output.out {
            if out.isEmpty { throw ValidationError("--out needs a path, or - for standard output.") }
            if out == "-", isatty(STDOUT_FILENO) == 1, writesBinary {
                throw ValidationError(
                    "--out - would write binary data to a terminal: redirect standard output (> file, | command) or name a file."
                )
            }
        } else if input.inputs.contains("-") && !output.dryRun && !output.parseOnly {
            throw ValidationError(
                "Reading standard input: name the output with --out PATH (or --out - for standard output).")
        }
        if messages.report == "-", output.out == "-" {
            throw ValidationError("--report - and --out - both write standard output: send one of them to a file.")
        }
        if !(output.lockTimeout >= 0 && output.lockTimeout <= 86_400) {
            throw ValidationError("--lock-timeout takes seconds from 0 (do not wait) to 86400.")
        }
    }

    /// Whether the output is binary: a database, a binary plist, a binary archive.
    private var writesBinary: Bool {
        switch output.to {
        case .db, .postgres: true
        case .plist: output.plistFormat == .binary
        case .archive: output.plistFormat != .xml
        case .json, .ndjson: false
        }
    }

    func validateMapping() throws {
        if let records = mapping.records {
            do { _ = try RecordPath(records) } catch {
                throw ValidationError(
                    "--records \(records): expected element names separated by /: people/person (the records' parent, then the records), or people/item in JSON."
                )
            }
        }
        try validateKeys()
        guard mapping.schema != nil else {
            if mapping.onError != .fail || mapping.rejects != nil || mapping.maxErrors != nil {
                throw ValidationError(
                    "--on-error, --rejects and --max-errors need --schema: the automatic mapping accepts every record.")
            }
            return
        }
        if mapping.records != nil {
            throw ValidationError(
                "--schema says where the records are: drop --records (or set \"records\" in the schema).")
        }
        if mapping.xpath != nil {
            throw ValidationError(
                "--schema and --xpath exclude each other: the schema's records paths select the records.")
        }
        if output.parseOnly {
            throw ValidationError("--parse-only maps nothing, so --schema has no effect: drop one of them.")
        }
        if mapping.onError == .fail, mapping.rejects != nil || mapping.maxErrors != nil {
            throw ValidationError("--rejects and --max-errors apply to records set aside: add --on-error skip.")
        }
        if let maxErrors = mapping.maxErrors, maxErrors < 1 {
            throw ValidationError("--max-errors must be at least 1.")
        }
        if let rejects = mapping.rejects, rejects == "-" || rejects.isEmpty {
            throw ValidationError("--rejects needs a file name; standard output may hold the output.")
        }
    }

    /// `--table`, `--pk`, `--upsert` and `--upsert-nulls`, against each other and the output.
    func validateKeys() throws {
        let key = mapping.primaryKey
        if let table = mapping.table {
            guard output.to.isDatabase else {
                throw ValidationError("--table names a table of a database; --to \(output.to.rawValue) has none.")
            }
            guard mapping.schema == nil else {
                throw ValidationError(
                    "--table names the table of the automatic mapping; a --schema names its tables itself (its \"table\"): drop --table, or change the schema."
                )
            }
            if table.isEmpty || table.utf8.contains(0) {
                throw ValidationError("--table needs a table name, without NUL characters.")
            }
        }
        if !mapping.pk.isEmpty {
            guard output.to.isDatabase else {
                throw ValidationError(
                    "--pk makes a primary key of a database table; --to \(output.to.rawValue) has none.")
            }
            guard mapping.schema == nil else {
                throw ValidationError(
                    "--pk makes the key of the tables the automatic mapping creates; a --schema declares its keys itself (its \"primaryKey\"): drop --pk."
                )
            }
            if key.contains(where: { $0.isEmpty || $0.utf8.contains(0) }) {
                throw ValidationError("--pk needs column names, separated by commas (--pk id or --pk id,region).")
            }
            if let twice = key.first(where: { name in key.filter { $0.lowercased() == name.lowercased() }.count > 1 }) {
                throw ValidationError("--pk names the column \(twice) twice.")
            }
        }
        if mapping.upsert {
            guard output.to.isDatabase else {
                throw ValidationError("--upsert updates database rows: it needs --to db or --to postgres.")
            }
            guard !output.replace else {
                throw ValidationError("--upsert updates an existing database; --replace rebuilds it: pick one.")
            }
            if mapping.schema == nil, key.isEmpty {
                throw ValidationError(
                    "--upsert updates rows by their primary key: name its columns with --pk (or give a --schema that declares one)."
                )
            }
        }
        if mapping.upsertNulls, !mapping.upsert {
            throw ValidationError("--upsert-nulls says what --upsert does to the columns a record lacks: add --upsert.")
        }
    }

    /// No file plays two parts: an output is never an input, and the rejects and
    /// report files are neither an input nor an output nor each other — however each
    /// is spelt (`x`, `./x`, a symbolic or hard link: the same device and inode).
    func validateDistinctFiles() throws {
        let inputs = input.inputs.filter { $0 != "-" }
        let outputs = Set(jobs().compactMap(\.output).filter { $0 != "-" }).sorted()
        for out in outputs {
            guard let same = inputs.first(where: { FileStatus.sameFile($0, out) }) else { continue }
            throw ValidationError(
                output.out == nil
                    ? "The output \(out) would be the input \(same): name another with --out."
                    : "--out \(out) is also an input\(same == out ? "" : " (\(same))"): the output never overwrites an input."
            )
        }
        var named: [(option: String, path: String)] = []
        if let rejects = mapping.rejects { named.append(("--rejects", rejects)) }
        if let report = messages.report, report != "-" { named.append(("--report", report)) }
        for (option, path) in named {
            if let same = inputs.first(where: { FileStatus.sameFile($0, path) }) {
                throw ValidationError(
                    "\(option) \(path) is also an input\(same == path ? "" : " (\(same))"): pick another file.")
            }
            if let same = outputs.first(where: { FileStatus.sameFile($0, path) }) {
                throw ValidationError(
                    "\(option) \(path) is also the output\(same == path ? "" : " (\(same))"): pick another file.")
            }
        }
        if named.count == 2, FileStatus.sameFile(named[0].path, named[1].path) {
            throw ValidationError("--rejects and --report name the same file: pick another for one of them.")
        }
    }

    func validateTreeMode() throws {
        guard let xpath = mapping.xpath else {
            if !mapping.namespaceBindings.isEmpty {
                throw ValidationError("--ns binds prefixes for --xpath: give --xpath too.")
            }
            if limits.maxTreeBytes != nil {
                throw ValidationError("--max-tree-bytes limits the tree of --xpath: give --xpath too.")
            }
            return
        }
        if mapping.records != nil {
            throw ValidationError("--xpath and --records both choose the records: give one of them.")
        }
        if output.parseOnly {
            throw ValidationError(
                "--parse-only streams the input without building a tree: drop --xpath, or try the expression with --dry-run."
            )
        }
        if input.format == .json || input.format == .jsonLines {
            throw ValidationError("--xpath selects elements of an XML document; it cannot read JSON.")
        }
        // The expression's syntax and prefixes can be checked before any input is read.
        do {
            try XPathSelection(xpath, namespaces: try namespaces()).check()
        } catch let error as IngestError {
            throw ValidationError("--xpath: " + Diagnostics.describe(error))
        }
    }

    func validateParsing() throws {
        if parsing.huge && parsing.parser != .libxml2 {
            throw ValidationError("--huge lifts libxml2's limits: it needs --parser libxml2.")
        }
        guard let schema = parsing.validationSchema else { return }
        guard ValidationSchema.Kind(path: schema) != nil else {
            throw ValidationError(
                "--validate takes an XML Schema (.xsd) or a RELAX NG schema in XML syntax (.rng); cannot tell what \(schema) is."
            )
        }
        if input.format == .json || input.format == .jsonLines {
            throw ValidationError("--validate checks XML against a schema; it cannot check JSON.")
        }
    }
}
