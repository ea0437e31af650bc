import Foundation
import IngestCore
import PostgresTestServer
import IngestPostgres
import Testing

/// Create and replace: new tables built under temporary names and swapped in at the
/// commit; a reader sees the old rows or the new, a failure leaves the old.
@Suite(
    .enabled(
        if: TestPostgresServer.enabled, "needs PostgreSQL's server programs (Debian's postgresql package), or CI set"))
struct ReplaceGuaranteeTests {
    /// `count` people rows tagged `tag`, made one at a time.
    static func person(_ make: RecordMaker, _ index: Int, tag: String) -> IngestRecord {
        make.record("people", ["id": number(String(index)), "name": .text("person \(index)"), "tag": .text(tag)])
    }

    static func seed(_ server: TestPostgresServer, _ database: String, rows: Int) throws {
        try server.psql(
            "CREATE TABLE people AS SELECT g::bigint AS id, 'person ' || g AS name, 'old' AS tag FROM generate_series(1, \(rows)) g",
            database: database)
    }

    @Test func aReaderSeesTheOldRowsOrTheNewNeverAHalf() async throws {
        let server = try TestPostgresServer.shared.get()
        let database = try server.makeDatabase("swap")
        try Self.seed(server, database, rows: 1_000)
        let settings = try server.settings(database)
        let rowsWritten = Signal()
        let readerSawUncommitted = Signal()
        let reader = try await TestClient.connect(server, database: database)

        let importer = Task {
            try await onThread {
                let make = RecordMaker()
                let output = PostgresOutput(settings: settings, mode: .replace)
                output.batchSize = 4_096  // many COPY batches
                try output.writeAndCommit { sink in
                    for index in 1...25_000 { try sink.write(Self.person(make, index, tag: "new")) }
                    // Everything is on the server, nothing committed: let the reader look.
                    try output.flush()
                    rowsWritten.raise()
                    _ = readerSawUncommitted.wait(timeout: 30)
                }
            }
        }
        var counts: [Int] = []
        var tags: Set<String> = []
        while true {
            let done = rowsWritten.isRaised
            counts.append(try await reader.integer("SELECT count(*) FROM people"))
            if done { readerSawUncommitted.raise() }
            if counts.last == 25_000 { break }
            if counts.count > 100_000 { break }
        }
        try await importer.value
        for row in try server.psql("SELECT DISTINCT tag FROM people", database: database) { tags.insert(row[0]!) }
        await reader.close()

        #expect(Set(counts).isSubset(of: [1_000, 25_000]), "a reader saw \(Set(counts).sorted())")
        #expect(counts.filter { $0 == 1_000 }.count >= 2, "the reader looked while the import was under way")
        #expect(counts.last == 25_000)
        #expect(tags == ["new"])
        #expect(try server.tables(in: database) == ["people"], "no temporary table is left")
    }

    @Test func aFailureLeavesTheOldTablesAndNoStrayOnes() async throws {
        let server = try TestPostgresServer.shared.get()
        let database = try server.makeDatabase("failure")
        try Self.seed(server, database, rows: 10)
        let settings = try server.settings(database)
        let error = try await onThread { () -> IngestError? in
            let make = RecordMaker()
            let output = PostgresOutput(settings: settings, mode: .replace)
            output.batchSize = 1_024
            do {
                try stream(output, count: 5_001) { index in
                    index < 5_000
                        ? Self.person(make, index, tag: "new")
                        : make.record("other", ["x": .text("bad \u{0} text")])
                }
                return nil
            } catch let error as IngestError {
                return error
            }
        }
        #expect(error?.kind == .data)
        #expect(try server.value("SELECT count(*) FROM people WHERE tag = 'old'", database: database) == "10")
        #expect(try server.value("SELECT count(*) FROM people", database: database) == "10")
        #expect(try server.tables(in: database) == ["people"])
    }

    @Test func aFailureAtTheSwapLeavesTheOldTables() async throws {
        let server = try TestPostgresServer.shared.get()
        let database = try server.makeDatabase("serverfail")
        try Self.seed(server, database, rows: 10)
        // The rows are fine; the swap at the commit fails: a view depends on the old table.
        try server.psql("CREATE VIEW people_names AS SELECT name FROM people", database: database)
        let settings = try server.settings(database)
        let error = try await onThread { () -> IngestError? in
            let make = RecordMaker()
            do {
                try stream(PostgresOutput(settings: settings, mode: .replace), count: 100) {
                    Self.person(make, $0, tag: "new")
                }
                return nil
            } catch let error as IngestError {
                return error
            }
        }
        #expect(error?.kind == .output)
        #expect(error?.message.contains("cannot replace people") == true)
        #expect(error?.message.contains("depend") == true, "the server's reason is shown: \(error?.message ?? "")")
        #expect(try server.value("SELECT count(*) FROM people_names", database: database) == "10")
        #expect(try server.tables(in: database) == ["people"])
    }

    @Test func aKilledImportLeavesTheOldTablesAndNoStrayOnes() async throws {
        let server = try TestPostgresServer.shared.get()
        let database = try server.makeDatabase("killed")
        try Self.seed(server, database, rows: 10)
        let settings = try server.settings(database)
        let admin = try await TestClient.connect(server, database: database)
        let written = Signal()
        let killed = Signal()
        let backend = ProcessIDBox()
        let importer = Task {
            try await onThread { () -> IngestError? in
                let make = RecordMaker()
                let output = PostgresOutput(settings: settings, mode: .replace)
                output.batchSize = 2_048
                do {
                    try output.writeAndCommit { sink in
                        for index in 0..<3_000 { try sink.write(Self.person(make, index, tag: "new")) }
                        try output.flush()
                        backend.value = try output.serverProcessID()
                        written.raise()
                        killed.wait()
                        for index in 3_000..<6_000 { try sink.write(Self.person(make, index, tag: "new")) }
                    }
                    return nil
                } catch let error as IngestError {
                    return error
                }
            }
        }
        try await written.raised()
        let terminated = try await admin.integer("SELECT pg_terminate_backend(\(backend.value))::int")
        #expect(terminated == 1)
        killed.raise()
        let error = try await importer.value
        await admin.close()

        #expect(error?.kind == .temporary, "\(String(describing: error))")
        #expect(try server.value("SELECT count(*) FROM people", database: database) == "10")
        #expect(try server.value("SELECT count(*) FROM people WHERE tag = 'old'", database: database) == "10")
        #expect(try server.tables(in: database) == ["people"])
    }

    @Test func aClientThatVanishesLeavesNothingBehind() async throws {
        // What the server sees of a killed `ingest`: the socket closes mid-transaction.
        let server = try TestPostgresServer.shared.get()
        let database = try server.makeDatabase("vanish")
        try Self.seed(server, database, rows: 7)
        let settings = try server.settings(database)
        try await onThread {
            let make = RecordMaker()
            let output = PostgresOutput(settings: settings, mode: .replace)
            output.batchSize = 1_024
            try output.open()
            try output.write { sink in
                for index in 0..<2_000 { try sink.write(Self.person(make, index, tag: "new")) }
            }
            try output.flush()
            output.discard()  // closes the socket without a ROLLBACK
            output.discard()  // idempotent
        }
        // The server ends the session's transaction; wait until no session of the import is left.
        for _ in 0..<100 {
            if try server.value(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = '\(database)' AND application_name = 'ingest'",
                database: database) == "0"
            {
                break
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(try server.value("SELECT count(*) FROM people", database: database) == "7")
        #expect(try server.tables(in: database) == ["people"])
        #expect(
            try server.value("SELECT count(*) FROM pg_class WHERE relname LIKE 'ingest%'", database: database) == "0")
    }

    @Test func createRefusesATableThatExists() async throws {
        let server = try TestPostgresServer.shared.get()
        let database = try server.makeDatabase("create")
        try Self.seed(server, database, rows: 3)
        let settings = try server.settings(database)
        let error = try await onThread { () -> IngestError? in
            let make = RecordMaker()
            do {
                try stream(PostgresOutput(settings: settings, mode: .create), count: 5) {
                    Self.person(make, $0, tag: "new")
                }
                return nil
            } catch let error as IngestError {
                return error
            }
        }
        #expect(error?.kind == .output)
        #expect(error?.message.contains("already exists") == true)
        #expect(error?.reason == .outputExists(appendable: true), "the command suggests --replace or --append")
        #expect(error?.message.contains("public.people") == true, "the table is named: \(error?.message ?? "")")
        #expect(try server.value("SELECT count(*) FROM people", database: database) == "3")
        #expect(try server.tables(in: database) == ["people"])
    }

    @Test func replaceLeavesOtherTablesAloneAndAnotherSchemasTableUntouched() async throws {
        let server = try TestPostgresServer.shared.get()
        let database = try server.makeDatabase("schemas")
        try Self.seed(server, database, rows: 3)
        try server.psql(
            "CREATE TABLE unrelated (x int); INSERT INTO unrelated VALUES (1); CREATE SCHEMA other; CREATE TABLE other.people (x int); INSERT INTO other.people VALUES (42)",
            database: database)
        let settings = try server.settings(database)
        try await onThread {
            let make = RecordMaker()
            try stream(PostgresOutput(settings: settings, mode: .replace), count: 5) {
                Self.person(make, $0, tag: "new")
            }
        }
        #expect(try server.value("SELECT count(*) FROM people WHERE tag = 'new'", database: database) == "5")
        #expect(try server.value("SELECT x::text FROM other.people", database: database) == "42")
        #expect(try server.value("SELECT x::text FROM unrelated", database: database) == "1")
    }
}

final class ProcessIDBox: @unchecked Sendable {
    var value: Int32 = 0
}
