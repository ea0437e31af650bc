import IngestCore
import IngestPOSIX
internal import GRDB
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A SQLite database file as an ``/IngestCore/Output``, written so that nothing is lost:
///
/// - ``Mode/create`` and ``Mode/replace`` build a new database in a temporary file
///   beside the target and rename it over the target on ``commit()``, only when
///   every input has been read. While it is built the file is private, so it is
///   written without a journal and without syncs (`journal_mode=OFF`,
///   `synchronous=OFF`, `locking_mode=EXCLUSIVE`); durability comes at the end, when
///   the finished file is flushed to disk before the rename that publishes it.
/// - ``Mode/append`` inserts into the existing database (creating it if missing) in
///   one transaction, which SQLite's journal makes all-or-nothing and durable.
///   Tables already in the file keep their columns unless `altersExistingTables`.
///
/// Runs on the same file never interleave: ``open()`` takes the output's lock
/// (`.NAME.ingest.lock` beside it, see `OutputLock`) and holds it until ``commit()``
/// or ``discard()``; a second run waits for it up to ``lockTimeout`` seconds, then
/// fails with `.temporary` (exit 75). Holding it, ``open()`` decides whether the file
/// exists, so two appends to a database that does not exist yet cannot both create
/// it: the second appends to what the first created. A new file is put in place
/// with `link(2)`, which never overwrites one another program created meanwhile.
/// A connection from elsewhere that holds the database's write lock is waited for
/// as long (SQLite's busy timeout), then the run fails with `.temporary` too.
/// ``open()`` also removes the temporary files of killed runs beside the target
/// (``removedTemporaryFiles``).
///
/// `-` as the path, or a path that is not a regular file (`/dev/null`, a FIFO),
/// builds the database in the temporary directory and copies it there on commit; a
/// symbolic link to a database leads to the file it names, which is replaced or
/// appended to in place of the link.
///
/// ```swift
/// let output = SQLiteOutput(path: "folks.db", mode: .replace)
/// try Importer().run([InputFile(path: "folks.xml")], into: output)
/// ```
public final class SQLiteOutput: Output {
    /// What happens to a database already at ``path``.
    public enum Mode: Sendable {
        /// Refuse an existing file.
        case create
        /// Rebuild an existing file atomically.
        case replace
        /// Insert into an existing file (or create it), creating tables; existing
        /// tables gain columns only with `altersExistingTables`.
        case append
    }

    /// The database file's path; `-` for standard output.
    public let path: String
    /// Whether an existing file is refused, replaced or appended to.
    public let mode: Mode
    /// Whether fields new to a table already in the file add columns to it.
    public let altersExistingTables: Bool
    /// Tables declared up front (a mapping schema's), or `nil` to grow them from the records.
    public let design: TableDesign?
    /// Without a design, the primary key of the tables grown from the records
    /// (`--pk`), and whether a record whose key is stored updates its row.
    public let keys: TableKeys?
    /// The columns added to tables that existed before the import (only with
    /// ``altersExistingTables``), by table; known after ``write(_:)``.
    public private(set) var columnsAddedToExistingTables: [(table: String, columns: [String])] = []
    /// How long ``open()`` waits for another run's lock on the file, and a write for
    /// another connection's transaction, in seconds. Default: 60.
    public var lockTimeout: Double = 60
    /// The most memory SQLite's page cache may take while writing, in bytes; `nil`
    /// for SQLite's own default (2 MB). For a ``design`` with hashed keys
    /// (``/IngestCore/TableDesign/Table/randomKey``, a feed archive's), 16 MiB: their
    /// rows, and the rows of their child tables, land at random places in the keys'
    /// unique indexes, and with a cache smaller than those indexes every insert
    /// writes out and reads back index pages it has just written. Rows added in
    /// key order gain nothing from a larger cache, which would only hold more
    /// memory. Either way memory is bounded: the cache does not grow past it
    /// however large the input.
    public var pageCacheBytes: Int?
    /// The temporary files of killed runs that ``open()`` removed from beside the target.
    public private(set) var removedTemporaryFiles: [String] = []
    private var file: AtomicFile?
    private var queue: DatabaseQueue?
    /// The connection that reads back stored rows (``forEachStoredRow(in:columns:matching:_:)``).
    let storedRowReads = StoredRowReads()
    private var lock: OutputLock?
    /// Where ``path`` leads: a regular file (through a symbolic link, the file it
    /// names), or a stream the finished database is copied to.
    private(set) lazy var target = OutputTarget(path)
    /// Called once when ``open()`` starts waiting for another run's lock, with the
    /// holder's process id when known.
    public var whileWaitingForLock: ((_ holder: Int32?) -> Void)?
    /// How long ``open()`` waited for another run's lock, in seconds.
    public private(set) var secondsWaitedForLock: Double = 0

    /// - Parameters:
    ///   - path: the database file, or `-` for standard output.
    ///   - mode: what to do with a file already at `path`.
    ///   - altersExistingTables: with ``Mode/append``, let a field that a table
    ///     already in the file has no column for add one; without it such a record
    ///     fails the write (`.data`) and the file is left as it was. Tables this
    ///     import creates gain columns either way.
    ///   - design: tables to create (where missing) before the first record.
    ///   - keys: without a design, the primary key every table the import creates
    ///     gets, which every record must fill (a table already in the file must have
    ///     it); with ``/IngestCore/TableKeys/upsert``, a record whose key is stored updates its row.
    public init(
        path: String, mode: Mode, altersExistingTables: Bool = false, design: TableDesign? = nil,
        keys: TableKeys? = nil
    ) {
        self.keys = keys
        self.path = path
        self.mode = mode
        self.altersExistingTables = altersExistingTables
        self.design = design
        if design?.tables.contains(where: \.randomKey) == true { pageCacheBytes = 16 << 20 }
    }

    /// The path, or `<stdout>` for `-`.
    public var displayName: String { path == "-" ? "<stdout>" : path }

    /// Takes the output lock (waiting up to ``lockTimeout``), removes killed runs'
    /// temporary files, then opens the database: a new temporary file beside the
    /// target, or with ``Mode/append`` the existing file itself. Throws `.output`
    /// when ``Mode/create`` finds the file or it is no SQLite database, and
    /// `.temporary` when the lock or the database stays busy; on failure it releases
    /// what it took.
    public func open() throws {
        if let filePath = target.filePath {
            lock = try OutputLock(on: filePath, timeout: lockTimeout, whileWaiting: whileWaitingForLock)
            secondsWaitedForLock = lock?.waitedSeconds ?? 0
            removedTemporaryFiles = AtomicFile.removeStale(beside: filePath)
        }
        do {
            try openHoldingLock()
        } catch {
            discard()
            throw error
        }
    }

    private func openHoldingLock() throws {
        let filePath = target.filePath
        let exists = filePath.map(FileStatus.exists) ?? false
        if exists, mode == .create {
            throw IngestError(.output, "already exists", file: path, reason: .outputExists(appendable: true))
        }
        let inPlace = mode == .append && exists
        if !inPlace {
            file = try AtomicFile(target: filePath ?? FileStatus.temporaryDirectory + "/ingest-\(getpid())-stream.db")
        }
        var configuration = Configuration()
        configuration.label = "ingest"
        configuration.busyMode = .timeout(lockTimeout)
        do {
            queue = try DatabaseQueue(path: file?.temporaryPath ?? filePath ?? path, configuration: configuration)
        } catch let error as DatabaseError where Self.isBusy(error) {
            throw busy(error)
        } catch {
            throw IngestError(.output, "cannot open as a SQLite database: \(error)", file: path)
        }
    }

    /// Runs `body` with a sink that creates and widens tables and inserts the records
    /// (a new file without journal or syncs, an existing one in one transaction),
    /// then completes the tables. Throws `.io` for a SQLite error, `.temporary` when
    /// another connection holds the database too long, and rethrows `body`'s errors
    /// after rolling back. Call ``open()`` first.
    public func write(_ body: (any RecordSink) throws -> Void) throws {
        guard let queue else { preconditionFailure("SQLiteOutput.write(_:) before open()") }
        do {
            try queue.inDatabase { db in
                if file != nil {
                    // A private file being built: no journal is needed, the rename is the commit.
                    try db.execute(
                        sql: "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA locking_mode = EXCLUSIVE")
                }
                if let pageCacheBytes {
                    try db.execute(sql: "PRAGMA cache_size = -\(max(pageCacheBytes / 1024, 1))")
                }
                let sink = SQLiteSink(
                    database: db, batchSize: file == nil ? nil : 50_000,
                    altersExistingTables: altersExistingTables,
                    afterBatch: file.map { file in { file.startWriteback() } },
                    design: design.map(SQLiteDesign.init), keys: keys)
                do {
                    try sink.prepare()
                    try body(sink)
                    try sink.finish()
                } catch {
                    sink.abandon()
                    throw error
                }
                columnsAddedToExistingTables = sink.columnsAddedToExistingTables
            }
        } catch let error as DatabaseError where Self.isBusy(error) {
            throw busy(error)
        } catch let error as DatabaseError {
            throw IngestError(.io, "SQLite: \(error.message ?? "\(error)")", file: path)
        }
    }

    /// Closes the database and, for a new file, flushes it to disk and puts it in
    /// place (`link(2)` unless replacing, so a file that appeared meanwhile is not
    /// overwritten) and releases the lock; for `-` or a path that is not a regular
    /// file (`/dev/null`, a FIFO), copies it there.
    /// Throws `.io` when closing fails and `.output` when the file cannot be put in
    /// place.
    public func commit() throws {
        do {
            try queue?.close()
        } catch let error as DatabaseError {
            throw IngestError(.io, "SQLite: \(error.message ?? "\(error)")", file: path)
        }
        queue = nil
        // A file created by this run must not overwrite one that appeared meanwhile.
        try file?.commit(replacing: mode == .replace || target.isStream)
        lock?.release()
        lock = nil
        if target.isStream, let file {
            defer { FileStatus.remove(file.target) }
            try target.copy(from: file.target, path: path)
        }
    }

    /// Closes the database, deletes the temporary file (an appended file keeps only
    /// what its committed transactions wrote: none, after a failed ``write(_:)``) and
    /// releases the lock.
    public func discard() {
        try? queue?.close()
        queue = nil
        file?.discard()
        if file == nil, let filePath = target.filePath { Self.rollBackHotJournal(of: filePath) }
        lock?.release()
        lock = nil
    }

    /// Plays back the rollback journal an append that failed left beside `path`, so
    /// that the file on disk is the one before the run — not one grown by pages of
    /// the failed transaction that only the journal says to ignore, which a copy of
    /// the file alone would keep. SQLite leaves the journal when the transaction
    /// ends in an I/O error (a full disk: it cannot finish its own rollback then);
    /// any connection that reads the file plays it back, so one is opened here to
    /// read. If that fails too, the journal stays, and the next open plays it back.
    private static func rollBackHotJournal(of path: String) {
        guard FileStatus.exists(path + "-journal") else { return }
        var configuration = Configuration()
        configuration.label = "ingest recovery"
        configuration.busyMode = .timeout(5)
        guard let recovery = try? DatabaseQueue(path: path, configuration: configuration) else { return }
        _ = try? recovery.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM sqlite_master") }
        try? recovery.close()
    }

    /// Whether SQLite gave up waiting for another connection's lock.
    private static func isBusy(_ error: DatabaseError) -> Bool {
        error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED
    }

    private func busy(_ error: DatabaseError) -> IngestError {
        IngestError(
            .temporary,
            "another connection is writing the database; waited \(OutputLock.seconds(lockTimeout)) s (SQLite: \(error.message ?? "database is locked"))",
            file: path, reason: .outputBusy(waitedSeconds: lockTimeout))
    }
}
