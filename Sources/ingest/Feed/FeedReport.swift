import IngestKit

/// `ingest feed --report FILE`: the run report's fields (``RunReport``), then the
/// output and one entry per source, in the order given (a directory's files in
/// their order):
///
/// ```json
/// "output": "feeds.db",
/// "sources": [
///   {"source": "news.rss", "status": "archived", "exitStatus": 0, "new": 3, "changed": 0,
///    "unchanged": 0, "repeated": 0, "wellFormed": true, "error": null},
///   {"source": "gone.rss", "status": "failed", "exitStatus": 66,
///    "error": "cannot open: No such file or directory"}]
/// ```
///
/// `status` is `archived`, `written` (JSON, NDJSON: `items` for the counts), `not
/// modified` or `failed`; a feed that was not well-formed XML has `"wellFormed":
/// false` and its `firstError`.
extension RunReport {
    mutating func add(_ source: FeedSource, _ outcome: SourceOutcome) {
        var members: [(String, JSONValue)] = [("source", .string(source.displayName))]
        func number(_ value: some BinaryInteger) -> JSONValue { .number(String(value)) }
        switch outcome {
        case .archived(let counts, _):
            members += [
                ("status", .string("archived")), ("exitStatus", number(0)),
                ("new", number(counts.new)), ("changed", number(counts.changed)),
                ("unchanged", number(counts.unchanged)), ("repeated", number(counts.repeated))
            ]
        case .written(let items, _):
            members += [("status", .string("written")), ("exitStatus", number(0)), ("items", number(items))]
        case .notModified:
            members += [("status", .string("not modified")), ("exitStatus", number(0))]
        case .leasedElsewhere:
            members += [("status", .string("leased elsewhere")), ("exitStatus", number(0))]
        case .failed(let failure):
            members += [("status", .string("failed")), ("exitStatus", number(failure.exitCode))]
        }
        switch outcome {
        case .archived, .written:
            members.append(("wellFormed", .bool(outcome.recovered == nil)))
            if let error = outcome.recovered { members.append(("firstError", .string(error.description))) }
            members.append(("error", .null))
        case .notModified, .leasedElsewhere:
            members.append(("error", .null))
        case .failed(let failure):
            members.append(("error", .string(failure.detail)))
        }
        append(.object(members))
    }
}
