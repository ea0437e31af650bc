import Foundation
import IngestCore
import IngestSQLite
import IngestTestSupport
import Testing

/// `SQLiteOutput`'s stored-row reads, which keep one read-only connection between
/// calls: each read sees what is committed at that moment, whichever file the path
/// names by then.
struct StoredRowReadTests {
    static func write(_ path: String, mode: SQLiteOutput.Mode, table: String = "t", _ values: [String]) throws {
        let names = NameTable()
        try SQLiteOutput(path: path, mode: mode).writeAndCommit { sink in
            for value in values {
                try sink.write(
                    IngestRecord(
                        table: table, fields: [.init(name: names.intern("v"), value: .text(value))],
                        position: .start))
            }
        }
    }

    static func values(_ reader: SQLiteOutput, table: String = "t") throws -> [String] {
        try reader.storedRows(in: table, columns: ["v"], matching: [:]).compactMap { $0[0].text }
    }

    @Test func eachReadSeesWhatIsCommittedThen() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("r.db")
        let reader = SQLiteOutput(path: path, mode: .append)
        #expect(try Self.values(reader) == [])  // no file yet
        try Self.write(path, mode: .append, ["a"])
        #expect(try Self.values(reader) == ["a"])
        #expect(try Self.values(reader, table: "u") == [])  // no such table yet
        try Self.write(path, mode: .append, ["b"])
        try Self.write(path, mode: .append, table: "u", ["c"])
        #expect(try Self.values(reader) == ["a", "b"])
        #expect(try Self.values(reader, table: "u") == ["c"])
        #expect(try reader.storedRows(in: "t", columns: ["v"], matching: ["v": .text("b")]).count == 1)
    }

    @Test func aReplacedFileIsReadAgain() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("r.db")
        let reader = SQLiteOutput(path: path, mode: .append)
        try Self.write(path, mode: .replace, ["old"])
        #expect(try Self.values(reader) == ["old"])
        try Self.write(path, mode: .replace, ["new"])  // a new file renamed over the old
        #expect(try Self.values(reader) == ["new"])
        try FileManager.default.removeItem(atPath: path)
        #expect(try Self.values(reader) == [])
        try Self.write(path, mode: .create, ["again"])
        #expect(try Self.values(reader) == ["again"])
    }

    @Test func aReadInsideAnotherGetsAConnectionOfItsOwn() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("r.db")
        try Self.write(path, mode: .create, ["x", "y"])
        let reader = SQLiteOutput(path: path, mode: .append)
        var pairs: [String] = []
        try reader.forEachStoredRow(in: "t", columns: ["v"], matching: [:]) { outer in
            for inner in try Self.values(reader) { pairs.append((outer[0].text ?? "?") + inner) }
        }
        #expect(pairs == ["xx", "xy", "yx", "yy"])
    }
}
