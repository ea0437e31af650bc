import Foundation
import PostgresTestServer
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `--to postgres --db URI`, run as a user runs it — the built binary — against the
/// real PostgreSQL the test support starts (initdb, pg_ctl, a Unix socket).
@Suite(
    "--to postgres: the command against a real PostgreSQL",
    .enabled(
        if: TestPostgresServer.enabled, "needs PostgreSQL's server programs (Debian's postgresql package), or CI set"))
struct PostgresCLITests {
    /// A new database on the shared server and its URI.
    static func database(_ hint: String) throws -> (server: TestPostgresServer, name: String, uri: String) {
        let server = try TestPostgresServer.shared.get()
        let name = try server.makeDatabase(hint)
        return (server, name, server.uri(name))
    }

    // MARK: the same rows as SQLite

    @Test("folks.xml: the same table, columns and values as --to db")
    func folksLikeSQLite() throws {
        let (server, database, uri) = try Self.database("cli_folks")
        let box = try Sandbox()
        try box.copyFolks()

        let postgres = try box.run(["-v", "folks.xml", "--to", "postgres", "--db", uri])
        let sqlite = try box.run(["folks.xml", "--out", "folks.db", "-q"])

        #expect(postgres.status == 0, "\(postgres)")
        #expect(sqlite.status == 0, "\(sqlite)")
        #expect(postgres.summary?.contains("3 records in 1 table (people) to postgresql://") == true, "\(postgres)")
        #expect(try server.tables(in: database) == ["people"])
        try Self.expectSameTable("people", server: server, database: database, as: box, file: "folks.db", orderBy: nil)
        #expect(try server.psql("select firstname, lastname from people", database: database) == folks)
    }

    @Test(
        "generated people.xml: the same columns and values as --to db",
        .enabled(
            if: SharedBench.generator != nil,
            "needs ../shared/bench/gen_people.py (absent in a clone without ../shared)"))
    func peopleLikeSQLite() throws {
        let (server, database, uri) = try Self.database("cli_people")
        let box = try Sandbox()
        let generate = try box.run(
            ["python3", SharedBench.generator!.path, "2000", box.directory.path],
            executable: URL(fileURLWithPath: "/usr/bin/env"))
        try #require(generate.status == 0, "\(generate)")

        let postgres = try box.run(["people.xml", "--to", "postgres", "--db", uri, "-q"])
        let sqlite = try box.run(["people.xml", "--out", "people.db", "-q"])

        #expect(postgres.status == 0, "\(postgres)")
        #expect(sqlite.status == 0, "\(sqlite)")
        try Self.expectSameTable(
            "people", server: server, database: database, as: box, file: "people.db", orderBy: "id")
    }

    @Test("records without fields are rows, as in --to db; a table of nothing but them gets the column _")
    func emptyRecordsLikeSQLite() throws {
        let (server, database, uri) = try Self.database("cli_empty")
        let box = try Sandbox()
        try box.write("mixed.xml", "<r><a/><a></a><b/><b><x>1</x></b><b/></r>")

        let postgres = try box.run(["mixed.xml", "--to", "postgres", "--db", uri, "-q"])
        let sqlite = try box.run(["mixed.xml", "--out", "mixed.db", "-q"])

        #expect(postgres.status == 0, "\(postgres)")
        #expect(sqlite.status == 0, "\(sqlite)")
        #expect(try server.tables(in: database) == ["a", "b"])
        try Self.expectSameTable("a", server: server, database: database, as: box, file: "mixed.db", orderBy: nil)
        try Self.expectSameTable("b", server: server, database: database, as: box, file: "mixed.db", orderBy: nil)
        #expect(try server.psql("SELECT x::text FROM b", database: database) == [[nil], ["1"], [nil]])
        #expect(try server.psql("SELECT count(*)::text, count(_)::text FROM a", database: database) == [["2", "0"]])
    }

    /// The PostgreSQL table and the SQLite one have the same column names in the same
    /// order and the same values row by row: numbers compared as numbers, nested data
    /// as JSON (jsonb spaces and orders its text its own way).
    static func expectSameTable(
        _ table: String, server: TestPostgresServer, database: String, as box: Sandbox, file: String,
        orderBy: String?, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let types = try server.psql(
            """
            SELECT column_name::text, data_type::text FROM information_schema.columns
            WHERE table_schema = 'public' AND table_name = '\(table)' ORDER BY ordinal_position
            """, database: database)
        let columns = types.map { $0[0]! }
        // The SQLite output's names, in lower case as --pg-names lower (the default) spells them.
        #expect(columns == (try box.columns(file, table: table)).map(asciiLowercased), sourceLocation: sourceLocation)
        let order = orderBy.map { " ORDER BY \"\(asciiLowercased($0))\"" } ?? ""
        let postgresRows = try server.psql("SELECT * FROM \"\(table)\"\(order)", database: database)
        let sqliteRows = try box.rows(
            file, "SELECT * FROM \"\(table)\"\(orderBy.map { " ORDER BY \"\($0)\"" } ?? " ORDER BY rowid")")
        #expect(postgresRows.count == sqliteRows.count, sourceLocation: sourceLocation)
        var differences: [String] = []
        for (row, (postgres, sqlite)) in zip(postgresRows, sqliteRows).enumerated() {
            for (index, type) in types.enumerated() where !same(postgres[index], sqlite[index], type: type[1]!) {
                differences.append(
                    "row \(row + 1) \(columns[index]): PostgreSQL \(postgres[index] ?? "NULL"), SQLite \(sqlite[index] ?? "NULL")"
                )
            }
        }
        #expect(differences.isEmpty, "\(differences.prefix(10))", sourceLocation: sourceLocation)
    }

    static func same(_ postgres: String?, _ sqlite: String?, type: String) -> Bool {
        guard let postgres, let sqlite else { return postgres == nil && sqlite == nil }
        switch type {
        case "double precision", "bigint": return Double(postgres) == Double(sqlite)
        case "jsonb":
            guard
                let left = try? JSONSerialization.jsonObject(with: Data(postgres.utf8), options: .fragmentsAllowed)
                    as? NSObject,
                let right = try? JSONSerialization.jsonObject(with: Data(sqlite.utf8), options: .fragmentsAllowed)
                    as? NSObject
            else { return false }
            return left.isEqual(right)
        default: return postgres == sqlite
        }
    }

    // MARK: schemas

    @Test("--schema people-with-tags.json --upsert twice: the same counts, no duplicates, the SQLite output's rows")
    func upsertTwice() throws {
        let (server, database, uri) = try Self.database("cli_upsert")
        let box = try Sandbox()
        let schema = SchemaCLITests.schema("people-with-tags.json")
        let toPostgres = ["people.xml", "--schema", schema, "--upsert", "--to", "postgres", "--db", uri, "-q"]
        let toSQLite = ["people.xml", "--schema", schema, "--upsert", "--out", "p.db", "-q"]
        func counts() throws -> [[String?]] {
            try server.psql("SELECT (SELECT count(*) FROM people), (SELECT count(*) FROM tags)", database: database)
        }

        try box.write("people.xml", SchemaCLITests.people([["a", "b"], ["c"], []]))
        for arguments in [toPostgres, toPostgres, toSQLite, toSQLite] {
            let result = try box.run(arguments)
            try #require(result.status == 0, "\(result)")
        }
        #expect(try counts() == [["3", "3"]])

        // Newer data: a renamed person whose tags changed, and a new person; twice.
        try box.write(
            "people.xml",
            SchemaCLITests.people(
                [["a", "b"], ["x", "y", "z"], [], ["new"]],
                firstNames: ["First0", "Renamed", "First2", "First3"]))
        for arguments in [toPostgres, toPostgres, toSQLite, toSQLite] {
            let result = try box.run(arguments)
            try #require(result.status == 0, "\(result)")
        }
        #expect(try counts() == [["4", "7"]], "the old tag of person 2 stays, the new ones are added once")
        #expect(try server.value("SELECT \"firstName\" FROM people WHERE id = 2", database: database) == "Renamed")
        #expect(
            try server.value("SELECT count(*) FROM (SELECT DISTINCT person_id, tag FROM tags) AS d", database: database)
                == "7")
        #expect(
            try server.psql(
                """
                SELECT id::text, active::int::text, "firstName", "lastName", email, born::text, score::text, bio FROM people ORDER BY id
                """, database: database)
                == box.rows(
                    "p.db", "SELECT id, active, firstName, lastName, email, born, score, bio FROM people ORDER BY id"))
        #expect(
            try server.psql("SELECT person_id::text, tag FROM tags ORDER BY person_id, tag", database: database)
                == box.rows("p.db", "SELECT person_id, tag FROM tags ORDER BY person_id, tag"))
    }

    @Test("--on-error skip --rejects: the rejected record is set aside, the others are in PostgreSQL")
    func rejects() throws {
        let (server, database, uri) = try Self.database("cli_rejects")
        let box = try Sandbox()
        try box.write(
            "people.xml", SchemaCLITests.people([["a"], ["b"], ["c"]], id: { $0 == 1 ? "x7" : String($0 + 1) }))

        let result = try box.run([
            "-v", "people.xml", "--schema", SchemaCLITests.schema("people-with-tags.json"),
            "--on-error", "skip", "--rejects", "r.ndjson", "--to", "postgres", "--db", uri
        ])

        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.contains("1 rejected (see r.ndjson)"), "\(result)")
        #expect(try server.psql("SELECT id::text FROM people ORDER BY id", database: database) == [["1"], ["3"]])
        #expect(
            try server.psql("SELECT person_id::text, tag FROM tags ORDER BY person_id", database: database) == [
                ["1", "a"], ["3", "c"]
            ])
        #expect(
            try server.value("SELECT count(*) FROM pg_constraint WHERE contype = 'f'", database: database) == "1",
            "tags refer to people")
        #expect(String(decoding: try box.contents("r.ndjson"), as: UTF8.self).contains("not an integer"))
    }

    // MARK: modes

    @Test("create refuses tables that exist (73, naming them); --replace rebuilds; --append adds; --alter adds columns")
    func modes() throws {
        let (server, database, uri) = try Self.database("cli_modes")
        let box = try Sandbox()
        try box.copyFolks()
        try #require(try box.run(["folks.xml", "--to", "postgres", "--db", uri, "-q"]).status == 0)

        let again = try box.run(["folks.xml", "--to", "postgres", "--db", uri])
        #expect(again.status == 73, "\(again)")
        #expect(
            again.stderr.contains("public.people already exists; use --replace to rebuild it or --append to add to it"),
            "\(again)")

        let appended = try box.run(["folks.xml", "--to", "postgres", "--db", uri, "--append", "-q"])
        #expect(appended.status == 0, "\(appended)")
        #expect(try server.value("SELECT count(*) FROM people", database: database) == "6")

        try box.write(
            "more.xml",
            "<people><person><firstName>Nell</firstName><lastName>Fenwick</lastName><age>19</age></person></people>")
        let refused = try box.run(["more.xml", "--to", "postgres", "--db", uri, "--append"])
        #expect(refused.status == 65, "\(refused)")
        #expect(refused.stderr.contains("has no column for field age; --alter would add it"), "\(refused)")
        let altered = try box.run(["more.xml", "--to", "postgres", "--db", uri, "--append", "--alter", "-v"])
        #expect(altered.status == 0, "\(altered)")
        #expect(altered.stderr.contains("added column age to table people (--alter)"), "\(altered)")

        let replaced = try box.run(["folks.xml", "--to", "postgres", "--db", uri, "--replace", "-q"])
        #expect(replaced.status == 0, "\(replaced)")
        #expect(try server.psql("select firstname, lastname from people", database: database) == folks)
        #expect(try server.tables(in: database) == ["people"])
    }

    @Test("a SIGKILL mid-import leaves the old data and no stray tables", arguments: ["--replace", "--append"])
    func killed(mode: String) throws {
        let (server, database, uri) = try Self.database("cli_killed")
        let box = try Sandbox()
        try box.copyFolks()
        try #require(try box.run(["folks.xml", "--to", "postgres", "--db", uri, "-q"]).status == 0)
        try box.write("big.xml", manyPeople(1_000_000))

        let pid = try spawnWithSignalsUnblocked(
            try Locations.requireIngest().path,
            [box.path("big.xml"), "--to", "postgres", "--db", uri, mode, "-q"])
        // Rows are going in once the server is copying for the import's session.
        let copying =
            "SELECT count(*) FROM pg_stat_activity WHERE datname = '\(database)' AND application_name = 'ingest' AND query LIKE 'COPY%'"
        let running = try isStillRunning(pid, within: 60) { try server.value(copying, database: database) != "0" }
        try #require(running, "the import finished before it could be killed; make the input bigger")
        let (status, _) = signalAndWait(pid, SIGKILL)
        #expect(status & 0x7F == SIGKILL, "killed (wait status \(status))")

        // The server notices the closed socket and rolls the transaction back.
        let sessions =
            "SELECT count(*) FROM pg_stat_activity WHERE datname = '\(database)' AND application_name = 'ingest'"
        for _ in 0..<500 where try server.value(sessions, database: database) != "0" { usleep(20_000) }
        #expect(try server.value(sessions, database: database) == "0")
        #expect(try server.psql("select firstname, lastname from people", database: database) == folks)
        #expect(try server.tables(in: database) == ["people"])
        #expect(
            try server.value("SELECT count(*) FROM pg_class WHERE relname LIKE 'ingest%'", database: database) == "0")
    }

    // MARK: names

    @Test("--pg-names: lower (the default) needs no quotes, exact keeps the input's spelling, --append finds either")
    func names() throws {
        let (server, database, uri) = try Self.database("cli_names")
        let box = try Sandbox()
        try box.write(
            "folks.json", try Data(contentsOf: Locations.packageRoot.appendingPathComponent("Samples/folks.json")))
        try box.write("twins.json", #"{"Things": [{"ID": 1, "id": "one", "Order": "first"}]}"#)

        let lower = try box.run(["folks.json", "twins.json", "--to", "postgres", "--db", uri, "-q"])
        #expect(lower.status == 0, "\(lower)")
        #expect(try server.psql("select firstname, lastname from people", database: database) == folks)
        #expect(
            try server.psql(#"select id::text, id_2, "order" from things"#, database: database) == [
                ["1", "one", "first"]
            ],
            "ID and id fold alike and stay two columns")

        let exact = try box.run(["folks.json", "--to", "postgres", "--db", uri, "--pg-names", "exact", "-q"])
        #expect(exact.status == 73, "people exists; \"People\" would not: \(exact)")
        try box.write("Folks.json", #"{"People": [{"firstName": "Nell", "lastName": "Fenwick"}]}"#)
        let mixed = try box.run(["Folks.json", "--to", "postgres", "--db", uri, "--pg-names", "exact", "-q"])
        #expect(mixed.status == 0, "\(mixed)")
        #expect(
            try server.psql(#"SELECT "firstName", "lastName" FROM "People""#, database: database) == [
                ["Nell", "Fenwick"]
            ])

        // An append without --pg-names finds the mixed-case table and columns: no new ones.
        let appended = try box.run(["Folks.json", "--to", "postgres", "--db", uri, "--append", "-q"])
        #expect(appended.status == 0, "\(appended)")
        #expect(try server.tables(in: database) == ["People", "people", "things"])
        #expect(
            try server.psql(#"SELECT "firstName", "lastName" FROM "People""#, database: database)
                == [["Nell", "Fenwick"], ["Nell", "Fenwick"]])
        #expect(
            try server.value(
                "SELECT count(*) FROM information_schema.columns WHERE table_name = 'People'", database: database)
                == "2")
    }

    @Test("--pg-names is in ingest help import")
    func namesHelp() throws {
        let help = try Sandbox().run(["help", "import"])
        #expect(help.stdout.contains("--pg-names <lower|exact>"), "\(help)")
    }

    // MARK: many importers

    @Test("4 concurrent --append processes into one table: exactly 4 × the rows")
    func fourAppenders() throws {
        let (server, database, uri) = try Self.database("cli_four")
        let box = try Sandbox()
        let count = 20_000
        try box.write("people.xml", manyPeople(count))

        let results = UncheckedResults(count: 4)
        let sandbox = UncheckedSandbox(box)
        DispatchQueue.concurrentPerform(iterations: 4) { index in
            results.set(
                index, Result { try sandbox.box.run(["people.xml", "--to", "postgres", "--db", uri, "--append", "-q"]) }
            )
        }
        for result in results.values {
            let run = try result.get()
            #expect(run.status == 0, "\(run)")
        }
        #expect(try server.value("SELECT count(*) FROM people", database: database) == String(4 * count))
        #expect(
            try server.value(
                "SELECT count(*) FROM (SELECT firstname FROM people GROUP BY 1 HAVING count(*) <> 4) AS odd",
                database: database) == "0", "every record four times, none lost or doubled")
        #expect(try server.tables(in: database) == ["people"])
    }

    @Test("--replace runs take turns: the second waits for the first, a reader sees one whole input at a time")
    func replacesTakeTurns() throws {
        let (server, database, uri) = try Self.database("cli_turns")
        let box = try Sandbox()
        try box.write("big.xml", manyPeople(300_000))
        try box.write("small.xml", manyPeople(1_000))
        let ingest = try Locations.requireIngest().path

        let first = try spawnWithSignalsUnblocked(
            ingest, [box.path("big.xml"), "--to", "postgres", "--db", uri, "--replace", "-q"])
        let copying =
            "SELECT count(*) FROM pg_stat_activity WHERE datname = '\(database)' AND application_name = 'ingest' AND query LIKE 'COPY%'"
        var deadline = Date().addingTimeInterval(60)
        while try server.value(copying, database: database) == "0", Date() < deadline { usleep(20_000) }
        let second = try spawnWithSignalsUnblocked(
            ingest, [box.path("small.xml"), "--to", "postgres", "--db", uri, "--replace", "-q"])

        // The second run waits on the first one's advisory lock on the table's name.
        let waiting = "SELECT count(*) FROM pg_stat_activity WHERE datname = '\(database)' AND wait_event = 'advisory'"
        var sawWaiting = false
        var counts: Set<String> = []
        deadline = Date().addingTimeInterval(120)
        var firstStatus: Int32 = 0, secondStatus: Int32 = 0
        var firstDone = false, secondDone = false
        while !(firstDone && secondDone), Date() < deadline {
            if !sawWaiting, try server.value(waiting, database: database) == "1" { sawWaiting = true }
            if let count = try? server.value("SELECT count(*) FROM people", database: database) { counts.insert(count) }
            if !firstDone { firstDone = waitpid(first, &firstStatus, WNOHANG) == first }
            if !secondDone { secondDone = waitpid(second, &secondStatus, WNOHANG) == second }
            usleep(5_000)
        }
        try #require(firstDone && secondDone, "the runs did not finish in time")
        #expect(firstStatus == 0 && secondStatus == 0, "wait statuses \(firstStatus), \(secondStatus)")
        #expect(sawWaiting, "the second run waited for the first")
        #expect(counts.isSubset(of: ["300000", "1000"]), "a reader saw \(counts.sorted())")
        #expect(
            try server.value("SELECT count(*) FROM people", database: database) == "1000",
            "the run that waited committed last")
        #expect(try server.tables(in: database) == ["people"])
    }

    // MARK: failures

    @Test("a table another session holds past --lock-timeout: exit 75 that says so, nothing written")
    func lockTimeout() throws {
        let (server, database, uri) = try Self.database("cli_locked")
        let box = try Sandbox()
        try box.copyFolks()
        try #require(try box.run(["folks.xml", "--to", "postgres", "--db", uri, "-q"]).status == 0)

        // Another session takes the table and keeps it.
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: try #require(PostgresPrograms.directory) + "/psql")
        holder.arguments = [
            "-X", "-q", "-h", server.socketDirectory, "-U", TestPostgresServer.superuser, "-d", database,
            "-c", "BEGIN; LOCK TABLE people IN ACCESS EXCLUSIVE MODE; SELECT pg_sleep(60); COMMIT"
        ]
        holder.standardOutput = FileHandle.nullDevice
        holder.standardError = FileHandle.nullDevice
        try holder.run()
        defer {
            _ = try? server.psql(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE '%pg_sleep(60)%' AND pid <> pg_backend_pid()",
                database: database)
            holder.waitUntilExit()
        }
        let held =
            "SELECT count(*) FROM pg_locks WHERE relation = 'people'::regclass AND mode = 'AccessExclusiveLock' AND granted"
        let deadline = Date().addingTimeInterval(30)
        while try server.value(held, database: database) == "0", Date() < deadline { usleep(20_000) }
        try #require(try server.value(held, database: database) == "1")

        let started = Date()
        let result = try box.run(["folks.xml", "--to", "postgres", "--db", uri, "--append", "--lock-timeout", "0.5"])

        #expect(result.status == 75, "\(result)")
        #expect(Date().timeIntervalSince(started) < 20, "it gave up after about half a second")
        #expect(result.stderrLines.count == 1, "\(result)")
        #expect(result.stderr.contains("another import is writing the same tables"), "\(result)")
        #expect(result.stderr.contains("waited 0.5 s"), "\(result)")
        #expect(result.stderr.contains("--lock-timeout SECONDS waits longer"), "\(result)")
        _ = try server.psql(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE '%pg_sleep(60)%' AND pid <> pg_backend_pid()",
            database: database)
        holder.waitUntilExit()
        #expect(try server.value("SELECT count(*) FROM people", database: database) == "3", "nothing was appended")
    }

    @Test("connection refused: exit 75 and one line that says so", arguments: ["socket", "tcp"])
    func refused(kind: String) throws {
        let box = try Sandbox()
        try box.copyFolks()
        let uri: String
        if kind == "socket" {
            uri = "postgresql:///nobody?host=\(box.directory.path)"  // no server's socket here
        } else {
            uri = "postgresql://me@127.0.0.1:\(try unusedLoopbackPort())/nobody?sslmode=disable"
        }

        let result = try box.run(["folks.xml", "--to", "postgres", "--db", uri])

        #expect(result.status == 75, "\(result)")
        #expect(result.stderrLines.count == 1, "\(result)")
        #expect(result.stderr.contains("cannot reach PostgreSQL at"), "\(result)")
        #expect(result.stderr.contains("Nothing was written; run again later"), "\(result)")
    }

    @Test(
        "a password in --db is a usage error (64) that never echoes it",
        arguments: [
            "postgresql://me:s3cret@localhost/db", "postgresql:///db?password=s3cret",
            "host=/tmp dbname=db password=s3cret"
        ])
    func passwordInURI(uri: String) throws {
        let box = try Sandbox()
        try box.copyFolks()

        let result = try box.run(["folks.xml", "--to", "postgres", "--db", uri])

        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains("PGPASSWORD"), "\(result)")
        #expect(!result.stderr.contains("s3cret"), "\(result)")
    }
}

/// `--to postgres` and `--db` checked against the other options: no server needed.
@Suite("--to postgres and --db: usage errors")
struct PostgresOptionTests {
    @Test(
        "usage errors (64) with a message that says what to do",
        arguments: [
            (["--to", "postgres", "--db", "postgresql:///db", "--out", "x.db"], "--out names a file"),
            (["--db", "postgresql:///db"], "--db names a PostgreSQL database: it needs --to postgres"),
            (["--to", "db", "--db", "postgresql:///db", "--out", "x.db"], "it needs --to postgres"),
            (["--to", "postgres"], "--to postgres needs --db"),
            (["--to", "postgres", "--db", "postgresql://host:notaport/db"], "--db: "),
            (["--to", "postgres", "--db", "postgresql:///db?nonsense=1"], "--db: "),
            (["--pg-names", "exact", "--out", "x.db"], "--pg-names spells the names of --to postgres only"),
            (
                ["--to", "postgres", "--db", "postgresql:///db", "--schema", "s.json", "--pg-names", "lower"],
                "a --schema's tables and columns are named as it writes them"
            ),
            (["--to", "postgres", "--db", "postgresql:///db", "--pg-names", "upper"], "--pg-names")
        ])
    func usage(arguments: [String], message: String) throws {
        let box = try Sandbox()
        try box.copyFolks()

        let result = try box.run(["folks.xml"] + arguments)

        #expect(result.status == 64, "\(result)")
        #expect(result.stderr.contains(message), "\(result)")
        #expect(try box.listing() == ["folks.xml"], "nothing written")
    }

    @Test("--dry-run needs no database")
    func dryRun() throws {
        let box = try Sandbox()
        try box.copyFolks()

        let result = try box.run(["folks.xml", "--to", "postgres", "--dry-run", "-v"])

        #expect(result.status == 0, "\(result)")
        #expect(
            result.summary?.contains("3 records in 1 table (people), dry run: nothing written") == true, "\(result)")
    }
}

/// Results that concurrent runs fill in, one slot each.
private final class UncheckedResults: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [Result<RunResult, any Error>?]
    init(count: Int) { slots = Array(repeating: nil, count: count) }
    func set(_ index: Int, _ result: Result<RunResult, any Error>) { lock.withLock { slots[index] = result } }
    var values: [Result<RunResult, any Error>] { lock.withLock { slots.compactMap { $0 } } }
}

/// A sandbox the concurrent runs share; each only reads it and starts a process.
private struct UncheckedSandbox: @unchecked Sendable {
    let box: Sandbox
    init(_ box: Sandbox) { self.box = box }
}

/// `name` with its ASCII letters in lower case, as `--pg-names lower` spells names.
private func asciiLowercased(_ name: String) -> String {
    String(decoding: name.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self)
}
