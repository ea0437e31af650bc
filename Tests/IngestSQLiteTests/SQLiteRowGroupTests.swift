import GRDB
import GRDBSQLite
import Testing
@testable import IngestCore
@testable import IngestSQLite

/// Rows that go in sixteen to a statement (``SQLiteRowGroup``) make the same tables as
/// rows that go in one by one: the same columns and types, the same values of the
/// same storage classes, in the same order, whatever happens to the table while rows
/// wait — a new column, a type widened by a rebuild, a commit, another table's row.
@Suite("SQLiteRowGroup: rows inserted together, as if one by one")
struct SQLiteRowGroupTests {
    let names = NameTable()

    func number(_ text: String) -> FieldValue {
        var text = text
        return text.withUTF8 { FieldValue.inferring($0) }
    }

    func jsonNumber(_ text: String) -> FieldValue {
        var text = text
        return text.withUTF8 { FieldValue.jsonNumber($0) }
    }

    /// Records of two tables, mostly in runs of one table, whose fields change as
    /// they go: `late` appears at record 50; `r`'s JSON decimals are reals until text
    /// arrives at 83 (a rebuild, which turns the real 1.50 to '1.5', as a waiting row's
    /// must be too, where a row after it keeps the JSON's text, '1.50'); `n` turns from integers to reals at 40; `tags` is
    /// empty before it is JSON; some fields are missing, NULL, booleans or data.
    func mixedRecords() -> [IngestRecord] {
        var records: [IngestRecord] = []
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(bound))
        }
        for index in 0..<300 {
            let table = index % 50 < 40 ? "a" : (index % 3 == 0 ? "a" : "b")
            var fields: [(String, FieldValue)] = [("id", number("\(index)"))]
            fields.append(("n", index < 40 ? number("\(next(1000))") : number("\(next(1000)).25")))
            if index != 83 {
                fields.append(("r", jsonNumber("1.50")))
            } else {
                fields.append(("r", .text("abc")))
            }
            if index >= 50 { fields.append(("late", .text("late \(index)"))) }
            switch next(6) {
            case 0: fields.append(("opt", .null))
            case 1: fields.append(("opt", .bool(index % 2 == 0)))
            case 2: fields.append(("opt", .data([0, UInt8(index & 0xFF), 0xFF])))
            case 3: fields.append(("opt", .text("")))
            default: break
            }
            fields.append(("tags", index < 120 && index % 4 != 0 ? .text("") : .json(#"["t\#(index)"]"#, .array)))
            records.append(
                IngestRecord(
                    table: table, fields: fields.map { IngestRecord.Field(name: names.intern($0.0), value: $0.1) },
                    position: SourcePosition(line: index + 1, column: 1, byteOffset: index * 10)))
        }
        return records
    }

    /// Every table's definition and every row, each value `quote()`d (which tells an
    /// integer from a real from text from a blob), in rowid order.
    func contents(of queue: DatabaseQueue) throws -> [String] {
        try queue.read { db in
            var lines: [String] = []
            for (name, sql) in try Row.fetchAll(db, sql: "SELECT name, sql FROM sqlite_master ORDER BY name").map({
                ($0[0] as String, $0[1] as String)
            }) {
                lines.append(sql)
                let columns = try db.columns(in: name).map { "quote(\($0.name.quotedSQLIdentifier))" }
                let select = "SELECT \(columns.joined(separator: ", ")) FROM \(name.quotedSQLIdentifier) ORDER BY rowid"
                lines += try Row.fetchAll(db, sql: select).map { row in
                    row.databaseValues.map { String.fromDatabaseValue($0) ?? "?" }.joined(separator: "|")
                }
            }
            return lines
        }
    }

    /// `records` written into a new database in batches of `sizes` (cycled), by a sink
    /// committing every `commitEvery` rows.
    func write(_ records: [IngestRecord], batchesOf sizes: [Int], commitEvery: Int?) throws -> DatabaseQueue {
        let queue = try DatabaseQueue()
        try queue.inDatabase { db in
            let sink = SQLiteSink(database: db, batchSize: commitEvery)
            var start = 0, turn = 0
            while start < records.count {
                let batch = RecordBatch()
                let end = min(records.count, start + sizes[turn % sizes.count])
                for record in records[start..<end] { batch.append(record) }
                try sink.write(batch)
                start = end
                turn += 1
            }
            try sink.finish()
        }
        return queue
    }

    @Test(
        "in batches, with commits between and inside them, the tables are those of rows one by one",
        arguments: [[1000], [16], [17, 5, 64], [300]], [nil, 25, 16])
    func sameTablesAsOneByOne(sizes: [Int], commitEvery: Int?) throws {
        let records = mixedRecords()
        let oneByOne = try contents(of: write(records, batchesOf: [1], commitEvery: nil))
        let grouped = try contents(of: write(records, batchesOf: sizes, commitEvery: commitEvery))
        #expect(oneByOne.count == 300 + 2)
        #expect(grouped == oneByOne)
        // The rebuild turned `a.r` to text: the reals stored before it read '1.5', the
        // decimals after it keep their text.
        #expect(oneByOne.contains { $0.contains(#""r" TEXT"#) })
        #expect(oneByOne.contains { $0.contains("|'1.5'|") })
        #expect(oneByOne.contains { $0.contains("|'1.50'|") })
    }

    @Test("a table of 1,500 columns still goes in sixteen rows a statement, within the parameter limit")
    func wideRows() throws {
        var records: [IngestRecord] = []
        for row in 0..<40 {
            let fields = (0..<1500).map { column in
                IngestRecord.Field(name: names.intern("c\(column)"), value: number("\(row * 10_000 + column)"))
            }
            records.append(IngestRecord(table: "wide", fields: fields, position: .start))
        }
        let grouped = try write(records, batchesOf: [40], commitEvery: nil)
        #expect(try contents(of: grouped) == contents(of: write(records, batchesOf: [1], commitEvery: nil)))
        let expected: Int = (0..<40).map { $0 * 10_000 + 1499 }.reduce(0, +)
        let stored: Int? = try grouped.read { try Int.fetchOne($0, sql: "SELECT sum(c1499) FROM wide") }
        #expect(stored == expected)
    }

    @Test("records that each bring a new field: the batch's new columns are made at once, the table as one by one")
    func aColumnPerRecord() throws {
        var records: [IngestRecord] = []
        for row in 0..<1200 {
            let fields = [
                IngestRecord.Field(name: names.intern("id"), value: number("\(row)")),
                IngestRecord.Field(
                    name: names.intern("k\(row)"), value: row % 3 == 0 ? .text("t\(row)") : number("\(row)"))
            ]
            records.append(IngestRecord(table: "grow", fields: fields, position: .start))
        }
        let batched = try write(records, batchesOf: [1024], commitEvery: nil)
        let oneByOne = try write(records, batchesOf: [1], commitEvery: nil)
        #expect(try contents(of: batched) == contents(of: oneByOne))
        let columns: Int? = try batched.read {
            try Int.fetchOne($0, sql: "SELECT count(*) FROM pragma_table_info('grow')")
        }
        #expect(columns == 1201)
        let row: [String?] = try batched.read { db in
            let sql =
                "SELECT CAST(k999 AS TEXT), CAST(k1000 AS TEXT), CAST(k1199 AS TEXT), typeof(k1000) FROM grow WHERE id = 1000"
            let values = try Row.fetchOne(db, sql: sql)!
            return (0..<4).map { values[$0] as String? }
        }
        #expect(row == [nil, "1000", nil, "integer"])
        // Each ALTER TABLE changes the schema once; a batch's new columns at once, a few times.
        let changes: Int? = try batched.read { try Int.fetchOne($0, sql: "PRAGMA schema_version") }
        let alteredOneByOne: Int? = try oneByOne.read { try Int.fetchOne($0, sql: "PRAGMA schema_version") }
        #expect((changes ?? .max) < 20, "\(String(describing: changes))")
        #expect((alteredOneByOne ?? 0) > 1000)
    }

    @Test("a full group takes sixteen rows, fewer when its values would pass the statement's parameter limit")
    func rowsPerGroup() {
        func table(columns: Int) -> SQLiteTable {
            SQLiteTable(
                name: "t",
                existingColumns: (0..<columns).map {
                    SQLiteTable.Column(name: "c\($0)", type: .untyped, jsonShape: nil)
                })
        }
        #expect(table(columns: 9).rowsPerGroup(parameterLimit: 32766) == 16)
        #expect(table(columns: 2000).rowsPerGroup(parameterLimit: 32766) == 16)
        #expect(table(columns: 100).rowsPerGroup(parameterLimit: 999) == 9)
        #expect(table(columns: 9).rowsPerGroup(parameterLimit: 10) == 1)
        #expect(table(columns: 0).rowsPerGroup(parameterLimit: 32766) == 16)
    }

    @Test("a value too long for SQLite, in the middle of a group, is refused at its own record's position")
    func refusedValueKeepsItsPosition() throws {
        let queue = try DatabaseQueue()
        let error = #expect(throws: IngestError.self) {
            try queue.inDatabase { db in
                sqlite3_limit(db.sqliteConnection, SQLITE_LIMIT_LENGTH, 1000)
                let sink = SQLiteSink(database: db)
                let batch = RecordBatch()
                for index in 0..<40 {
                    let value = index == 21 ? String(repeating: "x", count: 2000) : "short"
                    batch.append(
                        IngestRecord(
                            table: "t", fields: [.init(name: names.intern("v"), value: .text(value))],
                            position: SourcePosition(line: index + 1, column: 3, byteOffset: index * 100)))
                }
                do {
                    try sink.write(batch)
                } catch {
                    sink.abandon()
                    throw error
                }
            }
        }
        #expect(error?.kind == .data)
        #expect(error?.position?.line == 22)
        #expect(error?.message.contains("field v in table t is 2000 bytes") == true)
    }
}
