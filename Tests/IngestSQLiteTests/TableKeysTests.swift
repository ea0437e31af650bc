import Foundation
import GRDB
import IngestCore
import IngestSQLite
import IngestTestSupport
import Testing

/// `SQLiteOutput(keys:)` and upserts that keep the columns a record lacks.
struct TableKeysTests {
    static func record(_ names: NameTable, _ table: String, _ fields: [(String, String?)]) -> IngestRecord {
        IngestRecord(
            table: table,
            fields: fields.map { name, text in
                .init(
                    name: names.intern(name),
                    value: text.map { text in
                        var text = text
                        return text.withUTF8 { FieldValue.inferring($0) }
                    } ?? .null)
            }, position: .start)
    }

    static func write(
        _ path: String, mode: SQLiteOutput.Mode = .append, design: TableDesign? = nil, keys: TableKeys? = nil,
        _ records: [[(String, String?)]], table: String = "t"
    ) throws {
        let names = NameTable()
        try SQLiteOutput(path: path, mode: mode, design: design, keys: keys).writeAndCommit { sink in
            for fields in records { try sink.write(record(names, table, fields)) }
        }
    }

    static func rows(_ path: String, _ sql: String) throws -> [[String?]] {
        try DatabaseQueue(path: path).read { db in
            // Every column as text (the queries cast numbers), NULL as nil.
            try Row.fetchAll(db, sql: sql).map { row in (0..<row.count).map { row[$0] as String? } }
        }
    }

    @Test func grownTablesGetTheKeyAndUpsertOnlyWhatARecordCarries() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("k.db")
        let keys = TableKeys(primaryKey: ["id"], upsert: true)
        try Self.write(path, keys: keys, [[("id", "1"), ("a", "x"), ("b", "y")], [("id", "2"), ("a", "p")]])
        try Self.write(path, keys: keys, [[("id", "1"), ("b", "z")], [("id", "2"), ("a", nil)]])
        #expect(try Self.rows(path, "SELECT name FROM pragma_table_info('t') WHERE pk > 0") == [["id"]])
        #expect(
            try Self.rows(path, "SELECT CAST(id AS TEXT), a, b FROM t ORDER BY id") == [
                ["1", "x", "z"], ["2", nil, nil]
            ])

        let whole = TableKeys(primaryKey: ["id"], upsert: true, upsertNulls: true)
        try Self.write(path, keys: whole, [[("id", "1"), ("b", "w")]])
        #expect(
            try Self.rows(path, "SELECT CAST(id AS TEXT), a, b FROM t ORDER BY id") == [
                ["1", nil, "w"], ["2", nil, nil]
            ])
    }

    @Test func aRecordWithoutTheKeyOrADuplicateIsADataError() throws {
        let directory = try TemporaryDirectory()
        let keys = TableKeys(primaryKey: ["id"])
        let missing = try #require(throws: IngestError.self) {
            try Self.write(directory.path("m.db"), mode: .create, keys: keys, [[("id", "1")], [("a", "x")]])
        }
        #expect(missing.kind == .data)
        #expect(missing.message.hasPrefix("the record has no value for id, a column of the primary key of t"))
        let duplicate = try #require(throws: IngestError.self) {
            try Self.write(directory.path("d.db"), mode: .create, keys: keys, [[("id", "1")], [("id", "1")]])
        }
        #expect(duplicate.kind == .data)
        #expect(duplicate.message.hasSuffix("(key id=1)"))
        #expect(!FileManager.default.fileExists(atPath: directory.path("m.db")))
        #expect(!FileManager.default.fileExists(atPath: directory.path("d.db")))
    }

    @Test func aDesignedUpsertKeepsWhatARecordLacksUnlessUpsertNulls() throws {
        let directory = try TemporaryDirectory()
        for nulls in [false, true] {
            let path = directory.path("\(nulls).db")
            let design = TableDesign(
                tables: [
                    .init(
                        name: "t",
                        columns: [
                            .init(name: "id", type: .integer, notNull: true),
                            .init(name: "a", type: .text), .init(name: "b", type: .text)
                        ],
                        primaryKey: ["id"])
                ], upsert: true, upsertNulls: nulls)
            try Self.write(path, design: design, [[("id", "1"), ("a", "x"), ("b", "y")]])
            try Self.write(path, design: design, [[("id", "1"), ("b", "z")]])
            #expect(try Self.rows(path, "SELECT CAST(id AS TEXT), a, b FROM t") == [["1", nulls ? nil : "x", "z"]])
        }
    }
}
