import IngestCore

/// A PostgreSQL database as an ``/IngestCore/Output``, with the SQLite output's
/// mappings and guarantees:
///
/// - ``Mode/create`` and ``Mode/replace`` build every table under a temporary name, in
///   one transaction, and give the tables their names only at the commit (`DROP
///   TABLE` the old, `ALTER TABLE … RENAME` the new): a reader in another session sees
///   the old rows or the new, never a half, and a failure or a killed import leaves
///   the old tables and no new ones. `create` refuses tables that exist.
/// - ``Mode/append`` inserts in one transaction: all rows or none. Tables that exist
///   keep their columns unless `altersExistingTables` is given; missing ones are created.
/// - With a ``/IngestCore/TableDesign`` (a mapping schema's tables), its tables are
///   created as declared; with ``/IngestCore/TableDesign/upsert``, each batch is copied
///   into a staging table and merged: a row whose primary key is stored updates that
///   row, a child row without a key of its own is added unless the same row is there,
///   and nothing is deleted — the rows the SQLite output gives.
///
/// Tables and columns grown from the records are named in lower case
/// (``IdentifierCase/lower``, the default), as PostgreSQL folds names written without
/// quotes: records `Person` with a field `firstName` become the table `person` with
/// the column `firstname`, and `select firstname from person` finds them.
/// ``IdentifierCase/exact`` keeps the records' spelling instead, as quoted
/// mixed-case names. A design's names are never folded: its tables and columns are
/// named as it declares them.
///
/// Rows go in with `COPY … FROM STDIN`, in batches of ``batchSize`` bytes encoded
/// straight from the records' bytes: the next batch is encoded while the server copies
/// the last one, and memory stays flat whatever the input's size.
///
/// Several imports can write the same tables at once (cron jobs that overlap, importers
/// on many hosts): appends run side by side; imports that replace or create a table, or
/// create a missing one, take an advisory lock on its name and run one after the other.
///
/// It reads back what the database holds (``/IngestCore/StoredRowReader``, through a
/// connection of its own), so a writer that compares before it writes — IngestFeedArchive's
/// `FeedArchive`, whose re-runs update in place — archives into PostgreSQL as into SQLite.
///
/// Connection refused, a rejected login, a server restart mid-import: an
/// ``/IngestCore/IngestError`` of kind `.temporary` (a scheduler's "try again later")
/// whose reason has the code `serverUnavailable`, and nothing written.
///
/// ```swift
/// let output = try PostgresOutput(connectionString: "postgresql:///feeds", mode: .replace)
/// try Importer().run([InputFile(path: "folks.xml")], into: output)
/// ```
public final class PostgresOutput: Output {
    /// What the import does with tables that exist.
    public enum Mode: Sendable {
        /// Refuse a table that exists (`.output`, exit 73, naming it).
        case create
        /// Rebuild the tables, swapped in atomically at the commit.
        case replace
        /// Insert into the tables (creating missing ones) in one transaction. An upsert
        /// is an append with a design whose ``/IngestCore/TableDesign/upsert`` is set.
        case append
    }

    /// How the tables and columns grown from the records are spelled. (Names are always
    /// written quoted, so a name that is a keyword — `order`, `user` — is a name too.)
    public enum IdentifierCase: String, Sendable, CaseIterable {
        /// Folded to lower case, as PostgreSQL folds a name written without quotes
        /// (ASCII letters only, see ``PostgresIdentifier/folded(_:)``), so queries need
        /// no quotes: the field `firstName` is the column `firstname`. Names that fold to
        /// one another's (`ID` and `id`) are still two columns, `id` and `id_2`, as the
        /// SQLite output tells them apart.
        ///
        /// With ``Mode/append``, a record or field finds a table or column of its exact
        /// name first — one an earlier import made with ``exact``, or before names were
        /// folded — and else the one of its folded name.
        case lower
        /// As the records spell them (`"firstName"`, which a query must quote): the
        /// names of versions before names were folded.
        case exact
    }

    /// Where to connect.
    public let settings: PostgresConnectionSettings
    /// What the import does with tables that exist.
    public let mode: Mode
    /// With ``Mode/append``: whether a field that an existing table has no column for
    /// adds one (`ALTER TABLE … ADD COLUMN`); without it such a record fails the import
    /// (`.data`, with a ``/IngestCore/IngestError/Reason/missingColumn(table:field:)`` reason).
    public let altersExistingTables: Bool
    /// Tables declared up front (a mapping schema's), or `nil` to grow them from the records.
    public let design: TableDesign?
    /// Without a design, the primary key of the tables grown from the records
    /// (`--pk`), and whether a record whose key is stored updates its row.
    public let keys: TableKeys?
    /// How the tables and columns grown from the records are spelled; a ``design``'s
    /// keep the names it declares.
    public let identifierCase: IdentifierCase
    /// Bytes of encoded rows at which a batch goes to the server.
    public var batchSize = 1 << 20
    /// Batches that may wait for the server while the next is encoded; 0 sends each
    /// batch and waits for it before encoding the next.
    public var pipelineDepth = 2
    /// How long, in seconds, the import waits for another import that holds its
    /// tables — a replacement's advisory lock on a name, a table being altered or
    /// dropped — before it fails with `.temporary` (exit 75) and an
    /// ``/IngestCore/IngestError/Reason/outputBusy(waitedSeconds:)`` reason, as the
    /// file outputs wait for their lock. It is the session's `lock_timeout`. Default:
    /// 60; 0 does not wait.
    public var lockTimeout: Double = 60
    /// What the caller should show the user, e.g. why a password file was ignored;
    /// known after ``open()`` (or the first ``storedRows(in:columns:matching:)``).
    public internal(set) var warnings: [String] = []

    /// The connection settings as a URI without a password: `postgresql://me@db:5432/feeds`.
    public var displayName: String { settings.description }

    private var session: PostgresSession?
    private var sink: PostgresSink?
    private var phase = Phase.new
    /// The session ``storedRows(in:columns:matching:)`` reads through, once opened.
    var storedRowReader: StoredRowQuery?
    private enum Phase { case new, open, committed, discarded }

    /// - Parameters:
    ///   - settings: where to connect (``PostgresConnectionSettings``).
    ///   - mode: ``Mode/create`` (the default) refuses tables that exist.
    ///   - altersExistingTables: see ``altersExistingTables``.
    ///   - design: tables a mapping schema declares; `nil` grows tables from the records.
    ///   - keys: without a design, the primary key every table the import creates
    ///     gets (named as the records' fields, or as the columns are), which every
    ///     record must fill (a table that exists must have it); with
    ///     ``/IngestCore/TableKeys/upsert``, a record whose key is stored updates its row.
    ///   - identifierCase: how names grown from the records are spelled; lower case by default.
    public init(
        settings: PostgresConnectionSettings, mode: Mode = .create, altersExistingTables: Bool = false,
        design: TableDesign? = nil, keys: TableKeys? = nil, identifierCase: IdentifierCase = .lower
    ) {
        self.settings = settings
        self.keys = design == nil ? keys : nil
        self.mode = mode
        self.altersExistingTables = altersExistingTables
        self.design = design
        self.identifierCase = identifierCase
    }

    /// An output for a libpq connection string (`postgresql://…`, `host=… dbname=…`),
    /// completed from the `PG*` environment variables.
    ///
    /// - Throws: `.usage` for a string libpq would refuse, and for a password in it
    ///   (see ``PostgresConnectionSettings/init(_:environment:systemUser:homeDirectory:)``).
    public convenience init(
        connectionString: String, mode: Mode = .create, altersExistingTables: Bool = false,
        design: TableDesign? = nil, keys: TableKeys? = nil, identifierCase: IdentifierCase = .lower
    ) throws {
        self.init(
            settings: try PostgresConnectionSettings(connectionString), mode: mode,
            altersExistingTables: altersExistingTables, design: design, keys: keys, identifierCase: identifierCase)
    }

    deinit {
        if phase == .open { discard() }
        closeReader()
    }

    // MARK: Output

    /// Connects, begins the import's transaction, and creates the design's tables (in
    /// ``Mode/create``, refusing those that exist): nothing is visible to other
    /// sessions until ``commit()``.
    public func open() throws {
        guard phase == .new else { throw IngestError(.usage, "a PostgreSQL output opens once") }
        phase = .open
        let session = PostgresSession(
            target: settings.description, pipelineDepth: pipelineDepth, lockTimeout: lockTimeout)
        self.session = session
        try session.connect(settings, warnings: &warnings)
        try session.execute("BEGIN", doing: "cannot start a transaction")
        // 0 turns PostgreSQL's timeout off: "do not wait" is the shortest wait instead.
        let milliseconds = max(1, Int((min(max(lockTimeout, 0), 86_400) * 1000).rounded()))
        try session.execute("SET LOCAL lock_timeout = \(milliseconds)", doing: "cannot set lock_timeout")
        let catalog = PostgresCatalog(session: session, schema: try PostgresCatalog.currentSchema(session))
        let sink = PostgresSink(
            session: session, catalog: catalog, mode: mode, altersExistingTables: altersExistingTables,
            design: design, keys: keys, foldsNames: identifierCase == .lower, batchSize: batchSize)
        self.sink = sink
        if let design { try sink.prepare(design) }
    }

    /// Runs `body` with the sink, then sends the rows still buffered and waits until
    /// the server has them all (still uncommitted).
    public func write(_ body: (any RecordSink) throws -> Void) throws {
        let sink = try requireSink()
        try body(sink)
        try sink.finish()
    }

    /// Gives replaced tables their names and commits the transaction: readers see
    /// every new row at once.
    public func commit() throws {
        guard phase == .open, let session, let sink else {
            throw IngestError(.usage, "commit a PostgreSQL output once, after open()")
        }
        try sink.flushAll()
        try sink.publish()
        try session.waitForQueue()
        try session.execute("COMMIT", doing: "cannot commit the import")
        phase = .committed
        session.close()
    }

    /// Closes the connection: the server rolls back the open transaction, its
    /// temporary tables and locks, as it does for a killed client.
    public func discard() {
        guard phase == .open else { return }
        phase = .discarded
        session?.abort()
    }

    // MARK: beyond Output

    /// Sends the rows buffered so far to the server and waits until it has them (they
    /// stay uncommitted until ``commit()``). The import does not need this: batches go
    /// out by themselves.
    public func flush() throws {
        let sink = try requireSink()
        try sink.flushAll()
        try sink.session.waitForQueue()
    }

    /// The server process serving this import (`pg_backend_pid()`), as
    /// `pg_stat_activity` and `pg_terminate_backend()` know it.
    public func serverProcessID() throws -> Int32 {
        try requireSink().session.backendProcessID()
    }

    /// The tables written, in the order first met, with the rows written to each.
    public var tableSummaries: [(name: String, rows: Int)] {
        (sink?.tableOrder ?? []).map { ($0.name, $0.rowCount) }
    }

    /// Columns added to tables that existed (only with ``altersExistingTables``), by
    /// table; tables that gained none are left out.
    public var columnsAddedToExistingTables: [(table: String, columns: [String])] {
        (sink?.tableOrder ?? []).filter { !$0.addedColumns.isEmpty }.map { ($0.name, $0.addedColumns) }
    }

    private func requireSink() throws -> PostgresSink {
        guard let sink, phase == .open else { throw IngestError(.usage, "the PostgreSQL output is not open") }
        return sink
    }
}
