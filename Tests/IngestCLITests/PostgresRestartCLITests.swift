import Foundation
import PostgresTestServer
import Testing

/// A PostgreSQL server that restarts under `ingest … --to postgres`, run as a user runs
/// it — the built binary: exit 75 (cron runs it again), one line that says what
/// happened, and once the server is back, the old rows and no stray tables.
///
/// The server is one of the test's own (``TestPostgresServer/start(name:)``), not the
/// shared one, which the suites running beside it are using.
@Suite(
    "--to postgres: a server restart mid-import",
    .enabled(
        if: TestPostgresServer.enabled, "needs PostgreSQL's server programs (Debian's postgresql package), or CI set"))
struct PostgresRestartCLITests {
    @Test("exit 75, one line, the old table intact and no stray tables, for --replace and --append")
    func restartMidImport() throws {
        let server = try TestPostgresServer.start(name: "cli-restart")
        defer { server.stop() }
        let database = try server.makeDatabase("cli_restart")
        let uri = server.uri(database)
        let box = try Sandbox()
        try box.copyFolks()
        try box.write("big.xml", manyPeople(1_000_000))
        try #require(try box.run(["folks.xml", "--to", "postgres", "--db", uri, "-q"]).status == 0)
        // On disk before the restart: the server runs with synchronous_commit off, and an
        // immediate stop loses a commit whose WAL is not written yet.
        try server.psql("CHECKPOINT", database: database)

        for mode in ["--replace", "--append"] {
            let run = BackgroundRun(box, [box.path("big.xml"), "--to", "postgres", "--db", uri, mode])
            // Rows are going in once the server is copying for the import's session.
            let copying =
                "SELECT count(*) FROM pg_stat_activity WHERE datname = '\(database)' AND application_name = 'ingest' AND query LIKE 'COPY%'"
            let deadline = Date().addingTimeInterval(180)
            while try server.value(copying, database: database) == "0", !run.isFinished, Date() < deadline {
                usleep(20_000)
            }
            try #require(
                !run.isFinished,
                "\(mode): the import ended before the restart (\(String(describing: run.result))); make the input bigger"
            )
            try server.restart()

            let result = try #require(run.wait(seconds: 180), "\(mode): the import did not end after the restart").get()
            #expect(result.status == 75, "\(mode): \(result)")
            #expect(result.stderrLines.count == 1, "\(mode): \(result)")
            #expect(
                result.stderr.contains("lost the connection to PostgreSQL")
                    || result.stderr.contains("terminating connection"),
                "\(mode): \(result)")
            #expect(result.stderr.contains("Nothing was written; run again later"), "\(mode): \(result)")

            #expect(try server.psql("select firstname, lastname from people", database: database) == folks, "\(mode)")
            #expect(try server.tables(in: database) == ["people"], "\(mode)")
            #expect(
                try server.value("SELECT count(*) FROM pg_class WHERE relname LIKE 'ingest%'", database: database)
                    == "0", "\(mode)")
        }
    }
}

/// `ingest` run on a thread of its own (``Sandbox/run(_:stdin:environment:executable:sourceLocation:)``),
/// so the test can act on the server while it runs.
private final class BackgroundRun: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var outcome: Result<RunResult, any Error>?

    init(_ box: Sandbox, _ arguments: [String]) {
        let sandbox = UncheckedBox(box)
        Thread.detachNewThread { [self] in
            let result = Result { try sandbox.box.run(arguments) }
            lock.withLock { outcome = result }
            done.signal()
        }
    }

    var isFinished: Bool { lock.withLock { outcome != nil } }
    var result: Result<RunResult, any Error>? { lock.withLock { outcome } }

    /// The run's result, once it ends within `seconds`; `nil` if it does not.
    func wait(seconds: Double) -> Result<RunResult, any Error>? {
        guard done.wait(timeout: .now() + seconds) == .success else { return nil }
        return result
    }
}

/// A sandbox handed to the thread that runs `ingest` in it.
private struct UncheckedBox: @unchecked Sendable {
    let box: Sandbox
    init(_ box: Sandbox) { self.box = box }
}
