import Foundation
import GRDB
import IngestCore
import IngestSQLite
import IngestTestSupport
import Testing

/// The page cache an output writes with: larger for hashed keys, whose index
/// inserts land anywhere, and SQLite's own otherwise.
struct PageCacheTests {
    static func design(randomKey: Bool) -> TableDesign {
        TableDesign(
            tables: [
                .init(
                    name: "items",
                    columns: [.init(name: "id", type: .integer, notNull: true), .init(name: "title", type: .text)],
                    primaryKey: ["id"], randomKey: randomKey)
            ], upsert: true)
    }

    @Test func hashedKeysGetALargerCacheAndOtherOutputsSQLitesOwn() {
        #expect(
            SQLiteOutput(path: "a.db", mode: .append, design: Self.design(randomKey: true)).pageCacheBytes == 16 << 20)
        #expect(SQLiteOutput(path: "a.db", mode: .append, design: Self.design(randomKey: false)).pageCacheBytes == nil)
        #expect(SQLiteOutput(path: "a.db", mode: .create).pageCacheBytes == nil)
    }

    @Test("any cache size stores the same rows, new file or appended", arguments: [nil, 0, 4096, 16 << 20])
    func everyCacheStoresTheSameRows(bytes: Int?) throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("items.db")
        let names = NameTable()
        // Keys spread over the whole range, as hashes are, and each written twice.
        let keys = (0..<3000).map { Int64(bitPattern: UInt64($0) &* 0x9E37_79B9_7F4A_7C15) }
        for run in 0..<2 {
            let output = SQLiteOutput(path: path, mode: .append, design: Self.design(randomKey: true))
            output.pageCacheBytes = bytes
            try output.writeAndCommit { sink in
                for key in keys {
                    try sink.write(
                        IngestRecord(
                            table: "items",
                            fields: [
                                .init(name: names.intern("id"), value: .integer(key)),
                                .init(name: names.intern("title"), value: .text("run \(run) \(key)"))
                            ], position: .start))
                }
            }
        }
        let stored = try DatabaseQueue(path: path).read { db in
            try Row.fetchAll(db, sql: "SELECT id, title FROM items ORDER BY rowid").map {
                [$0[0] as Int64, $0[1] as String] as [Any]
            }
        }
        #expect(stored.count == keys.count)
        #expect(stored.map { $0[0] as! Int64 } == keys)
        #expect(stored.map { $0[1] as! String } == keys.map { "run 1 \($0)" })
    }
}
