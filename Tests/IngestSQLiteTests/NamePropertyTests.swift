import Foundation
import GRDB
import IngestCore
import IngestParsers
import IngestSQLite
import IngestTestSupport
import Testing

/// Random table and field names that SQLite cannot keep apart as they are (see
/// ``NameCase``): every value comes back once, each field's values in one column of
/// their own, and an append of the same document finds the same tables and columns.
@Suite("Names: SQLite output")
struct SQLiteNamePropertyTests {
    @Test("Every value under exactly one column, the same columns on --append", arguments: 0..<4)
    func everyValueUnderOneName(slice: UInt64) throws {
        let directory = try TemporaryDirectory()
        for seed in slice * 40..<(slice + 1) * 40 {
            let first = NameCase(seed: seed), again = NameCase(seed: seed, firstValue: 1_000_000)
            let input = directory.path("\(seed).json"), inputAgain = directory.path("\(seed)-again.json")
            try first.json.write(toFile: input, atomically: false, encoding: .utf8)
            try again.json.write(toFile: inputAgain, atomically: false, encoding: .utf8)
            let database = directory.path("\(seed).db")

            try Importer().run([InputFile(path: input)], into: SQLiteOutput(path: database, mode: .create))
            try Importer().run([InputFile(path: inputAgain)], into: SQLiteOutput(path: database, mode: .append))

            let stored = try Self.storedValues(database)
            let firstStored = stored.filter { $0.value < 1_000_000 },
                againStored = stored.filter { $0.value >= 1_000_000 }
            #expect(first.problems(in: firstStored) == [], "\(first)")
            #expect(again.problems(in: againStored) == [], "appended: \(first)")
            #expect(first.names(in: firstStored) == again.names(in: againStored), "appended: \(first)")
        }
    }

    /// Every value in the database, with its table and column.
    static func storedValues(_ path: String) throws -> [NameCase.Stored] {
        try DatabaseQueue(path: path).read { db in
            var stored: [NameCase.Stored] = []
            for table in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'") {
                let columns = try String.fetchAll(db, sql: "SELECT name FROM pragma_table_info(?)", arguments: [table])
                for row in try Row.fetchAll(db, sql: "SELECT * FROM \(table.quotedSQLIdentifier)") {
                    for (column, value) in zip(columns, row.databaseValues) {
                        guard case .int64(let number) = value.storage else { continue }
                        stored.append(NameCase.Stored(table: table, name: column, value: Int(number)))
                    }
                }
            }
            return stored
        }
    }
}
