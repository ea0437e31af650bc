import GRDB
import Testing
@testable import IngestSQLite
@testable import IngestCore
import IngestTestSupport

/// The page size of the databases the output writes: 16 KiB for one it builds, the
/// database's own for one it appends to.
@Suite struct SQLitePageSizeTests {
    let names = NameTable()

    func person(_ name: String) -> IngestRecord {
        IngestRecord(table: "people", fields: [.init(name: names.intern("name"), value: .text(name))])
    }

    func pageSize(of path: String) throws -> Int {
        try DatabaseQueue(path: path).read { try Int.fetchOne($0, sql: "PRAGMA page_size") ?? 0 }
    }

    func names(in path: String) throws -> [String] {
        try DatabaseQueue(path: path).read { try String.fetchAll($0, sql: "SELECT name FROM people ORDER BY rowid") }
    }

    @Test(
        "A database the output builds, new or replacing one of 4 KiB pages, has 16 KiB pages",
        arguments: [
            SQLiteOutput.Mode.create, .replace, .append
        ])
    func builtDatabaseHasLargePages(mode: SQLiteOutput.Mode) throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("out.db")
        if mode == .replace {
            try DatabaseQueue(path: path).write { try $0.execute(sql: "CREATE TABLE old (x)") }
            #expect(try pageSize(of: path) == 4096)
        }
        try SQLiteOutput(path: path, mode: mode).writeAndCommit { sink in
            for index in 0..<2_000 { try sink.write(person("person \(index)")) }
        }
        #expect(try pageSize(of: path) == 16384)
        #expect(try names(in: path).count == 2_000)
    }

    @Test("Appending to an existing database keeps its page size")
    func appendKeepsPageSize() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("out.db")
        try DatabaseQueue(path: path).inDatabase { db in
            // Outside a transaction, before the first table: the only time it takes effect.
            try db.execute(sql: "PRAGMA page_size = 8192")
            try db.execute(sql: "CREATE TABLE people (name TEXT); INSERT INTO people VALUES ('first')")
        }
        #expect(try pageSize(of: path) == 8192)
        try SQLiteOutput(path: path, mode: .append).writeAndCommit { try $0.write(person("second")) }
        #expect(try pageSize(of: path) == 8192)
        #expect(try names(in: path) == ["first", "second"])
    }
}
