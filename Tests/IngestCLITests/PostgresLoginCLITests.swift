import Foundation
import PostgresTestServer
import Testing

/// Where `--to postgres` takes its login from, run as a user runs it: the password from
/// `PGPASSWORD` or `~/.pgpass` (never `--db`), the rest from `--db` or the `PG*`
/// variables; a refused login is a temporary failure (75) that never shows the password.
/// The test server asks every user but its superuser for a password (SCRAM).
@Suite(
    "--to postgres: the login, from the environment and ~/.pgpass",
    .enabled(
        if: TestPostgresServer.enabled, "needs PostgreSQL's server programs (Debian's postgresql package), or CI set"))
struct PostgresLoginCLITests {
    let user = TestPostgresServer.passwordUser

    /// A new database the password user may create tables in, and the URI to it as that user.
    func database(_ hint: String) throws -> (server: TestPostgresServer, name: String, uri: String) {
        let server = try TestPostgresServer.shared.get()
        let name = try server.makeDatabase(hint)
        try server.psql("GRANT CREATE ON SCHEMA public TO \(user)", database: name)
        return (server, name, server.uri(name, user: user))
    }

    /// No password from the caller's own environment or home: an empty `PGPASSWORD` is
    /// unset to libpq, and `HOME` is the sandbox.
    func clean(_ box: Sandbox, _ more: [String: String] = [:]) -> [String: String] {
        ["PGPASSWORD": "", "PGPASSFILE": "", "HOME": box.directory.path].merging(more) { _, new in new }
    }

    @Test("PGPASSWORD logs in")
    func passwordFromTheEnvironment() throws {
        let (server, database, uri) = try database("cli_pgpassword")
        let box = try Sandbox()
        try box.copyFolks()

        let result = try box.run(
            ["folks.xml", "--to", "postgres", "--db", uri, "-q"],
            environment: clean(box, ["PGPASSWORD": TestPostgresServer.password]))

        #expect(result.status == 0, "\(result)")
        #expect(try server.psql("select firstname, lastname from people", database: database) == folks)
        #expect(
            try server.value("SELECT tableowner::text FROM pg_tables WHERE tablename = 'people'", database: database)
                == user)
    }

    @Test("~/.pgpass logs in; one others can read is ignored with a warning, and the run exits 75")
    func passwordFile() throws {
        let (server, database, uri) = try database("cli_pgpass")
        let box = try Sandbox()
        try box.copyFolks()
        let escaped = TestPostgresServer.password.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(
            of: ":", with: "\\:")
        try box.write(
            ".pgpass",
            "# the test server's socket directory is the host\n\(server.socketDirectory):5432:\(database):\(user):\(escaped)\n"
        )
        let file = box.path(".pgpass")

        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file)
        let readable = try box.run(["folks.xml", "--to", "postgres", "--db", uri], environment: clean(box))
        #expect(readable.status == 75, "\(readable)")
        #expect(readable.stderr.contains("ingest: warning: "), "the ignored file is named: \(readable)")
        #expect(readable.stderr.contains(file), "\(readable)")
        #expect(readable.stderr.contains("set PGPASSWORD or add a line for the server to ~/.pgpass"), "\(readable)")
        #expect(try server.tables(in: database) == [])

        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file)
        let private_ = try box.run(["folks.xml", "--to", "postgres", "--db", uri, "-q"], environment: clean(box))
        #expect(private_.status == 0, "\(private_)")
        #expect(private_.stderr.isEmpty, "\(private_)")
        #expect(try server.psql("select firstname, lastname from people", database: database) == folks)
    }

    @Test("a wrong password: exit 75, one line, the password never shown, nothing written")
    func wrongPassword() throws {
        let (server, database, uri) = try database("cli_wrong")
        let box = try Sandbox()
        try box.copyFolks()

        let result = try box.run(
            ["folks.xml", "--to", "postgres", "--db", uri],
            environment: clean(box, ["PGPASSWORD": "not-the-Pa55word"]))

        #expect(result.status == 75, "\(result)")
        #expect(result.stderrLines.count == 1, "\(result)")
        #expect(result.stderr.contains("password authentication failed"), "\(result)")
        #expect(
            result.stderr.contains("check the user in --db and the password in PGPASSWORD or ~/.pgpass"), "\(result)")
        #expect(!result.stderr.contains("not-the-Pa55word"), "\(result)")
        #expect(try server.tables(in: database) == [])
    }

    @Test("no password at all: exit 75 that says where one goes")
    func noPassword() throws {
        let (server, database, uri) = try database("cli_nopassword")
        let box = try Sandbox()
        try box.copyFolks()

        let result = try box.run(["folks.xml", "--to", "postgres", "--db", uri], environment: clean(box))

        #expect(result.status == 75, "\(result)")
        #expect(result.stderrLines.count == 1, "\(result)")
        #expect(result.stderr.contains("never a password in --db"), "\(result)")
        #expect(try server.tables(in: database) == [])
    }

    @Test("--db '' takes the server, database, user and password from PGHOST, PGDATABASE, PGUSER and PGPASSWORD")
    func everythingFromTheEnvironment() throws {
        let (server, database, _) = try database("cli_pgenv")
        let box = try Sandbox()
        try box.copyFolks()

        let result = try box.run(
            ["-v", "folks.xml", "--to", "postgres", "--db", ""],
            environment: clean(
                box,
                [
                    "PGHOST": server.socketDirectory, "PGPORT": "5432", "PGDATABASE": database, "PGUSER": user,
                    "PGPASSWORD": TestPostgresServer.password
                ]))

        #expect(result.status == 0, "\(result)")
        #expect(result.summary?.contains("3 records in 1 table (people) to postgresql://\(user)@") == true, "\(result)")
        #expect(!result.stderr.contains(TestPostgresServer.password), "\(result)")
        #expect(try server.psql("select firstname, lastname from people", database: database) == folks)
    }
}
