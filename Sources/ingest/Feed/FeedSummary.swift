import IngestKit

/// The run's one-line summary, what it says of ill-formed feeds, and its exit status.
struct FeedSummary {
    let outcomes: [SourceOutcome]
    let kind: FeedCommand.Kind
    let destination: String
    let seconds: Double
    /// Sources `--due` left for a later run.
    var notDue = 0

    /// `3 sources: 12 new, 1 changed, 40 unchanged items; 1 not modified; 2 not due; 1 failed; feeds.db in 0.42 s`
    var line: String {
        var counts = FeedArchiveCounts()
        var items = 0, notModified = 0, leasedElsewhere = 0, failed = 0
        for outcome in outcomes {
            switch outcome {
            case .archived(let archived, _): counts = counts + archived
            case .written(let count, _): items += count
            case .notModified: notModified += 1
            case .leasedElsewhere: leasedElsewhere += 1
            case .failed: failed += 1
            }
        }
        var parts: [String] = []
        let given = outcomes.count + notDue
        let sources = "\(given) source\(given == 1 ? "" : "s")"
        if kind.isArchive {
            parts.append(
                "\(sources): \(counts.new) new, \(counts.changed) changed, \(counts.unchanged) unchanged item"
                    + (counts.total - counts.repeated == 1 ? "" : "s")
                    + (counts.repeated > 0 ? " (\(counts.repeated) repeated)" : ""))
        } else {
            parts.append("\(sources): \(items) item\(items == 1 ? "" : "s")")
        }
        if notModified > 0 { parts.append("\(notModified) not modified") }
        if notDue > 0 { parts.append("\(notDue) not due") }
        if leasedElsewhere > 0 { parts.append("\(leasedElsewhere) fetched by other runs") }
        if failed > 0 { parts.append("\(failed) failed") }
        return parts.joined(separator: "; ") + "; \(destination) in \(Decimal(seconds, places: 2)) s"
    }

    /// `2 of 5 feeds were not well-formed XML and were read in recovering mode`;
    /// `nil` when every feed read was well-formed.
    var recoveredLine: String? {
        let read = outcomes.filter {
            if case .archived = $0 { true } else if case .written = $0 { true } else { false }
        }
        let recovered = read.filter { $0.recovered != nil }.count
        guard recovered > 0 else { return nil }
        let were = recovered == 1 ? "was" : "were"
        return "\(recovered) of \(read.count) feed\(read.count == 1 ? "" : "s") \(were) not well-formed XML "
            + "and \(were) read in recovering mode"
    }

    /// The failure that decides the exit status — the first lasting one (65 not a
    /// feed, 66 missing, 73/74 output), else the first that may pass (75: network,
    /// timeouts, 5xx, 429) — and its source's place; `nil` (exit 0) when every source
    /// was read or not modified.
    static func decidingFailure(_ outcomes: [SourceOutcome]) -> (index: Int, failure: FeedFailure)? {
        let failures = outcomes.enumerated().compactMap { index, outcome -> (index: Int, failure: FeedFailure)? in
            if case .failed(let failure) = outcome { (index, failure) } else { nil }
        }
        return failures.first { !$0.failure.isTemporary } ?? failures.first
    }
}
