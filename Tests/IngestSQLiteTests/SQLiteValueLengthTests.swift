import GRDB
import Testing
@testable import IngestCore
@testable import IngestSQLite

/// A text or blob past what SQLite takes is the input's error (65), never a trap
/// converting its size to the `Int32` SQLite's bind functions take.
@Suite("SQLiteValueLength: the size of a bound value, checked")
struct SQLiteValueLengthTests {
    @Test("a connection's limit is SQLite's SQLITE_LIMIT_LENGTH: a billion bytes by default")
    func connectionLimit() throws {
        let queue = try DatabaseQueue()
        let limit = queue.inDatabase { db in SQLiteValueLength(connection: db.sqliteConnection).limit }
        #expect(limit == 1_000_000_000)
    }

    @Test("sizes up to the limit pass as they are")
    func withinLimit() throws {
        let length = SQLiteValueLength(limit: 1_000_000_000)
        #expect(try length.checked(0, field: "f", table: "t", position: nil) == 0)
        #expect(try length.checked(1_000_000_000, field: "f", table: "t", position: nil) == 1_000_000_000)
    }

    @Test(
        "past the limit, or past Int32: .data naming the field, the table and the limit",
        arguments: [
            1_000_000_001, Int(Int32.max), Int(Int32.max) + 1, 3 << 30, Int.max
        ])
    func pastLimit(_ count: Int) throws {
        let length = SQLiteValueLength(limit: 1_000_000_000)
        let position = SourcePosition(line: 3, column: 5, byteOffset: 40)
        let error = #expect(throws: IngestError.self) {
            try length.checked(count, field: "description", table: "items", position: position)
        }
        #expect(error?.kind == .data)
        #expect(error?.position == position)
        #expect(
            error?.message
                == "the value of field description in table items is \(count) bytes, more than SQLite's limit of 1000000000 bytes for one value"
        )
    }

    @Test("a limit set above what an Int32 holds is cut to Int32.max")
    func limitBeyondInt32() throws {
        let length = SQLiteValueLength(limit: Int(Int32.max) + 100)
        #expect(length.limit == Int(Int32.max))
        #expect(try length.checked(Int(Int32.max), field: "f", table: "t", position: nil) == Int32.max)
        #expect(throws: IngestError.self) {
            try length.checked(Int(Int32.max) + 1, field: "f", table: "t", position: nil)
        }
    }
}
