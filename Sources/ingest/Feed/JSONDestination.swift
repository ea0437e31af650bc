import Foundation
import IngestKit

/// `--to json`: each feed as gofeed's JSON, items included — one feed as an object
/// when one source was given, else an array of the feeds read, in the order of the
/// sources. Feeds are held until the end and written at once, atomically.
final class JSONDestination: FeedDestination {
    let path: String
    let replace: Bool
    let limits: ParseLimits
    /// Whether one source was given: the output is then that feed, not an array.
    let single: Bool
    private var feeds: [(index: Int, feed: Feed)] = []

    init(path: String, replace: Bool, single: Bool, limits: ParseLimits) throws {
        self.path = path
        self.replace = replace
        self.single = single
        self.limits = limits
        if path != "-", !replace, FileStatus.exists(path) {
            throw IngestError(.output, "already exists", file: path, reason: .outputExists(appendable: false))
        }
    }

    var displayName: String { path == "-" ? "standard output" : path }

    func write(_ job: FeedJob) -> SourceOutcome {
        switch job.open() {
        case .notModified: return .notModified
        case .failed(let failure): return .failed(failure)
        case .feed: break
        }
        do {
            var items: [FeedItem] = []
            var feed = try job.read(limits: limits) { item, _ in items.append(item) }
            feed.items = items
            feeds.append((job.index, feed))
            return .written(items: items.count)
        } catch {
            job.abandon()
            return .failed(FeedFailure.fetching(error, timeout: .seconds(0)))
        }
    }

    func finish() throws {
        guard !feeds.isEmpty else { return }
        let ordered = feeds.sorted { $0.index < $1.index }.map(\.feed.gofeedJSONValue)
        let value = single ? ordered[0] : JSONValue.array(ordered)
        try AtomicFile.write(Array((value.prettyText() + "\n").utf8), to: path, replace: replace)
    }

    func discard() {}
}
