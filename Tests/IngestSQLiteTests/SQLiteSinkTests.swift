import Foundation
import GRDB
import Testing
@testable import IngestSQLite
@testable import IngestCore
import IngestTesting
import IngestTestSupport

@Suite struct SQLiteSinkTests {
    let names = NameTable()

    func record(_ table: String, _ fields: [(String, FieldValue)], at position: SourcePosition = .start)
        -> IngestRecord
    {
        IngestRecord(
            table: table, fields: fields.map { IngestRecord.Field(name: names.intern($0.0), value: $0.1) },
            position: position)
    }

    func number(_ text: String) -> FieldValue {
        var text = text
        return text.withUTF8 { FieldValue.inferring($0) }
    }

    /// Writes `records` into a fresh in-memory database and returns it.
    func write(_ records: [IngestRecord]) throws -> DatabaseQueue {
        let queue = try DatabaseQueue()
        try queue.inDatabase { db in
            let sink = SQLiteSink(database: db)
            do {
                for record in records { try sink.write(record) }
                try sink.finish()
            } catch {
                sink.abandon()
                throw error
            }
        }
        return queue
    }

    @Test("Names that differ only in Unicode normalisation are two columns; ASCII case makes a suffixed one")
    func namesCompareByBytes() throws {
        let precomposed = "\u{C1}c", decomposed = "A\u{301}c"
        let queue = try write([
            record("t", [(precomposed, .text("1")), (decomposed, .text("2")), ("ID", .text("3")), ("id", .text("4"))])
        ])
        try queue.read { (db: Database) throws in
            #expect(
                try db.columns(in: "t").map { Array($0.name.utf8) }
                    == [precomposed, decomposed, "ID", "id_2"].map { Array($0.utf8) })
            #expect(try String.fetchAll(db, sql: "SELECT * FROM t").count == 1)
        }
    }

    @Test("Names from two name tables (two inputs) never share a cached column")
    func namesOfTwoTables() throws {
        let other = NameTable()
        _ = other.intern("b")  // so "a" has another id in this table than in `names`
        let first = record("t", [("a", .text("1")), ("b", .text("2"))])
        let second = IngestRecord(
            table: "t",
            fields: [
                .init(name: other.intern("a"), value: .text("3")),
                .init(name: other.intern("b"), value: .text("4"))
            ])
        let queue = try write([first, second])
        try queue.read { (db: Database) throws in
            #expect(
                try Row.fetchAll(db, sql: "SELECT a, b FROM t ORDER BY rowid").map {
                    [$0[0] as String, $0[1] as String]
                } == [["1", "2"], ["3", "4"]])
        }
    }

    @Test func identifierQuoting() {
        #expect("people".quotedSQLIdentifier == #""people""#)
        #expect(#"a"b""#.quotedSQLIdentifier == #""a""b""""#)
        #expect("nul\u{0}é".quotedSQLIdentifier == "\"nul\u{FFFD}é\"")
        #expect(#""\#u{0}""#.quotedSQLIdentifier == "\"\"\"\u{FFFD}\"\"\"")
        #expect("".quotedSQLIdentifier == #""""#)
    }

    @Test func hostileNamesAreQuotedIdentifiers() throws {
        let evil = #"x"); DROP TABLE people; --"#
        let queue = try write([
            record("people", [("firstName", .text("Matt"))]),
            record("people", [(evil, .text("boom")), ("select", .text("s"))]),
            record(#"we"ird table"#, [("", .text("empty name"))])
        ])
        try queue.read { (db: Database) throws in
            #expect(try db.tableExists("people"))
            let columns = try db.columns(in: "people").map { $0.name }
            #expect(columns == ["firstName", evil, "select"])
            #expect(
                try String.fetchOne(db, sql: "SELECT \(evil.quotedSQLIdentifier) FROM people WHERE rowid = 2") == "boom"
            )
            #expect(try db.tableExists(#"we"ird table"#))
        }
    }

    @Test(
        "Names SQLite keeps to itself or cannot read: sqlite_ tables get a _ in front, a NUL is U+FFFD (found by the fuzzer)"
    )
    func reservedAndNULNames() throws {
        let queue = try write([
            record("sqlite_authors", [("name", .text("Ann"))]),
            record("SQLite_Master", [("k\u{0}x", .text("nul in a column"))]),
            record("a\u{0}b", [("v", .text("nul in a table"))]),
            record("sqlite", [("v", .text("short names are SQLite's only with the underscore"))])
        ])
        try queue.read { (db: Database) throws in
            let tables = try String.fetchAll(
                db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY rowid")
            #expect(tables == ["_sqlite_authors", "_SQLite_Master", "a\u{FFFD}b", "sqlite"])
            #expect(try String.fetchOne(db, sql: "SELECT name FROM _sqlite_authors") == "Ann")
            #expect(try db.columns(in: "_SQLite_Master").map(\.name) == ["k\u{FFFD}x"])
        }
    }

    @Test func columnTypesFollowValuesAndWidenWithoutLoss() throws {
        let queue = try write([
            record("t", [("n", number("1")), ("r", number("2")), ("s", number("3"))]),
            record("t", [("n", number("4")), ("r", number("2.5")), ("s", number("007"))]),
            record("t", [("n", number("5")), ("r", number("-3.25")), ("s", number("1.50"))])
        ])
        try queue.read { (db: Database) throws in
            let types = try Row.fetchAll(db, sql: "SELECT name, type FROM pragma_table_info('t')").map {
                "\($0["name"] as String) \($0["type"] as String)"
            }
            #expect(types == ["n INTEGER", "r REAL", "s TEXT"])
            #expect(try Int.fetchAll(db, sql: "SELECT n FROM t") == [1, 4, 5])
            #expect(try Double.fetchAll(db, sql: "SELECT r FROM t") == [2, 2.5, -3.25])
            #expect(try String.fetchAll(db, sql: "SELECT s FROM t") == ["3", "007", "1.50"])
            #expect(try String.fetchAll(db, sql: "SELECT typeof(s) FROM t") == ["text", "text", "text"])
        }
    }

    @Test func fieldsFirstSeenLaterAddColumns() throws {
        let queue = try write([
            record("t", [("a", .text("x"))]),
            record("t", [("b", number("2")), ("a", .text("y"))])
        ])
        try queue.read { (db: Database) throws in
            let columns = try db.columns(in: "t").map { $0.name }
            #expect(columns == ["a", "b"])
            let rows = try Row.fetchAll(db, sql: "SELECT a, b FROM t")
            #expect(rows[0]["b"] as Int? == nil)
            #expect(rows[1]["b"] as Int? == 2)
            #expect(rows[1]["a"] as String? == "y")
        }
    }

    @Test func namesDifferingOnlyInCaseGetTheirOwnColumns() throws {
        let queue = try write([record("t", [("id", number("1")), ("ID", number("2")), ("Id", number("3"))])])
        try queue.read { (db: Database) throws in
            let columns = try db.columns(in: "t").map { $0.name }
            #expect(columns == ["id", "ID_2", "Id_3"])
            #expect(try Row.fetchOne(db, sql: "SELECT * FROM t")?[1] as Int? == 2)
        }
    }

    @Test func emptyNestedValuesBecomeEmptyJSONOnceTheColumnIsKnownToHoldJSON() throws {
        let queue = try write([
            record("t", [("tags", .text(""))]),
            record("t", [("tags", .json(#"["a"]"#, .array))])
        ])
        try queue.read { (db: Database) throws in
            #expect(try String.fetchAll(db, sql: "SELECT tags FROM t") == ["[]", #"["a"]"#])
        }
    }

    @Test func aRowWithFewerFieldsLeavesTheOthersNull() throws {
        // Bindings are cleared after every row; a stale one would repeat "y".
        let queue = try write([
            record("t", [("a", .text("x")), ("b", .text("y")), ("n", number("7"))]),
            record("t", [("a", .text(""))]),
            record("t", [("b", .text("é"))])
        ])
        try queue.read { (db: Database) throws in
            let rows = try Row.fetchAll(db, sql: "SELECT a, b, n FROM t")
            #expect(rows.map { $0["a"] as String? } == ["x", "", nil])
            #expect(rows.map { $0["b"] as String? } == ["y", nil, "é"])
            #expect(rows.map { $0["n"] as Int? } == [7, nil, nil])
        }
    }

    @Test func afterBatchIsCalledOnceForEveryCommittedBatch() throws {
        var batches = 0
        let queue = try DatabaseQueue()
        try queue.inDatabase { db in
            let sink = SQLiteSink(database: db, batchSize: 2, afterBatch: { batches += 1 })
            for index in 0..<5 { try sink.write(record("t", [("i", number("\(index)"))])) }
            try sink.finish()
        }
        #expect(batches == 2)
        #expect(try queue.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM t") } == 5)
    }

    @Test func hugeAndUnicodeValuesSurvive() throws {
        let huge = String(repeating: "Zoë 田中 😀 ", count: 200_000)
        let queue = try write([record("t", [("v", .text(huge)), ("e", .text(""))])])
        try queue.read { (db: Database) throws in
            #expect(try String.fetchOne(db, sql: "SELECT v FROM t") == huge)
            #expect(try String.fetchOne(db, sql: "SELECT e FROM t") == "")
            #expect(try String.fetchOne(db, sql: "SELECT typeof(e) FROM t") == "text")
        }
    }

    @Test func dataIsStoredAsBlobsWithEveryByte() throws {
        let bytes: [UInt8] = [0, 1, 2, 0, 0xFF, 0x80]
        let queue = try write([
            record("t", [("d", .data(bytes)), ("e", .data([])), ("n", .null)]),
            record("t", [("d", .data([0])), ("e", .data(Array(repeating: 7, count: 100_000)))])
        ])
        try queue.read { (db: Database) throws in
            let types = try Row.fetchAll(db, sql: "SELECT name, type FROM pragma_table_info('t')").map {
                "\($0["name"] as String) \($0["type"] as String)"
            }
            #expect(types == ["d BLOB", "e BLOB", "n "], "n has held only NULL: untyped")
            let rows = try Row.fetchAll(db, sql: "SELECT d, typeof(d), e, typeof(e), e IS NULL, length(e) FROM t")
            #expect(rows.map { $0[0] as Data? } == [Data(bytes), Data([0])])
            #expect(rows.map { $0[1] as String } == ["blob", "blob"])
            // Empty data is an empty BLOB, not NULL.
            #expect(rows[0][2] as Data? == Data())
            #expect(rows[0][3] as String == "blob")
            #expect(rows[0][4] as Int == 0)
            #expect(rows.map { $0[5] as Int } == [0, 100_000])
        }
    }

    @Test func aColumnHoldingDataAndOtherValuesKeepsThemAll() throws {
        // Text and a number first, then data (the column widens to BLOB and is
        // rebuilt), then text and a number again; and data first, then text.
        let queue = try write([
            record("t", [("m", .text("abc")), ("n", number("42")), ("b", .data([1, 2]))]),
            record("t", [("m", .data([0, 0xFE])), ("n", .data([9])), ("b", .text("words"))]),
            record("t", [("m", .text("")), ("n", number("7")), ("b", number("2.5"))])
        ])
        try queue.read { (db: Database) throws in
            let types = try Row.fetchAll(db, sql: "SELECT name, type FROM pragma_table_info('t')").map {
                "\($0["name"] as String) \($0["type"] as String)"
            }
            #expect(types == ["m BLOB", "n BLOB", "b BLOB"])
            #expect(
                try String.fetchAll(db, sql: "SELECT typeof(m) || ' ' || typeof(n) || ' ' || typeof(b) FROM t")
                    == ["text integer blob", "blob blob text", "text integer real"])
            let rows = try Row.fetchAll(db, sql: "SELECT m, n, b FROM t")
            #expect(rows[0]["m"] as String? == "abc")
            #expect(rows[0]["n"] as Int? == 42)
            #expect(rows[0]["b"] as Data? == Data([1, 2]))
            #expect(rows[1]["m"] as Data? == Data([0, 0xFE]))
            #expect(rows[1]["n"] as Data? == Data([9]))
            #expect(rows[1]["b"] as String? == "words")
            #expect(rows[2]["m"] as String? == "")
            #expect(rows[2]["n"] as Int? == 7)
            #expect(rows[2]["b"] as Double? == 2.5)
        }
    }

    @Test func appendingReadsABlobColumnBackAsBlob() throws {
        let queue = try DatabaseQueue()
        try queue.inDatabase { db in
            let first = SQLiteSink(database: db)
            try first.write(record("t", [("d", .data([1]))]))
            try first.finish()
            // A second run into the existing table: the column is BLOB, so a number
            // is stored as a number (a TEXT column would have made it '5').
            let second = SQLiteSink(database: db)
            try second.write(record("t", [("d", number("5"))]))
            try second.write(record("t", [("d", .data([]))]))
            try second.finish()
        }
        try queue.read { (db: Database) throws in
            #expect(try String.fetchAll(db, sql: "SELECT typeof(d) FROM t") == ["blob", "integer", "blob"])
        }
    }

    @Test(arguments: [
        ("BLOB", SQLiteAffinity.blob), ("blob", .blob), ("LONGBLOB", .blob), ("", .untyped),
        ("TEXT", .text), ("CLOB", .text), ("INTEGER", .integer), ("REAL", .real)
    ])
    func declaredTypesReadAsSQLiteAffinityDoes(declared: String, expected: SQLiteAffinity) {
        #expect(SQLiteAffinity(declared: declared) == expected)
    }

    @Test("A widened type's affinity is the wider of the two affinities, so only an affinity change rebuilds")
    func renderingKeepsWidening() {
        for first in ColumnType.allCases {
            for second in ColumnType.allCases {
                let affinity = SQLiteAffinity(first.widened(toHold: second))
                #expect(affinity == max(SQLiteAffinity(first), SQLiteAffinity(second)), "\(first), \(second)")
            }
        }
    }

    /// An in-memory database holding `t(a TEXT)` with one row, as a run before this one left it.
    func existingDatabase() throws -> DatabaseQueue {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE t (a TEXT); INSERT INTO t VALUES ('old')")
        }
        return queue
    }

    @Test(arguments: [false, true])
    func anExistingTableRefusesANewFieldWithoutAltersExistingTablesAndTheTransactionRollsBack(laterRecord: Bool) throws
    {
        let queue = try existingDatabase()
        let position = SourcePosition(line: 7, column: 3, byteOffset: 120)
        let error = #expect(throws: IngestError.self) {
            try queue.inDatabase { db in
                let sink = SQLiteSink(database: db)
                do {
                    // The new field on the table's first record, or on a later one.
                    if laterRecord { try sink.write(record("t", [("a", .text("new"))])) }
                    try sink.write(record("t", [("a", .text("x")), ("b", number("2"))], at: position))
                    try sink.finish()
                } catch {
                    sink.abandon()
                    throw error
                }
            }
        }
        #expect(error?.kind == .data)
        #expect(error?.position == position)
        #expect(error?.message.contains("table t") == true, "\(String(describing: error))")
        #expect(error?.message.contains("field b") == true, "\(String(describing: error))")
        #expect(error?.reason == .missingColumn(table: "t", field: "b"), "\(String(describing: error))")
        try queue.read { (db: Database) throws in
            #expect(try db.columns(in: "t").map(\.name) == ["a"])
            #expect(try String.fetchAll(db, sql: "SELECT a FROM t") == ["old"])
        }
    }

    @Test func altersExistingTablesAddsTheColumnAndEarlierRowsAreNullInIt() throws {
        let queue = try existingDatabase()
        var added: [(table: String, columns: [String])] = []
        try queue.inDatabase { db in
            let sink = SQLiteSink(database: db, altersExistingTables: true)
            try sink.write(record("t", [("a", .text("x"))]))
            try sink.write(record("t", [("a", .text("y")), ("b", number("2"))]))
            try sink.finish()
            added = sink.columnsAddedToExistingTables
        }
        #expect(added.map(\.table) == ["t"])
        #expect(added.map(\.columns) == [["b"]])
        try queue.read { (db: Database) throws in
            let types = try Row.fetchAll(db, sql: "SELECT name, type FROM pragma_table_info('t')").map {
                "\($0["name"] as String) \($0["type"] as String)"
            }
            #expect(types == ["a TEXT", "b INTEGER"])
            let rows = try Row.fetchAll(db, sql: "SELECT a, b FROM t ORDER BY rowid")
            #expect(rows.map { $0["a"] as String? } == ["old", "x", "y"])
            #expect(rows.map { $0["b"] as Int? } == [nil, nil, 2])
        }
    }

    @Test func aTableTheSinkCreatesGrowsColumnsBesideAnExistingOne() throws {
        let queue = try existingDatabase()
        var added: [(table: String, columns: [String])] = []
        try queue.inDatabase { db in
            let sink = SQLiteSink(database: db)
            try sink.write(record("t", [("a", .text("x"))]))
            try sink.write(record("u", [("c", .text("1"))]))
            try sink.write(record("u", [("d", .text("2"))]))
            try sink.finish()
            added = sink.columnsAddedToExistingTables
        }
        #expect(added.isEmpty, "columns of a table the sink created are not alterations")
        try queue.read { (db: Database) throws in
            #expect(try db.columns(in: "u").map(\.name) == ["c", "d"])
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM t") == 2)
        }
    }

    @Test func renamingATableKeepsItsRows() throws {
        let queue = try DatabaseQueue()
        try queue.inDatabase { db in
            let sink = SQLiteSink(database: db)
            try sink.write(record("root", [("a", .text("1"))]))
            try sink.renameTable("root", to: "row")
            try sink.write(record("row", [("a", .text("2"))]))
            try sink.finish()
        }
        try queue.read { (db: Database) throws in
            #expect(try !db.tableExists("root"))
            #expect(try String.fetchAll(db, sql: "SELECT a FROM row") == ["1", "2"])
        }
    }
}

@Suite struct SQLiteOutputTests {
    let names = NameTable()

    func person(_ first: String) -> IngestRecord {
        IngestRecord(table: "people", fields: [.init(name: names.intern("firstName"), value: .text(first))])
    }

    @Test func aFailedRunLeavesTheExistingFileByteForByte() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("out.db")
        try SQLiteOutput(path: path, mode: .create).writeAndCommit { try $0.write(person("Matt")) }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(throws: IngestError.self) {
            try SQLiteOutput(path: path, mode: .replace).writeAndCommit { sink in
                try sink.write(person("Snidely"))
                throw IngestError(.data, "malformed halfway")
            }
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.url.path) == ["out.db"])
    }

    @Test func createRefusesAnExistingFile() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("out.db")
        try Data("not mine".utf8).write(to: URL(fileURLWithPath: path))
        let error = #expect(throws: IngestError.self) { try SQLiteOutput(path: path, mode: .create).open() }
        #expect(error?.kind == .output)
        #expect(error?.reason == .outputExists(appendable: true))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "not mine")
    }

    @Test func replaceRebuildsAndAppendAdds() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("out.db")
        try SQLiteOutput(path: path, mode: .create).writeAndCommit { try $0.write(person("Matt")) }
        try SQLiteOutput(path: path, mode: .replace).writeAndCommit { try $0.write(person("Dudley")) }
        try SQLiteOutput(path: path, mode: .append).writeAndCommit { try $0.write(person("Nell")) }
        let names = try DatabaseQueue(path: path).read { try String.fetchAll($0, sql: "SELECT firstName FROM people") }
        #expect(names == ["Dudley", "Nell"])
    }

    @Test func anAppendWithAFieldTheExistingTableLacksFailsAndLeavesTheFileByteForByte() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("out.db")
        try SQLiteOutput(path: path, mode: .create).writeAndCommit { try $0.write(person("Matt")) }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let aged = IngestRecord(
            table: "people",
            fields: [
                .init(name: names.intern("firstName"), value: .text("Nell")),
                .init(name: names.intern("age"), value: .text("7"))
            ])
        let error = #expect(throws: IngestError.self) {
            try SQLiteOutput(path: path, mode: .append).writeAndCommit { sink in
                for _ in 0..<1000 { try sink.write(person("Ghost")) }
                try sink.write(aged)
            }
        }
        #expect(error?.kind == .data)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.url.path) == ["out.db"])

        try SQLiteOutput(path: path, mode: .append, altersExistingTables: true).writeAndCommit { try $0.write(aged) }
        let rows = try DatabaseQueue(path: path).read {
            try Row.fetchAll($0, sql: "SELECT firstName, age FROM people ORDER BY rowid")
        }
        #expect(rows.map { $0["firstName"] as String } == ["Matt", "Nell"])
        #expect(rows.map { $0["age"] as String? } == [nil, "7"])
    }

    @Test func aFailedAppendRollsBack() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("out.db")
        try SQLiteOutput(path: path, mode: .create).writeAndCommit { try $0.write(person("Matt")) }
        #expect(throws: IngestError.self) {
            try SQLiteOutput(path: path, mode: .append).writeAndCommit { sink in
                for _ in 0..<1000 { try sink.write(person("Ghost")) }
                throw IngestError(.data, "malformed")
            }
        }
        let count = try DatabaseQueue(path: path).read { try Int.fetchOne($0, sql: "SELECT count(*) FROM people") }
        #expect(count == 1)
    }
}
