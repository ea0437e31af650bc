import GRDB
#if canImport(Glibc)
import Glibc
#endif

/// A SQLite database file as an output, written so that nothing is lost:
///
/// - ``Mode/create`` and ``Mode/replace`` build a new database in an ``AtomicFile``
///   and rename it over the target only when every input has been read;
/// - ``Mode/append`` inserts into the existing database in one transaction, which
///   SQLite's journal makes all-or-nothing. Tables already in the file keep their
///   columns unless `altersExistingTables` is given (see ``SQLiteSink``).
///
/// `-` as the path writes the finished database to standard output.
public final class SQLiteOutput {
    public enum Mode: Sendable {
        /// Refuse an existing file.
        case create
        /// Rebuild an existing file atomically.
        case replace
        /// Insert into an existing file (or create it), creating tables; existing
        /// tables gain columns only with `altersExistingTables`.
        case append
    }

    public let path: String
    public let mode: Mode
    /// Whether fields new to a table already in the file add columns to it.
    public let altersExistingTables: Bool
    private let file: AtomicFile?
    private var queue: DatabaseQueue?

    /// - Parameter altersExistingTables: with ``Mode/append``, let a field that a table
    ///   already in the file has no column for add one (`--alter`); without it such a
    ///   record fails the write and the file is left as it was. Tables this run creates
    ///   gain columns either way, so it changes nothing for the other modes.
    public init(path: String, mode: Mode, altersExistingTables: Bool = false) throws {
        self.path = path
        self.mode = mode
        self.altersExistingTables = altersExistingTables
        let exists = path != "-" && FileStatus.exists(path)
        if exists, mode == .create {
            throw IngestError(.output, "already exists; use --replace to rebuild it or --append to add to it", file: path)
        }
        let appending = mode == .append && exists
        file = appending ? nil : try AtomicFile(target: path == "-" ? FileStatus.temporaryDirectory + "/ingest-\(getpid())-stdout.db" : path)
        var configuration = Configuration()
        configuration.label = "ingest"
        do {
            queue = try DatabaseQueue(path: file?.temporaryPath ?? path, configuration: configuration)
        } catch {
            throw IngestError(.output, "cannot open as a SQLite database: \(error)", file: path)
        }
    }

    /// Runs `body` with a sink writing into this database, then completes the output;
    /// if `body` throws, the target is left exactly as it was.
    ///
    /// With a `design`, its tables are created (where missing) before `body` runs.
    public func write(design: SQLiteDesign? = nil, _ body: (SQLiteSink) throws -> Void) throws {
        guard let queue else { return }
        do {
            try queue.inDatabase { db in
                if file != nil {
                    // A private file being built: no journal is needed, the rename is the commit.
                    try db.execute(sql: "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA locking_mode = EXCLUSIVE")
                }
                let sink = SQLiteSink(database: db, batchSize: file == nil ? nil : 50_000,
                                      altersExistingTables: altersExistingTables,
                                      afterBatch: file.map { file in { file.startWriteback() } }, design: design)
                do {
                    try sink.prepare()
                    try body(sink)
                    try sink.finish()
                } catch {
                    sink.abandon()
                    throw error
                }
            }
            try queue.close()
            self.queue = nil
            try file?.commit()
            if path == "-", let file { 
                defer { FileStatus.remove(file.target) }
                try FileStatus.copyToStandardOutput(file.target)
             }
        } catch let error as IngestError {
            file?.discard()
            throw error
        } catch let error as DatabaseError {
            file?.discard()
            throw IngestError(.io, "SQLite: \(error.message ?? "\(error)")", file: path)
        }
    }
}
