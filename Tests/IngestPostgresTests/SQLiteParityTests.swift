import Foundation
import GRDB
import IngestCore
import IngestSQLite
import PostgresTestServer
import IngestPostgres
import Testing

/// The same records into the SQLite output and the PostgreSQL output give the same
/// tables, the same column names in the same order — in lower case unless the
/// PostgreSQL output keeps names exact — and the same values.
@Suite(
    .enabled(
        if: TestPostgresServer.enabled, "needs PostgreSQL's server programs (Debian's postgresql package), or CI set"))
struct SQLiteParityTests {
    static func records(_ make: RecordMaker) -> [IngestRecord] {
        [
            make.record(
                "people",
                pairs: [
                    ("id", number("1")), ("name", .text("Zoë")), ("Name", .text("case twin")),
                    ("NAME", .text("another")),
                    ("dc:title", .text("prefixed")), ("x\"); DROP TABLE people; --", .text("hostile"))
                ]),
            make.record(
                "people",
                pairs: [
                    ("id", number("2")), ("late", .text("a field met later")), ("name_2", .text("suffix clash")),
                    ("tags", .json(#"["a"]"#, .array))
                ]),
            make.record("people", pairs: [("id", .text("three")), ("score", number("2.5")), ("tags", .text(""))]),
            make.record(
                "cities",
                pairs: [
                    ("city", .text("Paris")), ("CITY", .text("PARIS")), ("City_2", .text("clash")),
                    ("", .text("nameless"))
                ])
        ]
    }

    @Test(arguments: PostgresOutput.IdentifierCase.allCases)
    func sameTablesColumnsAndValuesAsTheSQLiteOutput(names: PostgresOutput.IdentifierCase) async throws {
        let server = try TestPostgresServer.shared.get()
        let database = try server.makeDatabase("parity")
        let settings = try server.settings(database)
        try await onThread {
            let make = RecordMaker()
            try run(PostgresOutput(settings: settings, identifierCase: names)) { Self.records(make) }
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "ingest-parity-\(UUID().uuidString).db"
        ).path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let make = RecordMaker()
        try SQLiteOutput(path: path, mode: .create).writeAndCommit { sink in
            for record in Self.records(make) { try sink.write(record) }
        }
        let sqlite = try DatabaseQueue(path: path)
        for table in ["people", "cities"] {
            let sqliteColumns = try await sqlite.read { db in
                try String.fetchAll(db, sql: "SELECT name FROM pragma_table_info(?)", arguments: [table])
            }
            let postgresColumns = try server.psql(
                """
                SELECT column_name::text FROM information_schema.columns WHERE table_name = '\(table)' ORDER BY ordinal_position
                """, database: database
            ).map { $0[0]! }
            // The one difference: PostgreSQL cannot name a column "", the SQLite output can.
            // Lower case: SQLite's names with their ASCII letters folded, as PostgreSQL folds unquoted names.
            let expected = sqliteColumns.map { $0.isEmpty ? "_" : names == .lower ? PostgresIdentifier.folded($0) : $0 }
            #expect(postgresColumns == expected, "\(table)")
            if names == .lower { #expect(expected != sqliteColumns, "the records have mixed-case names to fold") }

            let sqliteRows = try await sqlite.read { db in
                try Row.fetchAll(db, sql: "SELECT * FROM \(table.quotedSQLIdentifier)").map { row in
                    row.databaseValues.map { value -> String? in
                        switch value.storage {
                        case .null: nil
                        case .int64(let int): String(int)
                        case .double(let double): String(double)
                        case .string(let string): string
                        case .blob(let data): String(decoding: data, as: UTF8.self)
                        }
                    }
                }
            }
            let postgresRows = try server.psql("SELECT * FROM \(table)", database: database)
            #expect(postgresRows == sqliteRows, "\(table)")
        }
    }
}
