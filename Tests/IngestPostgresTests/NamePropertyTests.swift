import Foundation
import IngestCore
import IngestParsers
import IngestPostgres
import IngestTestSupport
import PostgresNIO
import PostgresTestServer
import Testing

/// Random table and field names that PostgreSQL cannot keep apart as they are (see
/// ``NameCase``): names differing only in case (kept apart as the SQLite output keeps
/// them) or past 63 bytes. Every value comes back once, each field's values in one
/// column of their own, and an append of the same document finds the same columns —
/// also when the tables were made with exact names and the append folds them.
/// Names with a NUL are left out: PostgreSQL refuses them, and so does the output.
@Suite(
    .enabled(
        if: TestPostgresServer.enabled, "needs PostgreSQL's server programs (Debian's postgresql package), or CI set"))
struct PostgresNamePropertyTests {
    static let tableNames = NameCase.tableNames.filter {
        !$0.utf8.contains(0) && $0.utf8.count <= PostgresIdentifier.maximumLength
    }
    static let fieldNames = NameCase.fieldNames.filter { !$0.utf8.contains(0) }

    @Test(arguments: [
        (PostgresOutput.IdentifierCase.lower, PostgresOutput.IdentifierCase.lower), (.exact, .exact), (.exact, .lower)
    ])
    func everyValueUnderOneColumnTheSameOnAppend(
        created: PostgresOutput.IdentifierCase, appended: PostgresOutput.IdentifierCase
    ) async throws {
        let server = try TestPostgresServer.shared.get()
        let database = try server.makeDatabase("names")
        let settings = try server.settings(database)
        let client = try await TestClient.connect(server, database: database)
        let directory = try TemporaryDirectory()
        for seed in UInt64(0)..<40 {
            let first = NameCase(seed: seed, tableNames: Self.tableNames, fieldNames: Self.fieldNames)
            let again = NameCase(
                seed: seed, firstValue: 1_000_000, tableNames: Self.tableNames, fieldNames: Self.fieldNames)
            let input = directory.path("\(seed).json"), inputAgain = directory.path("\(seed)-again.json")
            try first.json.write(toFile: input, atomically: false, encoding: .utf8)
            try again.json.write(toFile: inputAgain, atomically: false, encoding: .utf8)

            try await onThread {
                try Importer().run(
                    [InputFile(path: input)], into: PostgresOutput(settings: settings, identifierCase: created))
                try Importer().run(
                    [InputFile(path: inputAgain)],
                    into: PostgresOutput(settings: settings, mode: .append, identifierCase: appended))
            }

            let stored = try await Self.storedValues(client)
            let firstStored = stored.filter { $0.value < 1_000_000 },
                againStored = stored.filter { $0.value >= 1_000_000 }
            #expect(first.problems(in: firstStored) == [], "\(first)")
            #expect(again.problems(in: againStored) == [], "appended: \(first)")
            #expect(first.names(in: firstStored) == again.names(in: againStored), "appended: \(first)")
            try await client.execute("DROP SCHEMA public CASCADE")
            try await client.execute("CREATE SCHEMA public")
        }
        await client.close()
    }

    /// Every value in the tables of `public`, with its table and column.
    static func storedValues(_ client: TestClient) async throws -> [NameCase.Stored] {
        var tables: [String] = []
        let names = try await client.connection.query(
            PostgresQuery(unsafeSQL: "SELECT tablename::text FROM pg_tables WHERE schemaname = 'public'"),
            logger: TestClient.logger)
        for try await name in names.decode(String.self) { tables.append(name) }
        var stored: [NameCase.Stored] = []
        for table in tables {
            let sql =
                "SELECT member.key, member.value FROM \(PostgresIdentifier.quoted(table)) AS row, jsonb_each_text(to_jsonb(row)) AS member"
            for try await (column, value) in try await client.connection.query(
                PostgresQuery(unsafeSQL: sql), logger: TestClient.logger
            )
            .decode((String, String?).self) {
                guard let value, let number = Int(value) else { continue }
                stored.append(NameCase.Stored(table: table, name: column, value: number))
            }
        }
        return stored
    }
}
