import IngestKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `--report FILE`: a JSON account of the run for cron wrappers and monitoring,
/// written (atomically) whether the run succeeded or not:
///
/// ```json
/// {"ingest": 1, "arguments": ["nightly.xml.gz", "--append"], "started": "2026-11-23T02:00:00Z",
///  "seconds": 3.1, "exitStatus": 0, "error": null,
///  "outputs": [{"output": "nightly.db", "inputs": [{"name": "nightly.xml.gz", "bytes": 1048576}],
///               "records": 500000, "tables": [{"name": "people", "records": 500000}], "rejected": 0,
///               "seconds": 3.1}]}
/// ```
///
/// An output whose job failed while the run carried on with the next input holds
/// `output`, `inputs` (names only), `exitStatus` and `error` instead of the counts.
///
/// Other commands keep the same fields up to `error` and list what they did after
/// them under a name of their own (`ingest feed`: `output`, then `sources`).
struct RunReport {
    private let arguments: [String]
    private let started: time_t = time(nil)
    private let stopwatch = Stopwatch()
    /// The name of the list of ``entries``: `outputs`, `sources`.
    private let listName: String
    /// Members between `error` and the list: what the whole run wrote to.
    private var fields: [(String, JSONValue)] = []
    private var entries: [JSONValue] = []

    /// A report of a run of a command with `arguments`, listing one entry per
    /// output (import) or per `listName`.
    init(arguments: [String], listing listName: String = "outputs") {
        self.arguments = arguments
        self.listName = listName
    }

    /// Sets a member between `error` and the list.
    mutating func set(_ name: String, _ value: JSONValue) {
        fields.removeAll { $0.0 == name }
        fields.append((name, value))
    }

    /// Adds an entry to the list.
    mutating func append(_ entry: JSONValue) {
        entries.append(entry)
    }

    mutating func add(job: ImportCommand.Job, summary: ImportSummary, rejected: Int, seconds: Double) {
        append(
            .object([
                ("output", job.output.map(JSONValue.string) ?? .null),
                (
                    "inputs",
                    .array(
                        summary.inputs.map {
                            .object([("name", .string($0.name)), ("bytes", .number(String($0.bytes)))])
                        })
                ),
                ("records", .number(String(summary.recordCount))),
                (
                    "tables",
                    .array(
                        summary.tables.map {
                            .object([("name", .string($0.name)), ("records", .number(String($0.records)))])
                        })
                ),
                ("rejected", .number(String(rejected))),
                ("seconds", .number(String(Decimal(seconds, places: 3).description)))
            ]))
    }

    /// A job that failed: its output was left as it was.
    mutating func add(failedJob job: ImportCommand.Job, failure: CommandFailure) {
        append(
            .object([
                ("output", job.output.map(JSONValue.string) ?? .null),
                ("inputs", .array(job.inputs.map { .object([("name", .string($0))]) })),
                ("exitStatus", .number(String(failure.status))),
                ("error", .string(failure.message))
            ]))
    }

    /// Writes the report to `path` (`-`: standard output), if one was asked for.
    func finish(status: Int32, error: String?, to path: String?) throws {
        guard let path else { return }
        let document = JSONValue.object(
            [
                ("ingest", .number("1")),
                ("arguments", .array(arguments.map(JSONValue.string))),
                ("started", .string(Self.timestamp(started))),
                ("seconds", .number(Decimal(stopwatch.seconds, places: 3).description)),
                ("exitStatus", .number(String(status))),
                ("error", error.map(JSONValue.string) ?? .null)
            ] + fields + [(listName, .array(entries))])
        try AtomicFile.write(Array((document.prettyText() + "\n").utf8), to: path, replace: true)
    }

    /// `2026-11-23T02:00:00Z`.
    static func timestamp(_ seconds: time_t) -> String {
        var value = seconds
        var parts = tm()
        gmtime_r(&value, &parts)
        func two(_ number: Int32) -> String { number < 10 ? "0\(number)" : "\(number)" }
        return
            "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))Z"
    }
}
