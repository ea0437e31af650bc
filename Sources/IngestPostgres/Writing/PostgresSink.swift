import IngestCore
import IngestSQL
import PostgresNIO

/// Writes records into PostgreSQL tables inside the import's transaction: the sink a
/// ``PostgresOutput`` hands the import.
///
/// Rows are encoded in `COPY` text format straight from a ``/IngestCore/RecordBatch``'s
/// bytes (``CopyTextEncoder``), one buffer per table; when the buffers hold
/// ``batchSize`` bytes they go to the server as `COPY … FROM STDIN`, pipelined through
/// the ``PostgresSession`` so the next rows are encoded while the server copies these.
///
/// - Without a design, tables and columns are created as records need them, typed and
///   widened as their values demand (``PostgresColumnType``), named as the SQLite
///   output names them (``PostgresTable``) — in lower case unless the output keeps
///   names exact (``PostgresOutput/IdentifierCase``).
/// - With a design (a mapping schema's tables), ``prepare(_:)`` creates them; for an
///   upsert each table's rows are copied into a session-private staging table and
///   merged: `INSERT … ON CONFLICT (key) DO UPDATE` for a table with a primary key, and
///   for a child table without one `ON CONFLICT DO NOTHING` against a unique index over
///   all its columns. Nothing is ever deleted.
/// - In ``PostgresOutput/Mode/create`` and ``PostgresOutput/Mode/replace`` every table
///   is built under a temporary name and given its own by ``publish()``.
final class PostgresSink: RecordSink {
    let session: PostgresSession
    let catalog: PostgresCatalog
    let mode: PostgresOutput.Mode
    let altersExistingTables: Bool
    let design: TableDesign?
    /// Without a design: the primary key of the tables grown from the records (`--pk`).
    let keys: TableKeys?
    /// Whether tables and columns grown from the records get their names in lower case.
    let foldsNames: Bool
    /// Bytes of encoded rows at which a batch goes to the server.
    let batchSize: Int

    /// Tables by the name the records give them, compared by bytes (see
    /// ``IngestCore/ExactString``): names that differ only in their Unicode
    /// normalisation are two tables, as PostgreSQL keeps them.
    private var tables: [ExactString: PostgresTable] = [:]
    /// With ``foldsNames``, the names of the tables written, so that records whose
    /// names fold to one (`People` and `people`) get two tables, `people` and
    /// `people_2`, as each gets its own without folding.
    private var tableNames = DistinctNames(comparing: .bytes)
    /// In the order first met (a design's: parents before children).
    private(set) var tableOrder: [PostgresTable] = []
    // Safety (`@exclusivity(unchecked)` here and below): only the import's writer
    // thread calls the sink; what the session's executor thread runs captures copies
    // (encoded rows, SQL, names), never these properties, so no accesses overlap.
    @exclusivity(unchecked) private var current: PostgresTable?
    /// The records' name for ``current``.
    @exclusivity(unchecked) private var currentRecordName = ""
    @exclusivity(unchecked) private var bufferedBytes = 0
    /// Per field of the record being written: its column and what it holds; per
    /// column: the field filling it (-1: none).
    @exclusivity(unchecked) private var columnOfField: [Int] = []
    @exclusivity(unchecked) private var heldValues: [HeldValue] = []
    @exclusivity(unchecked) private var fieldOfColumn: [Int] = []
    /// For an upsert that keeps what a record does not carry: the row's columns
    /// carried, a `0` or `1` per column.
    @exclusivity(unchecked) private var carried: [UInt8] = []
    /// The batch ``write(_:)-(IngestRecord)`` writes a single record through.
    private let single = RecordBatch(reservingBytes: 4096)
    /// How long one encoded row may be.
    private let rowLength = CopyRowLength()
    /// Names temporary tables of this import: `ingest_<run>_<n>`.
    private let runToken = String(UInt32.random(in: .min ... .max), radix: 16)
    private var temporaryCount = 0

    init(
        session: PostgresSession, catalog: PostgresCatalog, mode: PostgresOutput.Mode, altersExistingTables: Bool,
        design: TableDesign?, keys: TableKeys? = nil, foldsNames: Bool, batchSize: Int
    ) {
        self.session = session
        self.keys = design == nil ? keys : nil
        self.catalog = catalog
        self.mode = mode
        self.altersExistingTables = altersExistingTables
        self.design = design
        self.foldsNames = foldsNames && design == nil
        self.batchSize = batchSize
    }

    // MARK: RecordSink

    /// One record, written as a batch of one.
    func write(_ record: IngestRecord) throws {
        single.clear()
        single.append(record)
        try write(single)
    }

    func write(_ batch: RecordBatch) throws {
        var tableOfBatch = [PostgresTable?](repeating: nil, count: batch.tables.count)
        for record in 0..<batch.count {
            let entry = batch.entries[record]
            let table: PostgresTable
            if let known = tableOfBatch[entry.table] {
                table = known
            } else {
                table = try self.table(named: batch.tables[entry.table], firstRecord: record, of: batch)
                tableOfBatch[entry.table] = table
            }
            if bufferedBytes >= batchSize, !table.isChild {
                // A batch ends before a record, never between a parent row and its children.
                try flushAll()
            }
            try insert(record, of: batch, into: table)
        }
    }

    func renameTable(_ oldRecordName: String, to recordName: String) throws {
        guard let table = tables.removeValue(forKey: ExactString(oldRecordName)) else { return }
        guard tables[ExactString(recordName)] == nil else {
            throw IngestError(
                .data,
                "cannot rename the table \(table.name) to \(recordName): the import writes a table of that name already"
            )
        }
        try PostgresIdentifier.check(recordName, what: "table")
        let old = table.name
        tableNames.release(old)
        let new = try databaseName(forRecords: recordName)
        try catalog.lock([new])
        if table.physicalName == old {
            // Written in place (an append): the rename is part of the transaction.
            if try catalog.tableExists(new) {
                throw IngestError(.output, "cannot rename the table \(old) to \(new): \(catalog.schema).\(new) exists")
            }
            try session.execute(
                "ALTER TABLE \(PostgresIdentifier.qualified(catalog.schema, old)) RENAME TO \(PostgresIdentifier.quoted(new))",
                doing: "cannot rename the table \(old) to \(new)")
            table.physicalName = new
        } else if mode == .create, try catalog.tableExists(new) {
            // Built under a temporary name: only the name it gets at the commit changes.
            throw exists([new])
        }
        table.name = new
        tables[ExactString(recordName)] = table
        if current === table { currentRecordName = recordName }
    }

    // MARK: the end

    /// Sends every row still buffered and completes the tables: empty nested elements
    /// become `[]` or `{}`, a table of records without fields gets the column `_`.
    /// Waits until the server has done it all.
    func finish() throws {
        try flushAll()
        for table in tableOrder where table.createdHere && table.columns.isEmpty {
            try addColumn(table.addPlaceholderColumn(), to: table)
        }
        try fillEmptyNestedElements()
        try session.waitForQueue()
    }

    /// Gives the tables built under temporary names their names, dropping the tables
    /// they replace, all in the import's transaction: readers see the swap at the
    /// commit. Imports of the same tables take their turn (an advisory lock per name).
    /// In ``PostgresOutput/Mode/create``, tables that exist by now are refused, all named.
    func publish() throws {
        guard mode != .append else { return }
        try session.waitForQueue()
        let names = tableOrder.map(\.name)
        try catalog.lock(names)
        let replaced = try names.filter { try catalog.tableExists($0) }
        if mode == .create, !replaced.isEmpty { throw exists(replaced) }
        if !replaced.isEmpty {
            // One statement, so tables that refer to each other (a design's) drop together;
            // a table of someone else's that refers to one of them stops the replacement.
            try session.execute(
                "DROP TABLE \(replaced.map { PostgresIdentifier.qualified(catalog.schema, $0) }.joined(separator: ", "))",
                doing: "cannot replace \(replaced.joined(separator: ", "))")
        }
        for table in tableOrder {
            try session.execute(
                "ALTER TABLE \(PostgresIdentifier.qualified(catalog.schema, table.physicalName)) RENAME TO \(PostgresIdentifier.quoted(table.name))",
                doing: "cannot give the table \(table.name) its name")
            if table.designed != nil || !table.keyColumns.isEmpty {
                try catalog.renameIndexesAndConstraints(of: table.name, from: table.physicalName)
            }
            table.physicalName = table.name
        }
    }

    /// Tables that may not be written because they exist (``PostgresOutput/Mode/create``).
    private func exists(_ names: [String]) -> IngestError {
        let list = names.map { "\(catalog.schema).\($0)" }.joined(separator: ", ")
        return IngestError(
            .output, names.count == 1 ? "the table \(list) already exists" : "the tables \(list) already exist",
            reason: .outputExists(appendable: true))
    }

    // MARK: tables

    private func table(named name: String, firstRecord record: Int, of batch: RecordBatch) throws -> PostgresTable {
        if let current, currentRecordName.hasSameBytes(as: name) { return current }
        if let table = tables[ExactString(name)] {
            current = table
            currentRecordName = name
            return table
        }
        let position = batch.entries[record].position
        if design != nil {
            throw IngestError(.data, "the schema declares no table \(name)", position: position)
        }
        try PostgresIdentifier.check(name, what: "table", position: position)
        guard PostgresIdentifier.fitted(name) == name else {
            throw IngestError(
                .data, "the table name \(name) is longer than PostgreSQL's 63 bytes; name the records another way",
                position: position)
        }
        let recordName = name
        let name = try databaseName(forRecords: recordName)
        let table: PostgresTable
        switch mode {
        case .append:
            if try catalog.tableExists(name) {
                table = try existingTable(name)
            } else {
                // Only one import creates it. The others wait for its commit sharing the
                // lock, so that they then append side by side; should it have rolled
                // back, one of them creates the table after all.
                if try !catalog.tryLock(name) {
                    try catalog.lockShared(name)
                    if try !catalog.tableExists(name) { try catalog.lock([name]) }
                }
                table =
                    try catalog.tableExists(name)
                    ? try existingTable(name)
                    : try newTable(name, physicalName: name, firstRecord: record, of: batch)
            }
        case .create, .replace:
            try catalog.lock([name])
            if mode == .create, try catalog.tableExists(name) { throw exists([name]) }
            table = try newTable(name, physicalName: temporaryName(), firstRecord: record, of: batch)
        }
        if let keys, keys.upsert {
            table.stages = true
            table.keepsUncarried = !keys.upsertNulls
            table.stagingIsStale = true
        }
        tables[ExactString(recordName)] = table
        tableOrder.append(table)
        current = table
        currentRecordName = recordName
        return table
    }

    /// The table name for the records named `name`, given out for them: `name` itself
    /// with exact names; else its folded form, or the first free of `…_2`, `…_3`…
    /// when another table of this import has that — unless, appending, the database
    /// has a table of exactly `name` (made with exact names, or before names were
    /// folded), which the records keep writing.
    private func databaseName(forRecords name: String) throws -> String {
        guard foldsNames else { return name }
        let folded = PostgresIdentifier.folded(name)
        if folded != name, mode == .append {
            let exact = tableNames.choose(for: name)
            if exact.name == name, try catalog.tableExists(name) {
                tableNames.take(exact)
                return name
            }
        }
        let choice = tableNames.choose(for: folded, fitted: PostgresIdentifier.fitted)
        tableNames.take(choice)
        return choice.name
    }

    private func existingTable(_ name: String) throws -> PostgresTable {
        try catalog.lockForWriting(name, mayAlter: altersExistingTables)
        let table = PostgresTable(
            name: name, physicalName: name, existingColumns: try catalog.columns(of: name),
            altersExisting: altersExistingTables, foldsNames: foldsNames)
        if let keys {
            let stored = try catalog.primaryKey(of: name)
            let named = keys.primaryKey.map { table.columnIndex(named: $0).map { table.columns[$0].name } ?? $0 }
            guard stored == named else { throw keys.mismatch(stored: stored, table: "\(catalog.schema).\(name)") }
            table.keyColumns = stored
        }
        return table
    }

    /// A table with the columns of the record's fields, created at once.
    private func newTable(_ name: String, physicalName: String, firstRecord record: Int, of batch: RecordBatch) throws
        -> PostgresTable
    {
        let table = PostgresTable(name: name, physicalName: physicalName, existingColumns: nil, foldsNames: foldsNames)
        let position = batch.entries[record].position
        for field in batch.fields(of: record) {
            let bytes = batch.bytes(of: field)
            let (index, _) = try table.column(for: field.name, at: position)
            if let type = table.widening(index, toHold: HeldValue(field, bytes: bytes), empty: bytes.isEmpty) {
                table.didChangeType(index, to: type)
            }
            table.startCopying(index)
        }
        var definitions = table.columns.map { "\(PostgresIdentifier.quoted($0.name)) \($0.type.sql)" }
        if let keys {
            table.keyColumns = try keys.primaryKey.map { column in
                guard let index = table.columnIndex(named: column) else {
                    throw keys.missing(
                        column, table: name, fields: batch.fields(of: record).map(\.name.qualified), position: position)
                }
                return table.columns[index].name
            }
            definitions.append("PRIMARY KEY (\(TableDesign.Table.list(table.keyColumns)))")
        }
        try session.execute(
            "CREATE TABLE \(PostgresIdentifier.qualified(catalog.schema, physicalName)) (\(definitions.joined(separator: ", ")))",
            doing: "cannot create the table \(name)")
        return table
    }

    private func temporaryName() -> String {
        temporaryCount += 1
        return "ingest_\(runToken)_\(temporaryCount)"
    }

    /// Creates a design's tables (see ``TableDesign/Table/createStatement(schema:physicalName:parentPhysicalName:ifNotExists:)``)
    /// and, for an upsert, their staging tables. In ``PostgresOutput/Mode/create``,
    /// tables that exist are refused, all named, before any record is read.
    func prepare(_ design: TableDesign) throws {
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
            if mode == .create {
                let taken = try names.filter { try catalog.tableExists($0) }
                if !taken.isEmpty { throw exists(taken) }
            }
            for name in names { physicalNames[name] = temporaryName() }
        }
        for designed in design.tables {
            let physical = physicalNames[designed.name]!
            let indexes = designed.indexes(
                schema: catalog.schema, physicalName: physical, upsert: design.upsert,
                ifNotExists: mode == .append)
            if existing.contains(designed.name) {
                // An index the design declares that the table lacks (the unique index an
                // upsert needs, after plain imports), or a column a newer design added:
                // created once, imports taking turns.
                let stored = Set(try catalog.columns(of: designed.name).map(\.name))
                let missingColumns = designed.columns.filter { !stored.contains($0.name) }
                if try !missingColumns.isEmpty || indexes.contains(where: { try !catalog.indexExists($0.name) }) {
                    try catalog.lock([designed.name])
                    try addColumns(missingColumns, to: designed.name)
                    for index in indexes where try !catalog.indexExists(index.name) {
                        try session.execute(index.sql, doing: "cannot create an index on \(designed.name)")
                    }
                }
                try catalog.lockForWriting(designed.name, mayAlter: false)
            } else {
                let parent = designed.foreignKey.map { physicalNames[$0.parentTable] ?? $0.parentTable }
                try session.execute(
                    designed.createStatement(
                        schema: catalog.schema, physicalName: physical, parentPhysicalName: parent,
                        ifNotExists: mode == .append),
                    doing: "cannot create the table \(designed.name)")
                for index in indexes {
                    try session.execute(index.sql, doing: "cannot create an index on \(designed.name)")
                }
            }
            let columns = designed.allColumns.map {
                PostgresTable.Column(name: $0.name, type: PostgresColumnType(designed: $0.type), widens: false)
            }
            let table = PostgresTable(
                name: designed.name, physicalName: physical, existingColumns: columns, designed: designed)
            table.keyColumns = designed.primaryKey
            if design.upsert {
                table.stages = true
                table.keepsUncarried = !design.upsertNulls && !designed.primaryKey.isEmpty
                for sql in stagingStatements(for: table) {
                    try session.execute(sql, doing: "cannot create a staging table for \(designed.name)")
                }
            }
            tables[ExactString(designed.name)] = table
            tableOrder.append(table)
        }
    }

    /// Adds to a table made by an earlier version of its design the columns the
    /// design has gained since (`ADD COLUMN IF NOT EXISTS`: a run that took its turn
    /// first may have added them). A new column must be nullable: its old rows have
    /// no value for it.
    private func addColumns(_ columns: [TableDesign.Column], to table: String) throws {
        for column in columns {
            guard !column.notNull else {
                throw IngestError(
                    .output,
                    "the table \(table) has no column \(column.name), which cannot be added to its rows (NOT NULL)")
            }
            let sql =
                "ALTER TABLE \(PostgresIdentifier.qualified(catalog.schema, table)) ADD COLUMN IF NOT EXISTS "
                + "\(PostgresIdentifier.quoted(column.name)) \(PostgresColumnType(designed: column.type).sql)"
            try session.execute(sql, doing: "cannot add the column \(column.name) to \(table)")
        }
    }

    /// What (re)creates the table's staging table, a session-private copy of its
    /// columns, and a column counting rows in input order (and, when the rows update
    /// only the columns they carry, one of the columns each carries), named apart
    /// from the table's own; an old staging table is dropped first.
    private func stagingStatements(for table: PostgresTable) -> [String] {
        let names = Set(table.columns.map(\.name))
        table.orderColumn = "ingest order"
        while names.contains(table.orderColumn) { table.orderColumn += "_" }
        table.carriedColumn = "ingest fields"
        while names.contains(table.carriedColumn) { table.carriedColumn += "_" }
        var statements = table.stagingName.map { ["DROP TABLE \(PostgresIdentifier.quoted($0))"] } ?? []
        temporaryCount += 1
        let staging = PostgresIdentifier.quoted("ingest_stage_\(temporaryCount)")
        table.stagingName = "ingest_stage_\(temporaryCount)"
        table.stagingIsStale = false
        statements.append(
            "CREATE TEMPORARY TABLE \(staging) (LIKE \(PostgresIdentifier.qualified(catalog.schema, table.physicalName))) ON COMMIT DROP"
        )
        statements.append(
            "ALTER TABLE \(staging) ADD COLUMN \(PostgresIdentifier.quoted(table.orderColumn)) bigint GENERATED ALWAYS AS IDENTITY"
        )
        if table.keepsUncarried {
            statements.append(
                "ALTER TABLE \(staging) ADD COLUMN \(PostgresIdentifier.quoted(table.carriedColumn)) text")
        }
        return statements
    }

    // MARK: rows

    /// Finds each field's column — adding or widening columns where a value needs it,
    /// after the rows buffered for the old columns have gone out — then encodes the row.
    private func insert(_ record: Int, of batch: RecordBatch, into table: PostgresTable) throws {
        let fields = batch.fields(of: record)
        let position = batch.entries[record].position
        columnOfField.removeAll(keepingCapacity: true)
        heldValues.removeAll(keepingCapacity: true)
        for field in fields {
            let bytes = batch.bytes(of: field)
            let held = HeldValue(field, bytes: bytes)
            let (index, change) = try field.unmanagedName._withUnsafeGuaranteedRef {
                try table.column(for: $0, at: position)
            }
            let widened = table.widening(index, toHold: held, empty: bytes.isEmpty)
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
            heldValues.append(held)
        }
        if let keys {
            try keys.check(
                table.keyColumns, of: table.name, fields: fields, columnOfField: columnOfField,
                columnIndex: table.columnIndex(named:), position: position)
        }
        if table.keepsUncarried { try noteCarriedColumns(of: fields, in: batch, table: table) }
        try encode(fields, of: batch, at: position, into: table)
    }

    /// Notes the columns the record carries, for the merge (``mergeStatements(for:)``):
    /// a key staged already with other columns carried sends the staged rows first, so
    /// that each key's rows in one merge carry the same columns and the last one wins.
    private func noteCarriedColumns(
        of fields: ArraySlice<RecordBatch.Field>, in batch: RecordBatch, table: PostgresTable
    ) throws {
        carried.removeAll(keepingCapacity: true)
        carried.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: table.columns.count))
        for column in columnOfField { carried[column] = UInt8(ascii: "1") }
        var key: [UInt8] = []
        for column in table.keyColumns {
            guard let index = table.columnIndex(named: column), let field = columnOfField.firstIndex(of: index) else {
                continue
            }
            let bytes = batch.bytes(of: fields[fields.startIndex + field])
            withUnsafeBytes(of: UInt32(bytes.count).littleEndian) { key.append(contentsOf: $0) }
            key.append(contentsOf: bytes)
        }
        let set = String(decoding: carried, as: UTF8.self)
        var number = table.stagedColumnSets.firstIndex(of: set)
        // At most 32 sets a merge: one statement each.
        if table.stagedKeys[key].map({ $0 != number }) ?? false || (number == nil && table.stagedColumnSets.count >= 32)
        {
            try flush(table)
            number = nil
        }
        if number == nil {
            table.stagedColumnSets.append(set)
            number = table.stagedColumnSets.count - 1
        }
        table.stagedKeys[key] = number
    }

    /// Appends the row to the table's buffer: its fields in the order of the columns
    /// copied, `\N` for a column no field fills.
    private func encode(
        _ fields: ArraySlice<RecordBatch.Field>, of batch: RecordBatch, at position: SourcePosition,
        into table: PostgresTable
    ) throws {
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
            let bytes = batch.bytes(of: fields[fields.startIndex + field])
            do {
                try rowLength.check(
                    rowBytes: table.buffer.writerIndex - start, adding: bytes.count,
                    field: fields[fields.startIndex + field].name.qualified, table: table.name, position: position)
            } catch {
                table.buffer.moveWriterIndex(to: start)
                throw error
            }
            do {
                try CopyTextEncoder.append(
                    bytes, holding: heldValues[field], typed: table.columns[column].type,
                    emptyJSON: table.emptyJSON(forColumn: column), to: &table.buffer)
            } catch {
                table.buffer.moveWriterIndex(to: start)
                throw IngestError(
                    .data,
                    "the field \(fields[fields.startIndex + field].name.qualified) holds the character U+0000, which PostgreSQL text cannot store",
                    position: position)
            }
        }
        if table.keepsUncarried {
            table.buffer.writeInteger(UInt8(ascii: "\t"))
            table.buffer.writeBytes(carried)
        }
        table.buffer.writeInteger(UInt8(ascii: "\n"))
        table.didEncodeRow(at: position)
        bufferedBytes += table.buffer.writerIndex - start
    }

    private func addColumn(_ index: Int, to table: PostgresTable) throws {
        try flush(table)
        let column = table.columns[index]
        // Another import with --alter may have added it since this one read the columns.
        let ifNotExists = table.createdHere ? "" : "IF NOT EXISTS "
        table.stagingIsStale = true
        try session.execute(
            "ALTER TABLE \(PostgresIdentifier.qualified(catalog.schema, table.physicalName)) ADD COLUMN \(ifNotExists)\(PostgresIdentifier.quoted(column.name)) \(column.type.sql)",
            doing: "cannot add the column \(column.name) to \(table.name)")
        table.startCopying(index)
    }

    /// Widens a column this import created, converting the rows it holds; rows still
    /// buffered go out first, encoded for the old type.
    private func changeType(of index: Int, in table: PostgresTable, to type: PostgresColumnType) throws {
        try flush(table)
        let column = table.columns[index]
        let quoted = PostgresIdentifier.quoted(column.name)
        let conversion: String
        if type == .jsonb {
            // A column of empty nested elements ('') meets nested data: '' becomes [] or {}.
            conversion =
                "CASE WHEN \(quoted) IS NULL THEN NULL ELSE '\(table.emptyJSON(forColumn: index) ?? "{}")'::jsonb END"
        } else {
            conversion = column.type.conversion(of: quoted, to: type)
        }
        table.stagingIsStale = true
        try session.execute(
            "ALTER TABLE \(PostgresIdentifier.qualified(catalog.schema, table.physicalName)) ALTER COLUMN \(quoted) TYPE \(type.sql) USING \(conversion)",
            doing: "cannot widen the column \(column.name) of \(table.name) to \(type.sql)")
        table.didChangeType(index, to: type)
    }

    // MARK: batches

    /// Sends every table's buffered rows, parents before children; for an upsert, merges
    /// each staging table into its table once all are filled.
    func flushAll() throws {
        for table in tableOrder { try flush(table) }
    }

    /// For an upsert, what moves a table's staged rows into it; nothing is deleted:
    ///
    /// - with a primary key: the last row staged for each key is inserted, or updates
    ///   the row with that key (`ON CONFLICT (key) DO UPDATE`) — the columns its record
    ///   carries, one statement per set of columns carried (a key's staged rows all
    ///   carry the same, see ``noteCarriedColumns(of:in:table:)``), or every column
    ///   with ``/IngestCore/TableDesign/upsertNulls``; rows go in key order, so two
    ///   imports upserting the same keys lock them in the same order;
    /// - a child table without one: rows that are not there yet are inserted, in input
    ///   order, and those that are (by the unique index over all columns) are skipped;
    /// - any other table: every row is inserted.
    private func mergeStatements(for table: PostgresTable) -> [String] {
        guard let staging = table.stagingName else { return [] }
        let target = PostgresIdentifier.qualified(catalog.schema, table.physicalName)
        let order = PostgresIdentifier.quoted(table.orderColumn)
        let copied = table.designed?.allColumns.map(\.name) ?? table.copiedColumns.map { table.columns[$0].name }
        let source = PostgresIdentifier.quoted(staging)
        guard !table.keyColumns.isEmpty else {
            let columns = TableDesign.Table.list(copied)
            let conflict = table.designed?.foreignKey != nil ? " ON CONFLICT DO NOTHING" : ""
            return ["INSERT INTO \(target) (\(columns)) SELECT \(columns) FROM \(source) ORDER BY \(order)\(conflict)"]
        }
        let key = TableDesign.Table.list(table.keyColumns)
        func merge(_ names: [String], updating updated: [String], where condition: String) -> String {
            let columns = TableDesign.Table.list(names)
            return """
                INSERT INTO \(target) (\(columns)) SELECT \(columns) FROM (SELECT *, row_number() OVER (PARTITION BY \(key) ORDER BY \(order) DESC) AS "ingest last" \
                FROM \(source)\(condition)) AS latest WHERE "ingest last" = 1 ORDER BY \(key) \
                \(UpsertSQL.onConflict(key: table.keyColumns, updating: updated, quote: PostgresIdentifier.quoted))
                """
        }
        // The whole row: a column no record filled takes its default, as in a new row.
        guard table.keepsUncarried else { return [merge(copied, updating: table.columns.map(\.name), where: "")] }
        let carried = PostgresIdentifier.quoted(table.carriedColumn)
        return table.stagedColumnSets.map { set in
            let names = zip(table.columns, set.utf8).filter { $0.1 == UInt8(ascii: "1") }.map(\.0.name)
            return merge(names, updating: names, where: " WHERE \(carried) = '\(set)'")
        }
    }

    /// Queues a `COPY` of the table's buffered rows (into its staging table for an
    /// upsert, emptied first) and starts a new buffer.
    private func flush(_ table: PostgresTable) throws {
        guard table.buffer.readableBytes > 0 else { return }
        if table.stages, table.stagingIsStale || table.stagingName == nil {
            // A table grown from the records: its staging table follows its columns.
            for sql in stagingStatements(for: table) {
                try session.submit { connection in
                    try await connection.query(PostgresQuery(unsafeSQL: sql), logger: PostgresSession.logger)
                }
            }
        }
        let merges = mergeStatements(for: table)
        table.stagedColumnSets.removeAll(keepingCapacity: true)
        table.stagedKeys.removeAll(keepingCapacity: true)
        let data = table.buffer
        let positions = table.positions
        bufferedBytes -= data.readableBytes
        table.buffer = ByteBuffer()
        table.buffer.reserveCapacity(min(data.readableBytes + data.readableBytes / 4, batchSize + batchSize / 4))
        table.positions = []
        table.positions.reserveCapacity(positions.count)

        let staging = table.stagingName
        let target =
            staging.map(PostgresIdentifier.escaped) ?? PostgresIdentifier.escaped(catalog.schema) + "\".\""
            + PostgresIdentifier.escaped(table.physicalName)
        let columns =
            table.copiedColumns.map { PostgresIdentifier.escaped(table.columns[$0].name) }
            + (table.keepsUncarried ? [PostgresIdentifier.escaped(table.carriedColumn)] : [])
        let name = table.name
        let where_ = session.target, lockTimeout = session.lockTimeout
        if columns.isEmpty {
            // Records without fields: rows of defaults (COPY with no column list would expect every column).
            let sql =
                "INSERT INTO \(PostgresIdentifier.qualified(catalog.schema, table.physicalName)) SELECT FROM generate_series(1, \(positions.count))"
            try session.submit { connection in
                try await connection.query(PostgresQuery(unsafeSQL: sql), logger: PostgresSession.logger)
            }
            return
        }
        try session.submit { connection in
            if let staging {
                try await connection.query(
                    PostgresQuery(unsafeSQL: "TRUNCATE \(PostgresIdentifier.quoted(staging))"),
                    logger: PostgresSession.logger)
            }
            do {
                try await connection.copyFrom(table: target, columns: columns, logger: PostgresSession.logger) {
                    writer in
                    try await writer.write(data)
                }
            } catch {
                var failure = PostgresFailure.ingestError(
                    error, doing: "cannot insert into \(name)", target: where_, lockTimeout: lockTimeout)
                if failure.position == nil, let line = Self.copyLine(of: error), line >= 1, line <= positions.count {
                    failure.position = positions[line - 1]
                }
                throw failure
            }
        }
        for sql in merges {
            try session.submit { connection in
                try await connection.query(PostgresQuery(unsafeSQL: sql), logger: PostgresSession.logger)
            }
        }
    }

    /// The row a COPY error is about: "line N" in the server's context,
    /// `COPY people, line 3, column age: "abc"`.
    static func copyLine(of error: any Error) -> Int? {
        guard let error = error as? PSQLError, let context = error.serverInfo?[.locationContext],
            let range = context.range(of: ", line ")
        else { return nil }
        return Int(context[range.upperBound...].prefix { $0.isNumber })
    }

    /// Gives empty nested elements stored as '' (before their column was known to hold
    /// JSON) the empty JSON value of the column's shape, as the SQLite output does, in
    /// the tables this import created.
    private func fillEmptyNestedElements() throws {
        for table in tableOrder where table.createdHere {
            for (index, column) in table.columns.enumerated()
            where column.holdsEmptyText && column.type == .text && column.jsonShape != nil {
                let quoted = PostgresIdentifier.quoted(column.name)
                let sql = """
                    UPDATE \(PostgresIdentifier.qualified(catalog.schema, table.physicalName)) \
                    SET \(quoted) = '\(table.emptyJSON(forColumn: index)!)' WHERE \(quoted) = ''
                    """
                try session.submit { connection in
                    try await connection.query(PostgresQuery(unsafeSQL: sql), logger: PostgresSession.logger)
                }
            }
        }
    }
}
