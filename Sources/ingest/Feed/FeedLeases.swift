import Foundation
import IngestKit
import IngestPostgres

/// Shares the due feeds of one PostgreSQL archive between `ingest feed --due` runs,
/// on any number of hosts at once: before it fetches a URL, a run claims the feed,
/// and only the run whose claim succeeds fetches it.
///
/// A claim is a row of `feed_leases` (`feed_id`, `until`, `worker`), written by one
/// statement that succeeds only when the feed is due (no `next_fetch` in the future)
/// and no other lease on it runs. The lease is never released: it runs out by itself,
/// by when the feed's fetch is recorded and its next fetch lies ahead. So a run killed
/// mid-fetch holds its feeds only until their leases end; then they are due again,
/// and no run ever waits for another.
final class FeedLeases: Sendable {
    /// The table of leases, beside the archive's.
    static let table = "feed_leases"

    private let session: PostgresSession
    /// How long a claim holds a feed.
    let seconds: Int
    /// Who claims, in `feed_leases.worker`: `host:pid`.
    let worker: String

    /// Connects to the archive's database and creates the lease table if it lacks one.
    /// The archive's own tables must exist (``FeedArchive/createTables()``).
    init(settings: PostgresConnectionSettings, seconds: Int) throws {
        self.seconds = seconds
        worker = "\(ProcessInfo.processInfo.hostName):\(getpid())"
        session = PostgresSession(target: settings.description, pipelineDepth: 0)
        var warnings: [String] = []
        try session.connect(settings, warnings: &warnings)
        // Runs starting together would race CREATE TABLE IF NOT EXISTS to the catalog:
        // they take turns, by a lock of the table's name.
        try session.execute("BEGIN", doing: "cannot create the lease table")
        _ = try session.texts(
            "SELECT pg_advisory_xact_lock(hashtext('ingest \(Self.table)'))::text",
            doing: "cannot create the lease table")
        try session.execute(
            """
            CREATE TABLE IF NOT EXISTS \(Self.table) \
            (feed_id bigint PRIMARY KEY, until timestamptz NOT NULL, worker text NOT NULL)
            """, doing: "cannot create the lease table")
        try session.execute("COMMIT", doing: "cannot create the lease table")
    }

    deinit {
        session.close()
    }

    /// Claims the feed whose `feeds` key is `feedID` for ``seconds``: whether this run
    /// has it. `false` when it is not due (another run fetched it since this one read
    /// the archive) or another run's lease on it runs.
    func claim(_ feedID: Int64) throws -> Bool {
        let worker = worker.replacingOccurrences(of: "'", with: "''")
        return try !session.texts(
            """
            INSERT INTO \(Self.table) AS lease (feed_id, until, worker)
            SELECT \(feedID), now() + interval '\(seconds) seconds', '\(worker)'
            WHERE NOT EXISTS (SELECT FROM \(FeedArchive.Table.feeds) WHERE id = \(feedID) AND next_fetch > now())
            ON CONFLICT (feed_id) DO UPDATE SET until = EXCLUDED.until, worker = EXCLUDED.worker
            WHERE lease.until <= now()
            RETURNING feed_id::text
            """, doing: "cannot claim a feed"
        ).isEmpty
    }

    /// ``claim(_:)`` off the calling task's thread: the session blocks the thread it
    /// is called on.
    func claimed(_ feedID: Int64) async throws -> Bool {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try self.claim(feedID) })
            }
        }
    }
}
