import Foundation
import IngestKit
import PostgresNIO

/// A PostgreSQL database as an output, with the SQLite output's mappings and
/// guarantees:
///
/// - ``WriteMode/create`` and ``WriteMode/replace`` build every table under a
///   temporary name, in one transaction, and give the tables their names only at the
///   commit (`DROP TABLE` the old, `ALTER TABLE … RENAME` the new): a reader in another
///   session sees the old rows or the new, never a half, and a failure or a killed
///   import leaves the old tables and no new ones. `create` refuses a table that exists.
/// - ``WriteMode/append`` inserts in one transaction: all rows or none. Tables that
///   exist keep their columns unless `altersExistingTables` (`--alter`) is given; missing
///   ones are created.
/// - With a ``TableDesign`` (a mapping schema), its tables are created as declared;
///   with ``TableDesign/upsert``, each batch is copied into a staging table and merged
///   with `INSERT … ON CONFLICT (key) DO UPDATE`: rows whose key exists are updated,
///   their child rows replaced, and no row the input does not mention is touched.
///
/// Rows go in with `COPY … FROM STDIN`, in batches of ``batchSize`` bytes: the next
/// batch is encoded while the server copies the last one, and memory stays flat
/// whatever the input's size.
///
/// Several imports can write the same tables at once (cron jobs that overlap, importers
/// on many hosts): appends run side by side; imports that replace or create a table, or
/// create a missing one, take an advisory lock on its name and run one after the other.
///
/// Connection refused, a rejected login, a server restart mid-import: an ``IngestError``
/// of kind `.temporary` (exit 75), and nothing written.
///
/// ```swift
/// let output = try PostgresOutput(connectionString: "postgresql:///feeds", mode: .replace)
/// try output.open()
/// do {
///     for record in records { try output.write(record) }
///     try output.commit()
/// } catch {
///     output.discard()
///     throw error
/// }
/// ```
public final class PostgresOutput: Output {
    public let settings: PostgresConnectionSettings
    public let mode: WriteMode
    /// With ``WriteMode/append``: whether a field that an existing table has no column
    /// for adds one (`ALTER TABLE … ADD COLUMN`); without it such a record fails the import.
    public let altersExistingTables: Bool
    public let design: TableDesign?
    /// Bytes of encoded rows at which a batch goes to the server.
    public var batchSize = 1 << 20
    /// Batches that may wait for the server while the next is encoded; 0 sends each
    /// batch and waits for it before encoding the next.
    public var pipelineDepth = 2
    /// What the caller should show the user, e.g. why a password file was ignored.
    public private(set) var warnings: [String] = []

    public var displayName: String { settings.description }

    private var session: PostgresSession?
    private var catalog: PostgresCatalog?
    private var phase = Phase.new
    private enum Phase { case new, open, committed, discarded }
    /// Names temporary tables of this import: `ingest_<run>_<n>`.
    private let runToken = String(UInt32.random(in: .min ... .max), radix: 16)
    private var temporaryCount = 0

    private var tables: [String: PostgresTable] = [:]
    /// In the order first met (a design's: parents before children).
    private var tableOrder: [PostgresTable] = []
    @exclusivity(unchecked) private var current: PostgresTable?
    @exclusivity(unchecked) private var bufferedBytes = 0
    /// Per record: the column of each field; per column: the field filling it (-1: none).
    @exclusivity(unchecked) private var columnOfField: [Int] = []
    @exclusivity(unchecked) private var fieldOfColumn: [Int] = []
    /// Whether a design's table is a child (a batch never ends between a parent row and its children).
    private var childTables: Set<String> = []

    /// - Parameters:
    ///   - settings: where to connect (``PostgresConnectionSettings``).
    ///   - mode: ``WriteMode/create`` (the default) refuses tables that exist.
    ///   - altersExistingTables: `--alter`, see ``altersExistingTables``.
    ///   - design: tables a mapping schema declares; `nil` grows tables from the records.
    /// - Throws: `.usage` when an upsert design has a table without a primary key.
    public init(settings: PostgresConnectionSettings, mode: WriteMode = .create, altersExistingTables: Bool = false,
                design: TableDesign? = nil) throws {
        self.settings = settings
        self.mode = mode
        self.altersExistingTables = altersExistingTables
        self.design = design
        if let design, design.upsert, let keyless = design.tables.first(where: { $0.primaryKey.isEmpty }) {
            throw IngestError(.usage, "--upsert updates rows by their primary key, and the table \(keyless.name) declares none; add \"primaryKey\"")
        }
    }

    /// An output for a libpq connection string (`postgresql://…`, `host=… dbname=…`),
    /// completed from the `PG*` environment variables.
    public convenience init(connectionString: String, mode: WriteMode = .create, altersExistingTables: Bool = false,
                            design: TableDesign? = nil) throws {
        try self.init(settings: PostgresConnectionSettings(connectionString), mode: mode,
                      altersExistingTables: altersExistingTables, design: design)
    }

    deinit {
        if phase == .open { discard() }
    }

    // MARK: Output

    public func open() throws {
        guard phase == .new else { throw IngestError(.usage, "a PostgreSQL output opens once") }
        phase = .open
        let session = PostgresSession(target: settings.description, pipelineDepth: pipelineDepth)
        self.session = session
        try session.connect(settings, warnings: &warnings)
        try session.execute("BEGIN", doing: "cannot start a transaction")
        let catalog = PostgresCatalog(session: session, schema: try PostgresCatalog.currentSchema(session))
        self.catalog = catalog
        if let design { try prepare(design, catalog: catalog) }
    }

    public func write(_ record: Record) throws {
        guard phase == .open else { throw IngestError(.usage, "write to a PostgreSQL output between open() and commit()") }
        if bufferedBytes >= batchSize, !childTables.contains(record.table) {
            // A batch ends before a record, never between a parent row and its children.
            try flushAll()
        }
        let table = try self.table(for: record)
        columnOfField.removeAll(keepingCapacity: true)
        for field in record.fields {
            let (index, change) = try table.column(for: field.name, value: field.value, at: record.position)
            let widened = table.widening(index, toHold: field.value)
            switch change {
            case .none:
                if let widened { try changeType(of: index, in: table, to: widened) }
            case .add:
                if let widened { table.didChangeType(index, to: widened) }
                try addColumn(index, to: table)
            case .startCopying:
                try flush(table)
                table.startCopying(index)
                if let widened { try changeType(of: index, in: table, to: widened) }
            }
            columnOfField.append(index)
        }
        try encode(record, into: table)
    }

    public func renameTable(_ old: String, to new: String) throws {
        guard let table = tables.removeValue(forKey: old) else { return }
        guard tables[new] == nil else {
            throw IngestError(.data, "cannot rename the table \(old) to \(new): the import writes a table of that name already")
        }
        try PostgresIdentifier.check(new, what: "table")
        let catalog = try requireCatalog()
        if table.physicalName == old {
            // Written in place (an append): the rename is part of the transaction.
            try catalog.lock([new])
            if try catalog.tableExists(new) {
                throw IngestError(.output, "cannot rename the table \(old) to \(new): \(catalog.schema).\(new) exists")
            }
            try requireSession().execute("ALTER TABLE \(PostgresIdentifier.qualified(catalog.schema, old)) RENAME TO \(PostgresIdentifier.quoted(new))",
                                         doing: "cannot rename the table \(old) to \(new)")
            table.physicalName = new
        } else {
            // Built under a temporary name: only the name it gets at the commit changes.
            try catalog.lock([new])
            if mode == .create, try catalog.tableExists(new) { throw Self.exists(new, in: catalog.schema) }
        }
        table.name = new
        tables[new] = table
    }

    public func commit() throws {
        guard phase == .open else { throw IngestError(.usage, "commit a PostgreSQL output once, after open()") }
        let session = try requireSession()
        let catalog = try requireCatalog()
        try flushAll()
        try fillEmptyNestedElements()
        if mode != .append { try swapTables(catalog) }
        try session.waitForQueue()
        try session.execute("COMMIT", doing: "cannot commit the import")
        phase = .committed
        session.close()
    }

    public func discard() {
        guard phase == .open else { return }
        phase = .discarded
        // Closing the connection is enough: the server rolls back the open
        // transaction, its temporary tables and locks, as for a killed client.
        session?.abort()
    }

    /// Sends the rows buffered so far to the server and waits until it has them (they
    /// stay uncommitted until ``commit()``). The import does not need this: batches go
    /// out by themselves.
    public func flush() throws {
        try flushAll()
        try requireSession().waitForQueue()
    }

    /// The server process serving this import (`pg_backend_pid()`), as
    /// `pg_stat_activity` and `pg_terminate_backend()` know it.
    public func serverProcessID() throws -> Int32 {
        try requireSession().backendProcessID()
    }

    /// The tables written, in the order first met, with the rows written to each.
    public var tableSummaries: [(name: String, rows: Int)] { tableOrder.map { ($0.name, $0.rowCount) } }

    /// Columns added to tables that existed (only with ``altersExistingTables``).
    public var columnsAddedToExistingTables: [(table: String, columns: [String])] {
        tableOrder.filter { !$0.addedColumns.isEmpty }.map { ($0.name, $0.addedColumns) }
    }

    // MARK: tables

    private func table(for record: Record) throws -> PostgresTable {
        if let current, current.name == record.table { return current }
        if let table = tables[record.table] {
            current = table
            return table
        }
        if design != nil {
            throw IngestError(.data, "the schema declares no table \(record.table)", position: record.position)
        }
        let name = record.table
        try PostgresIdentifier.check(name, what: "table", position: record.position)
        guard PostgresIdentifier.fitted(name) == name else {
            throw IngestError(.data, "the table name \(name) is longer than PostgreSQL's 63 bytes; name the records with --records or a schema",
                              position: record.position)
        }
        let catalog = try requireCatalog()
        let table: PostgresTable
        switch mode {
        case .append:
            if try catalog.tableExists(name) {
                table = try existingTable(name, catalog: catalog)
            } else {
                // Only one import creates it; the others wait here, then append.
                try catalog.lock([name])
                table = try catalog.tableExists(name)
                    ? try existingTable(name, catalog: catalog)
                    : try newTable(name, physicalName: name, for: record, catalog: catalog)
            }
        case .create, .replace:
            try catalog.lock([name])
            if mode == .create, try catalog.tableExists(name) { throw Self.exists(name, in: catalog.schema) }
            table = try newTable(name, physicalName: temporaryName(), for: record, catalog: catalog)
        }
        tables[name] = table
        tableOrder.append(table)
        current = table
        return table
    }

    private func existingTable(_ name: String, catalog: PostgresCatalog) throws -> PostgresTable {
        try catalog.lockForWriting(name, mayAlter: altersExistingTables)
        return PostgresTable(name: name, physicalName: name, existingColumns: try catalog.columns(of: name),
                             altersExisting: altersExistingTables)
    }

    /// A table with the columns of the record's fields, created at once.
    private func newTable(_ name: String, physicalName: String, for record: Record, catalog: PostgresCatalog) throws -> PostgresTable {
        let table = PostgresTable(name: name, physicalName: physicalName, existingColumns: nil)
        for field in record.fields {
            let (index, _) = try table.column(for: field.name, value: field.value, at: record.position)
            if let type = table.widening(index, toHold: field.value) { table.didChangeType(index, to: type) }
            table.startCopying(index)
        }
        let columns = table.columns.map { "\(PostgresIdentifier.quoted($0.name)) \($0.type.sql)" }.joined(separator: ", ")
        try requireSession().execute("CREATE TABLE \(PostgresIdentifier.qualified(catalog.schema, physicalName)) (\(columns))",
                                     doing: "cannot create the table \(name)")
        return table
    }

    private func temporaryName() -> String {
        temporaryCount += 1
        return "ingest_\(runToken)_\(temporaryCount)"
    }

    private static func exists(_ name: String, in schema: String) -> IngestError {
        IngestError(.output, "the table \(schema).\(name) already exists; use --replace to rebuild it or --append to add to it")
    }

    /// Creates a design's tables (see ``TableDesign/Table/createStatement(schema:physicalName:parentPhysicalName:ifNotExists:)``)
    /// and, for an upsert, their staging tables.
    private func prepare(_ design: TableDesign, catalog: PostgresCatalog) throws {
        let session = try requireSession()
        let names = design.tables.map(\.name)
        for name in names { try PostgresIdentifier.check(name, what: "table") }
        var physicalNames: [String: String] = [:]
        var existing: Set<String> = []
        switch mode {
        case .append:
            let missing = try names.filter { try !catalog.tableExists($0) }
            if !missing.isEmpty { try catalog.lock(missing) }
            for name in names where try catalog.tableExists(name) { existing.insert(name) }
            for name in names { physicalNames[name] = name }
        case .create, .replace:
            try catalog.lock(names)
            if mode == .create, let name = try names.first(where: { try catalog.tableExists($0) }) {
                throw Self.exists(name, in: catalog.schema)
            }
            for name in names { physicalNames[name] = temporaryName() }
        }
        for designed in design.tables {
            let physical = physicalNames[designed.name]!
            if existing.contains(designed.name) {
                try catalog.lockForWriting(designed.name, mayAlter: false)
            } else {
                let parent = designed.foreignKey.map { physicalNames[$0.parentTable] ?? $0.parentTable }
                try session.execute(designed.createStatement(schema: catalog.schema, physicalName: physical, parentPhysicalName: parent,
                                                             ifNotExists: mode == .append),
                                    doing: "cannot create the table \(designed.name)")
                for statement in designed.indexStatements(schema: catalog.schema, physicalName: physical, ifNotExists: mode == .append) {
                    try session.execute(statement, doing: "cannot create an index on \(designed.name)")
                }
            }
            let columns = designed.allColumns.map {
                PostgresTable.Column(name: $0.name, type: PostgresColumnType(designed: $0.type), widens: false)
            }
            let table = PostgresTable(name: designed.name, physicalName: physical, existingColumns: columns, designed: designed)
            if design.upsert {
                if tableOrder.isEmpty {
                    // One count across the staging tables: a child row and its parent's row compare by input order.
                    try session.execute("CREATE TEMPORARY SEQUENCE \(PostgresIdentifier.quoted(Self.stagingSequence))",
                                        doing: "cannot create the staging tables")
                }
                let staging = "ingest_stage_\(tableOrder.count + 1)"
                try session.execute("CREATE TEMPORARY TABLE \(PostgresIdentifier.quoted(staging)) (LIKE \(PostgresIdentifier.qualified(catalog.schema, physical))) ON COMMIT DROP",
                                    doing: "cannot create a staging table for \(designed.name)")
                try session.execute("ALTER TABLE \(PostgresIdentifier.quoted(staging)) ADD COLUMN \(PostgresIdentifier.quoted(Self.orderColumn(designed))) bigint DEFAULT nextval('\(Self.stagingSequence)')",
                                    doing: "cannot create a staging table for \(designed.name)")
                table.stagingName = staging
            }
            if designed.foreignKey != nil { childTables.insert(designed.name) }
            tables[designed.name] = table
            tableOrder.append(table)
        }
    }

    /// The temporary sequence numbering staged rows in input order, across tables.
    private static let stagingSequence = "ingest_stage_order"

    /// A staging table's column counting rows in input order, named apart from the table's own.
    private static func orderColumn(_ table: TableDesign.Table) -> String {
        var name = "ingest order"
        while table.allColumns.contains(where: { $0.name == name }) { name += "_" }
        return name
    }

    // MARK: rows

    private func encode(_ record: Record, into table: PostgresTable) throws {
        if fieldOfColumn.count < table.columns.count {
            fieldOfColumn += Array(repeating: -1, count: table.columns.count - fieldOfColumn.count)
        }
        for (field, column) in columnOfField.enumerated() { fieldOfColumn[column] = field }
        defer { for column in columnOfField { fieldOfColumn[column] = -1 } }
        let start = table.buffer.writerIndex
        var first = true
        for column in table.copiedColumns {
            if first { first = false } else { table.buffer.writeInteger(UInt8(ascii: "\t")) }
            let field = fieldOfColumn[column]
            guard field >= 0 else {
                table.buffer.writeStaticString("\\N")
                continue
            }
            let value = record.fields[field].value
            do {
                try CopyTextEncoder.append(value, typed: table.columns[column].type,
                                           emptyJSON: table.emptyJSON(forColumn: column), to: &table.buffer)
            } catch {
                table.buffer.moveWriterIndex(to: start)
                throw IngestError(.data, "the field \(record.fields[field].name.qualified) holds the character U+0000, which PostgreSQL text cannot store",
                                  position: record.position)
            }
        }
        table.buffer.writeInteger(UInt8(ascii: "\n"))
        table.didEncodeRow(at: record.position)
        bufferedBytes += table.buffer.writerIndex - start
    }

    private func addColumn(_ index: Int, to table: PostgresTable) throws {
        try flush(table)
        let catalog = try requireCatalog()
        let column = table.columns[index]
        // Another import with --alter may have added it since this one read the columns.
        let ifNotExists = table.createdHere ? "" : "IF NOT EXISTS "
        try requireSession().execute("ALTER TABLE \(PostgresIdentifier.qualified(catalog.schema, table.physicalName)) ADD COLUMN \(ifNotExists)\(PostgresIdentifier.quoted(column.name)) \(column.type.sql)",
                                     doing: "cannot add the column \(column.name) to \(table.name)")
        table.startCopying(index)
    }

    /// Widens a column this import created, converting the rows it holds; rows still
    /// buffered go out first, encoded for the old type.
    private func changeType(of index: Int, in table: PostgresTable, to type: PostgresColumnType) throws {
        try flush(table)
        let catalog = try requireCatalog()
        let column = table.columns[index]
        let quoted = PostgresIdentifier.quoted(column.name)
        let conversion: String
        if type == .jsonb {
            // A column of empty nested elements ('') meets nested data: '' becomes [] or {}.
            conversion = "CASE WHEN \(quoted) IS NULL THEN NULL ELSE '\(table.emptyJSON(forColumn: index) ?? "{}")'::jsonb END"
        } else {
            conversion = column.type.conversion(of: quoted, to: type)
        }
        try requireSession().execute("ALTER TABLE \(PostgresIdentifier.qualified(catalog.schema, table.physicalName)) ALTER COLUMN \(quoted) TYPE \(type.sql) USING \(conversion)",
                                     doing: "cannot widen the column \(column.name) of \(table.name) to \(type.sql)")
        table.didChangeType(index, to: type)
    }

    // MARK: batches

    /// Sends every table's buffered rows, parents before children; for an upsert, merges
    /// each staging table into its table once all are filled.
    private func flushAll() throws {
        guard let design, design.upsert else {
            for table in tableOrder { try flush(table) }
            return
        }
        var staged: Set<String> = []
        for table in tableOrder where table.buffer.readableBytes > 0 {
            staged.insert(table.name)
            try flush(table)
        }
        guard !staged.isEmpty else { return }
        for table in tableOrder {
            let parentStaged = table.designed?.foreignKey.map { staged.contains($0.parentTable) } ?? false
            guard staged.contains(table.name) || parentStaged else { continue }
            let statements = try mergeStatements(for: table, rowsStaged: staged.contains(table.name), parentStaged: parentStaged)
            try requireSession().submit { connection in
                for sql in statements {
                    try await connection.query(PostgresQuery(unsafeSQL: sql), logger: PostgresSession.logger)
                }
            }
        }
    }

    /// For an upsert: the rows of a parent written again lose their children (the
    /// children that follow replace them, as in the SQLite output); then the last row
    /// staged for each key is inserted, or updates the row with that key. A child row
    /// staged before its parent's row was written again in the same batch is dropped,
    /// as the SQLite output's row-by-row delete drops it.
    private func mergeStatements(for table: PostgresTable, rowsStaged: Bool, parentStaged: Bool) throws -> [String] {
        let catalog = try requireCatalog()
        guard let designed = table.designed, let staging = table.stagingName else { return [] }
        let target = PostgresIdentifier.qualified(catalog.schema, table.physicalName)
        let order = PostgresIdentifier.quoted(Self.orderColumn(designed))
        var statements: [String] = []
        var overwritten = ""
        if parentStaged, let foreignKey = designed.foreignKey, let parent = tables[foreignKey.parentTable],
           let parentDesign = parent.designed, let parentStaging = parent.stagingName {
            let childKey = PostgresIdentifier.quoted(foreignKey.column)
            let parentKey = PostgresIdentifier.quoted(foreignKey.parentColumn)
            statements.append("""
                DELETE FROM \(target) AS child USING \(PostgresIdentifier.quoted(parentStaging)) AS parent \
                WHERE child.\(childKey) = parent.\(parentKey)
                """)
            overwritten = """
                 WHERE NOT EXISTS (SELECT 1 FROM \(PostgresIdentifier.quoted(parentStaging)) AS parent \
                WHERE parent.\(parentKey) = staged.\(childKey) AND parent.\(PostgresIdentifier.quoted(Self.orderColumn(parentDesign))) > staged.\(order))
                """
        }
        if rowsStaged {
            let columns = TableDesign.Table.list(designed.allColumns.map(\.name))
            let key = TableDesign.Table.list(designed.primaryKey)
            let others = designed.allColumns.map(\.name).filter { !designed.primaryKey.contains($0) }.map(PostgresIdentifier.quoted)
            let update = others.isEmpty ? "DO NOTHING" : "DO UPDATE SET " + others.map { "\($0) = EXCLUDED.\($0)" }.joined(separator: ", ")
            statements.append("""
                INSERT INTO \(target) (\(columns)) SELECT \(columns) FROM (SELECT *, row_number() OVER (PARTITION BY \(key) ORDER BY \(order) DESC) AS "ingest last" \
                FROM \(PostgresIdentifier.quoted(staging)) AS staged\(overwritten)) AS latest WHERE "ingest last" = 1 ORDER BY \(order) \
                ON CONFLICT (\(key)) \(update)
                """)
        }
        return statements
    }

    /// Queues a `COPY` of the table's buffered rows (into its staging table for an
    /// upsert, emptied first) and starts a new buffer.
    private func flush(_ table: PostgresTable) throws {
        guard table.buffer.readableBytes > 0 else { return }
        let session = try requireSession()
        let catalog = try requireCatalog()
        let data = table.buffer
        let positions = table.positions
        bufferedBytes -= data.readableBytes
        table.buffer = ByteBuffer()
        table.buffer.reserveCapacity(min(data.readableBytes + data.readableBytes / 4, batchSize + batchSize / 4))
        table.positions = []
        table.positions.reserveCapacity(positions.count)

        let staging = table.stagingName
        let target = staging.map(PostgresIdentifier.escaped) ?? PostgresIdentifier.escaped(catalog.schema) + "\".\"" + PostgresIdentifier.escaped(table.physicalName)
        let columns = table.copiedColumns.map { PostgresIdentifier.escaped(table.columns[$0].name) }
        let name = table.name
        let target_ = session.target
        if columns.isEmpty {
            // Records without fields: rows of defaults (COPY with no column list would expect every column).
            let sql = "INSERT INTO \(PostgresIdentifier.qualified(catalog.schema, table.physicalName)) SELECT FROM generate_series(1, \(positions.count))"
            try session.submit { connection in
                try await connection.query(PostgresQuery(unsafeSQL: sql), logger: PostgresSession.logger)
            }
            return
        }
        try session.submit { connection in
            if let staging {
                try await connection.query(PostgresQuery(unsafeSQL: "TRUNCATE \(PostgresIdentifier.quoted(staging))"), logger: PostgresSession.logger)
            }
            do {
                try await connection.copyFrom(table: target, columns: columns, logger: PostgresSession.logger) { writer in
                    try await writer.write(data)
                }
            } catch {
                var failure = PostgresFailure.ingestError(error, doing: "cannot insert into \(name)", target: target_)
                if failure.position == nil, let line = Self.copyLine(of: error), line >= 1, line <= positions.count {
                    failure.position = positions[line - 1]
                }
                throw failure
            }
        }
    }

    /// The row a COPY error is about: "line N" in the server's context,
    /// `COPY people, line 3, column age: "abc"`.
    static func copyLine(of error: any Error) -> Int? {
        guard let error = error as? PSQLError, let context = error.serverInfo?[.locationContext],
              let range = context.range(of: ", line ") else { return nil }
        return Int(context[range.upperBound...].prefix { $0.isNumber })
    }

    // MARK: commit

    /// Gives empty nested elements stored as '' (before their column was known to hold
    /// JSON) the empty JSON value of the column's shape, as the SQLite output does, in
    /// the tables this import created.
    private func fillEmptyNestedElements() throws {
        let catalog = try requireCatalog()
        for table in tableOrder where table.createdHere {
            for (index, column) in table.columns.enumerated() where column.holdsEmptyText && column.type == .text && column.jsonShape != nil {
                let quoted = PostgresIdentifier.quoted(column.name)
                let sql = """
                    UPDATE \(PostgresIdentifier.qualified(catalog.schema, table.physicalName)) \
                    SET \(quoted) = '\(table.emptyJSON(forColumn: index)!)' WHERE \(quoted) = ''
                    """
                try requireSession().submit { connection in
                    try await connection.query(PostgresQuery(unsafeSQL: sql), logger: PostgresSession.logger)
                }
            }
        }
    }

    /// Gives the tables built under temporary names their names, dropping the tables
    /// they replace, all in the import's transaction: readers see the swap at the commit.
    private func swapTables(_ catalog: PostgresCatalog) throws {
        let session = try requireSession()
        try session.waitForQueue()
        let names = tableOrder.map(\.name)
        try catalog.lock(names)
        var replaced: [String] = []
        for name in names where try catalog.tableExists(name) {
            if mode == .create { throw Self.exists(name, in: catalog.schema) }
            replaced.append(name)
        }
        if !replaced.isEmpty {
            // One statement, so tables that refer to each other (a design's) drop together;
            // a table of someone else's that refers to one of them stops the replacement.
            try session.execute("DROP TABLE \(replaced.map { PostgresIdentifier.qualified(catalog.schema, $0) }.joined(separator: ", "))",
                                doing: "cannot replace \(replaced.joined(separator: ", "))")
        }
        for table in tableOrder {
            try session.execute("ALTER TABLE \(PostgresIdentifier.qualified(catalog.schema, table.physicalName)) RENAME TO \(PostgresIdentifier.quoted(table.name))",
                                doing: "cannot give the table \(table.name) its name")
            if table.designed != nil { try catalog.renameIndexesAndConstraints(of: table.name, from: table.physicalName) }
            table.physicalName = table.name
        }
    }

    private func requireSession() throws -> PostgresSession {
        guard let session, phase == .open else { throw IngestError(.usage, "the PostgreSQL output is not open") }
        return session
    }

    private func requireCatalog() throws -> PostgresCatalog {
        guard let catalog, phase == .open else { throw IngestError(.usage, "the PostgreSQL output is not open") }
        return catalog
    }
}
