import IngestKit

/// The run's one-line summary and its exit status.
struct FeedSummary {
    let outcomes: [SourceOutcome]
    let kind: FeedCommand.Kind
    let destination: String
    let seconds: Double

    /// `3 sources: 12 new, 1 changed, 40 unchanged items; 1 not modified; 1 failed; feeds.db in 0.42 s`
    var line: String {
        var counts = FeedArchiveCounts()
        var items = 0, notModified = 0, failed = 0
        for outcome in outcomes {
            switch outcome {
            case .archived(let archived): counts = counts + archived
            case .written(let count): items += count
            case .notModified: notModified += 1
            case .failed: failed += 1
            }
        }
        var parts: [String] = []
        let sources = "\(outcomes.count) source\(outcomes.count == 1 ? "" : "s")"
        if kind.isArchive {
            parts.append("\(sources): \(counts.new) new, \(counts.changed) changed, \(counts.unchanged) unchanged item"
                         + (counts.total - counts.repeated == 1 ? "" : "s")
                         + (counts.repeated > 0 ? " (\(counts.repeated) repeated)" : ""))
        } else {
            parts.append("\(sources): \(items) item\(items == 1 ? "" : "s")")
        }
        if notModified > 0 { parts.append("\(notModified) not modified") }
        if failed > 0 { parts.append("\(failed) failed") }
        return parts.joined(separator: "; ") + "; \(destination) in \(Decimal(seconds, places: 2)) s"
    }

    /// 0 when every source was read (or not modified); else the first lasting
    /// failure's status (65 not a feed, 66 missing, 73/74 output), or 75 when every
    /// failure may pass (network, timeouts, 5xx, 429).
    static func exitStatus(_ outcomes: [SourceOutcome]) -> Int32 {
        let failures = outcomes.compactMap { outcome -> FeedFailure? in
            if case .failed(let failure) = outcome { failure } else { nil }
        }
        guard !failures.isEmpty else { return 0 }
        return failures.first { !$0.isTemporary }?.exitCode ?? IngestError.Kind.temporary.exitCode
    }
}
