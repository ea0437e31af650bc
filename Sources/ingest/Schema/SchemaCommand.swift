import ArgumentParser
import Foundation
import IngestKit

/// `ingest schema`: mapping schemas. For now one subcommand, `infer`.
struct SchemaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Work with mapping schemas (see Schemas/README.md).",
        subcommands: [SchemaInferCommand.self]
    )

    /// `ingest schema` alone names no subcommand: a usage error (64), not help and 0,
    /// so a script that left the subcommand out notices.
    func run() throws {
        throw ValidationError("Name a subcommand: ingest schema infer <input> (see ingest help schema).")
    }
}

/// `ingest schema infer INPUT...`: prints the schema the automatic mapping amounts to.
struct SchemaInferCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "infer",
        abstract: "Print a mapping schema inferred from a sample of the input, ready to edit.",
        usage: "ingest schema infer <input> ... [--records <path>] [--out <path>]",
        discussion: """
            Runs the automatic mapping (what ingest does without a schema) over the first
            --sample records of each input and prints, as JSON, the schema that gives the
            same tables, the same columns in the same order and the same values: one
            entity per table, with the path of its records, and per field its source
            (a child element or JSON member, @attribute, or . for the record's own text)
            and its type over the sample (integer < real < text; bool when every value
            was a JSON boolean; json for nested or repeated data). No field is marked
            required: a sample cannot prove it. Several inputs make one schema.

            What the schema cannot say exactly (a JSON key such as "a/b", a field that is
            an attribute in some records and a child element in others) is reported on
            standard error; the schema is printed all the same.

            EXAMPLES
              ingest schema infer folks.xml                 entity people, people/person
              ingest schema infer folks.xml --out folks.schema.json
              ingest schema infer feed.rss --records rss/channel/item
              ingest schema infer events.ndjson --sample 0  every record, not 1000
              ingest schema infer export.json --records data/results/item
              zcat log.jsonl.gz | ingest schema infer - --nl --sample 5000

            EXIT STATUS (sysexits)
              0 success, 64 usage, 65 malformed input (within the sample) or --records
              matching nothing, 66 input missing or unreadable, 73 --out cannot be
              created or exists (without --replace), 74 I/O error
            """
    )

    @Argument(
        help: ArgumentHelp("XML or JSON files to sample; - reads standard input.", valueName: "input"),
        completion: .file())
    var inputs: [String]

    @Option(
        help: ArgumentHelp(
            "Path of the record elements, from the document element down, e.g. rss/channel/item; for JSON below the top-level value, e.g. people/item.",
            valueName: "path"))
    var records: String?

    @Option(
        help: ArgumentHelp(
            "Input format: xml, json or ndjson. Default: from the file name, else from the first byte.",
            valueName: "format"))
    var from: InputFormat?

    @Flag(help: "Read JSON Lines: one JSON value per line. Same as --from ndjson.")
    var nl = false

    @Option(help: ArgumentHelp("Records to read from each input; 0 reads them all.", valueName: "n"))
    var sample = SchemaInference.defaultSampleSize

    @Option(
        name: [.customShort("o"), .long],
        help: ArgumentHelp("Write the schema to this file (atomically) instead of standard output.", valueName: "path"),
        completion: .file())
    var out: String?

    @Flag(help: "Replace an existing --out file.")
    var replace = false

    func validate() throws {
        if sample < 0 { throw ValidationError("--sample must be 0 (every record) or more.") }
        if let records {
            do { _ = try RecordPath(records) } catch let error as IngestError {
                throw ValidationError("--records: " + error.message)
            }
        }
        if nl, let from, from != .jsonLines {
            throw ValidationError("--nl reads JSON Lines; it contradicts --from \(from.rawValue).")
        }
        if inputs.filter({ $0 == "-" }).count > 1 { throw ValidationError("Standard input (-) can be read only once.") }
        if replace && (out == nil || out == "-") {
            throw ValidationError("--replace replaces the file named by --out: give --out PATH.")
        }
    }

    func run() throws {
        do {
            let inference = SchemaInference(
                options: .init(recordPath: try records.map(RecordPath.init), format: nl ? .jsonLines : from),
                sampleSize: sample)
            for path in inputs {
                try inference.add(InputFile(path: path).decompressed())
            }
            for warning in inference.warnings { StandardError.write("ingest: warning: \(warning)\n") }
            if inference.recordCount == 0 {
                StandardError.write("ingest: warning: no records found; the schema has no entities\n")
            }
            var schema = inference.schema
            let sampled = sample == 0 ? "all \(inference.recordCount)" : "\(inference.recordCount)"
            schema.description =
                "Inferred by ingest schema infer from \(inference.inputNames.joined(separator: ", ")) (\(sampled) record\(inference.recordCount == 1 ? "" : "s") sampled)."
            if let out, out != "-" {
                try schema.write(toFile: out, replace: replace)
            } else {
                FileHandle.standardOutput.write(Data(schema.jsonText.utf8))
            }
        } catch {
            let failure = CommandFailure(error)
            StandardError.write("ingest: \(failure.message)\n")
            throw ExitCode(failure.status)
        }
    }
}
