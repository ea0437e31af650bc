import Foundation
import IngestCore
import IngestParsers
import IngestFeeds

/// Feeds archived into a database that re-runs cleanly: each read of a source
/// updates its `feeds` row, inserts the items not stored before, updates in place
/// those whose content changed and leaves the others alone — nothing is
/// duplicated and nothing is deleted (see ``design`` for the tables).
///
/// The archive names no database: it drives any ``/IngestCore/Output`` that renders
/// a ``/IngestCore/TableDesign`` with upserts and reads back what it stored
/// (``/IngestCore/StoredRowReader``: IngestSQLite's `SQLiteOutput` in `.append` mode,
/// IngestPostgres' `PostgresOutput` in `.append` mode), one transaction per source:
///
/// ```swift
/// let archive = try FeedArchive { design in
///     SQLiteOutput(path: "feeds.db", mode: .append, design: design)
/// }
/// let path = "Samples/podcast.rss"
/// let counts = try archive.archive(.given(path), fetch: FeedFetch(url: path)) { deliver in
///     try FeedReader().read(contentsOf: URL(fileURLWithPath: path), deliver)
/// }
/// print(counts)   // 3 new, 0 changed, 0 unchanged
/// ```
///
/// An item is the same item from one run to the next when it has the same feed and
/// the same guid (RSS `guid`, Atom `id`, JSON Feed `id`); without one, the same
/// link; without either, the same title and date. Its key is a hash of those, and
/// "changed" means a different hash of its content (``FeedArchiveCounts``).
///
/// Items stream: each is written as it is read, in flat memory, but for a set of
/// the keys and content hashes already stored for the feed (16 bytes an item, and
/// the item's first-seen time) that tells new from changed from unchanged.
///
/// Safe to share between threads: its calls are serialized, so one source is archived
/// at a time and a second caller waits for the first.
public final class FeedArchive: @unchecked Sendable {
    /// Makes the output one source is written to: a fresh one each time, given
    /// ``design``, writing in place with upserts (for SQLite, `.append`).
    public typealias OutputMaker = (TableDesign) throws -> any Output & StoredRowReader

    /// How a source is named in the archive.
    public enum SourceName: Sendable, Hashable {
        /// By a name known before reading: a file's path, a URL.
        case given(String)
        /// By the feed's own address (its `feed_link`, else its `link`), for bytes
        /// that come without a name — standard input — as `stdin:` and the address,
        /// so that what a feed claims can never name a file's or a URL's row (a file
        /// is archived under its absolute path, a URL under itself); `-` when the feed
        /// has neither.
        case fromFeed
    }

    /// What the name of a feed read ``SourceName/fromFeed`` starts with.
    public static let standardInputPrefix = "stdin:"

    private let makeOutput: OutputMaker
    private let reader: any StoredRowReader
    private let rows = ArchiveRows()
    /// Safety: every public method holds it for its whole length, so `stored` and the
    /// outputs are used by one call at a time (a call's second, reading thread runs
    /// while the calling thread waits for it inside the lock).
    private let lock = NSLock()
    /// The `feeds` table, by key.
    private var stored: [Int64: StoredFeed] = [:]
    /// When each feed may be fetched next, stored as its `next_fetch`.
    public let schedule: FeedSchedule

    /// An archive written through the outputs `makeOutput` makes, scheduling fetches
    /// by `schedule`; reads the `feeds` table it holds already.
    ///
    /// - Throws: ``/IngestCore/IngestError`` (`.output`) when the target holds a
    ///   table of the archive's names (`feeds`, `items`…) that is not an archive's,
    ///   or cannot be read; a `.temporary`
    ///   error as it is (a database server that cannot be reached now).
    public init(output makeOutput: @escaping OutputMaker, schedule: FeedSchedule = FeedSchedule()) throws {
        self.makeOutput = makeOutput
        self.schedule = schedule
        let reader = try makeOutput(Self.design)
        self.reader = reader
        let columns = Self.design.table(named: Table.feeds)!.columns.map(\.name)
        do {
            let rows: [[FieldValue]]
            do {
                rows = try reader.storedRows(in: Table.feeds, columns: columns, matching: [:])
            } catch let error as IngestError where error.kind != .temporary {
                // An archive made before the schedule's columns: if it has the others,
                // an empty write adds them (the outputs add a design's missing
                // columns), and it is read again.
                let earlier = columns.filter { !Self.scheduleColumns.contains($0) }
                _ = try reader.storedRows(in: Table.feeds, columns: earlier, matching: ["id": .null])
                try writeDesign()
                rows = try reader.storedRows(in: Table.feeds, columns: columns, matching: [:])
            }
            for values in rows {
                let feed = StoredFeed(row: Dictionary(uniqueKeysWithValues: zip(columns, values)))
                stored[feed.id] = feed
            }
            try addPodcastTablesIfMissing()
            // The other tables must be the archive's too: an unrelated `items` would
            // otherwise fail only when written to, as an I/O error. Asking for their
            // columns where the (never NULL) key is NULL reads no row of an archive.
            for table in Self.design.tables where table.name != Table.feeds {
                let columns = table.columns.map(\.name)
                try reader.forEachStoredRow(in: table.name, columns: columns, matching: [columns[0]: .null]) { _ in }
            }
        } catch let error as IngestError where error.kind != .temporary {
            throw IngestError(
                .output, "not a feed archive, or unreadable: \(error.message)",
                file: error.file ?? reader.displayName)
        }
    }

    /// Gives an archive made before the episode columns and tables (``design``'s
    /// `duration_seconds`, `chapters`…) or the show tables (`show_persons`,
    /// `show_funding`) what it lacks, filled from the `extensions` of the items and
    /// feeds it stored, in one transaction.
    private func addPodcastTablesIfMissing() throws {
        let needsEpisodes = try !reads {
            _ = try reader.storedRows(
                in: Table.items, columns: ["id"] + Self.episodeColumns,
                matching: ["id": .null])
        }
        let needsShows = try hasTable(Table.feeds) && !Self.showTables.allSatisfy(hasTable)
        guard needsEpisodes || needsShows else { return }
        // An archive's items at least: an unrelated table fails here, not in the write.
        _ = try reader.storedRows(in: Table.items, columns: ["id", "extensions"], matching: ["id": .null])
        try makeOutput(Self.design).writeAndCommit { sink in
            if needsEpisodes {
                try reader.forEachStoredRow(
                    in: Table.items, columns: ["id", "feed_id", "content_hash", "extensions"],
                    matching: [:]
                ) { row in
                    guard let id = row[0].int64, let feedID = row[1].int64, let hash = row[2].int64,
                        let extensions = row[3].text
                    else { return }
                    try rows.writeEpisodeColumns(
                        stored: extensions, id: id, feedID: feedID, contentHash: hash, to: sink)
                }
            }
            if needsShows {
                try reader.forEachStoredRow(in: Table.feeds, columns: ["id", "extensions"], matching: [:]) { row in
                    guard let id = row[0].int64, let extensions = row[1].text else { return }
                    try rows.writeShowChildren(stored: extensions, id: id, to: sink)
                }
            }
        }
    }

    /// Whether the archive has `table`. A reader gives no rows for a table that is
    /// not there, and fails for a column that is not: so a column no table has is
    /// asked for, and a failure means the table exists.
    private func hasTable(_ table: String) throws -> Bool {
        try !reads {
            try reader.forEachStoredRow(in: table, columns: ["ingest no such column"], matching: [:]) { _ in }
        }
    }

    /// Whether `body` runs without the archive's reader failing for a missing table
    /// or column; a temporary failure is thrown.
    private func reads(_ body: () throws -> Void) rethrows -> Bool {
        do {
            try body()
            return true
        } catch let error as IngestError where error.kind != .temporary {
            return false
        }
    }

    /// The sources stored so far, in no particular order.
    public var feeds: [StoredFeed] { lock.withLock { Array(stored.values) } }

    /// The stored feed archived under `source`, or whose `url` is `source` now (it
    /// moved there by a permanent redirect); `nil` for a source not archived yet.
    public func storedFeed(for source: String) -> StoredFeed? {
        lock.withLock { lookUp(source) }
    }

    /// The key of the `feeds` row `source` has, or will have once it is archived: the
    /// one ``StoredFeed/id`` shows. Workers sharing the archive agree on it.
    public func key(for source: String) -> Int64 {
        lock.withLock { lookUp(source)?.id ?? ArchiveKey.feed(source) }
    }

    /// Creates the archive's tables in the target, in a transaction of their own,
    /// when it lacks them; an archive's are left as they are. What refers to them
    /// from outside the archive (a query, another table) can then run before the
    /// first feed is written.
    public func createTables() throws {
        try lock.withLock { try writeDesign() }
    }

    /// An empty write: the output creates the design's missing tables and adds its
    /// missing columns, and leaves the rest as it is.
    private func writeDesign() throws {
        try makeOutput(Self.design).writeAndCommit { _ in }
    }

    private func lookUp(_ source: String) -> StoredFeed? {
        if let feed = stored[ArchiveKey.feed(source)], feed.source == source { return feed }
        return stored.values.first { $0.source == source || $0.url == source }
    }

    /// Archives one read of a source, in one transaction: all of it, or — when
    /// `read` or the output throws — nothing.
    ///
    /// - Parameters:
    ///   - source: the name the feed is archived under.
    ///   - fetch: where it was read from and the validators to keep.
    ///   - read: reads the feed, calling `deliver` with each item and the feed read
    ///     so far (``/IngestFeeds/FeedReader/read(_:reopen:_:)`` is such a function),
    ///     and returns the whole feed. It runs on a thread of its own, the items'
    ///     rows are made on a second and written on this one, and it has returned
    ///     before `archive` does.
    /// - Returns: how many items were new, changed, unchanged.
    @discardableResult
    public func archive(
        _ source: SourceName, fetch: FeedFetch,
        read: (_ deliver: (FeedItem, Feed) throws -> Void) throws -> Feed
    ) throws -> FeedArchiveCounts {
        try lock.withLock { try archiveLocked(source, fetch: fetch, read: read) }
    }

    private func archiveLocked(
        _ source: SourceName, fetch: FeedFetch,
        read: (_ deliver: (FeedItem, Feed) throws -> Void) throws -> Feed
    ) throws -> FeedArchiveCounts {
        let now = ArchiveRows.timestamp(fetch.date)
        var run: SourceRun?
        var counts = FeedArchiveCounts()
        let output = try makeOutput(Self.design)
        try output.writeAndCommit { sink in
            // Reading on one thread, hashing and making rows on a second, the output's
            // own work on this one.
            try RecordPipe.overlap(into: sink) { sink in
                let feed = try ItemPipe.overlap(read: read) { item, feed in
                    if run == nil { run = try begin(source, feed: feed, fetch: fetch, sink: sink) }
                    try add(item, to: &run!, counts: &counts, now: now, sink: sink)
                }
                if run == nil { run = try begin(source, feed: feed, fetch: fetch, sink: sink) }
                let next = schedule.nextFetch(after: fetch, hints: feed.updateHints, failures: 0)
                let row = try rows.writeFeed(
                    feed, id: run!.feedID, source: run!.sourceName, fetch: fetch, nextFetch: next, to: sink)
                try rows.writeShowChildren(of: feed.podcast, id: run!.feedID, to: sink)
                run!.finalRow = row
            }
        }
        if let run, let row = run.finalRow {
            // The row as stored: what the read wrote over what was there (the
            // columns a read does not write, such as the subscription's folders, stay).
            stored[run.feedID] = StoredFeed(row: (stored[run.feedID]?.row ?? [:]).merging(row) { _, new in new })
        }
        return counts
    }

    /// Records a failed read of `source` on its `feeds` row — when, the status, what
    /// went wrong, one more failure in a row and the next fetch after it (later
    /// with each failure, see ``schedule``) — in a transaction of its own, leaving
    /// its items and validators as they were. A source never archived gets a row
    /// that says only that.
    public func recordFailure(_ source: String, fetch: FeedFetch, error: String) throws {
        try recordFetches([(source, fetch, error)])
    }

    /// Records a read of `source` that found the feed unchanged (HTTP 304 Not
    /// Modified) on its `feeds` row: when, the status, no failures, and the next
    /// fetch by the response's caching headers and what the feed said when it was
    /// last read. Its items, validators and the rest stay.
    public func recordNotModified(_ source: String, fetch: FeedFetch) throws {
        try recordFetches([(source, fetch, nil)])
    }

    /// Records many fetches that read no feed, in one transaction: each a 304 (no
    /// `error`, as ``recordNotModified(_:fetch:)``) or a failure (as
    /// ``recordFailure(_:fetch:error:)``). One commit for a list of sources costs
    /// what one costs, which is what a run of mostly unchanged feeds is made of; a
    /// source listed twice is recorded twice, in order.
    public func recordFetches(_ fetches: [(source: String, fetch: FeedFetch, error: String?)]) throws {
        guard !fetches.isEmpty else { return }
        try lock.withLock {
            // By the name given, for a source listed again later in `fetches`.
            var written: [String: StoredFeed] = [:]
            try makeOutput(Self.design).writeAndCommit { sink in
                for (source, fetch, error) in fetches {
                    let previous = try written[source] ?? storedNow(source)
                    let id = previous?.id ?? ArchiveKey.feed(source)
                    let failures = error == nil ? 0 : (previous?.failures ?? 0) + 1
                    let next = schedule.nextFetch(
                        after: fetch, hints: previous?.updateHints ?? FeedUpdateHints(), failures: failures)
                    let row = try rows.writeFetch(
                        stored: previous, id: id, source: source, fetch: fetch, error: error,
                        failures: failures, nextFetch: next, to: sink)
                    written[source] = StoredFeed(row: (previous?.row ?? [:]).merging(row) { _, new in new })
                }
            }
            for feed in written.values { stored[feed.id] = feed }
        }
    }

    /// Records the folders of a subscription list on each source's row, in one
    /// transaction: `categories` as `News/Tech` paths (an OPML outline's). A source
    /// not archived yet gets a row that says only that, due at once; rows whose
    /// categories are the same already are left alone.
    public func recordSubscriptions(_ subscriptions: [(source: String, categories: [String])]) throws {
        try lock.withLock {
            var written: [[String: FieldValue]] = []
            try makeOutput(Self.design).writeAndCommit { sink in
                for (source, categories) in subscriptions {
                    let previous = try storedNow(source)
                    guard previous?.subscriptionCategories != categories else { continue }
                    let row = try rows.writeSubscription(
                        stored: previous, id: previous?.id ?? ArchiveKey.feed(source),
                        source: source, categories: categories, to: sink)
                    written.append((previous?.row ?? [:]).merging(row) { _, new in new })
                }
            }
            for row in written {
                let feed = StoredFeed(row: row)
                stored[feed.id] = feed
            }
        }
    }

    /// What the target holds for `source` now: the feed archived under it, or whose
    /// `url` is `source` now. Read inside an output's write, after it took the target's
    /// lock, so that a run which overlapped this one is seen — not the `feeds` table as
    /// this archive read it when it was made, which writing back would undo that run's
    /// validators and moved URL.
    private func storedNow(_ source: String) throws -> StoredFeed? {
        let columns = Self.design.table(named: Table.feeds)!.columns.map(\.name).filter(StoredFeed.columns.contains)
        func feeds(_ matching: [String: FieldValue]) throws -> [StoredFeed] {
            try reader.storedRows(in: Table.feeds, columns: columns, matching: matching).map {
                StoredFeed(row: Dictionary(uniqueKeysWithValues: zip(columns, $0)))
            }
        }
        let found =
            try feeds(["id": .integer(ArchiveKey.feed(source))]).first { $0.source == source }
            ?? feeds(["source": .text(source)]).first
            ?? feeds(["url": .text(source)]).first
        if let found { stored[found.id] = found }
        return found
    }

    // MARK: - One source

    /// What one read of a source needs as it goes.
    private struct SourceRun {
        var feedID: Int64
        var sourceName: String
        /// Content hash and first-seen time of each item stored before, by key.
        var known: [Int64: (hash: Int64, firstSeen: String?)]
        /// The keys met in this read.
        var seen: Set<Int64> = []
        var finalRow: [String: FieldValue]?
    }

    /// Names the feed, reads what is stored for it, and writes its row as read so
    /// far (items refer to it).
    private func begin(_ source: SourceName, feed: Feed, fetch: FeedFetch, sink: any RecordSink) throws -> SourceRun {
        let name: String =
            switch source {
            case .given(let name): name
            case .fromFeed: (feed.feedLink ?? feed.link).map { Self.standardInputPrefix + $0 } ?? "-"
            }
        let previous = try storedNow(name)
        let feedID = previous?.id ?? ArchiveKey.feed(name)
        var known: [Int64: (hash: Int64, firstSeen: String?)] = [:]
        if previous != nil {
            // Items first seen in one run share its time: one copy of each.
            var times: Set<String> = []
            try reader.forEachStoredRow(
                in: Table.items, columns: ["id", "content_hash", "first_seen"],
                matching: ["feed_id": .integer(feedID)]
            ) { row in
                guard let id = row[0].int64 else { return }
                let firstSeen = row[2].text.map { times.insert($0).memberAfterInsert }
                known[id] = (row[1].int64 ?? 0, firstSeen)
            }
        }
        let run = SourceRun(feedID: feedID, sourceName: previous?.source ?? name, known: known)
        try rows.writeFeed(
            feed, id: feedID, source: run.sourceName, fetch: fetch,
            nextFetch: schedule.nextFetch(after: fetch, hints: feed.updateHints, failures: 0), to: sink)
        return run
    }

    /// Writes `item` unless it is stored already with the same content.
    private func add(
        _ item: FeedItem, to run: inout SourceRun, counts: inout FeedArchiveCounts, now: String,
        sink: any RecordSink
    ) throws {
        let id = ArchiveKey.item(item, feedID: run.feedID)
        guard run.seen.insert(id).inserted else {
            counts.repeated += 1
            return
        }
        let extensions = ArchiveRows.extensions(of: item)
        let hash = ArchiveRows.contentHash(of: item, extensions: extensions)
        let firstSeen: String
        if let stored = run.known[id] {
            if stored.hash == hash {
                counts.unchanged += 1
                return
            }
            counts.changed += 1
            firstSeen = stored.firstSeen ?? now
        } else {
            counts.new += 1
            firstSeen = now
        }
        try rows.writeItem(
            item, extensions: extensions, id: id, feedID: run.feedID, contentHash: hash,
            firstSeen: firstSeen, now: now, to: sink)
    }
}
