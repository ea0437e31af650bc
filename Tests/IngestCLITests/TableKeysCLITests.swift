import Foundation
import PostgresTestServer
import Testing

/// `--table`, `--pk`, `--upsert` without a schema, and upserts that keep the columns a
/// record lacks (`--upsert-nulls` for the whole row): issue 28, item 4.
@Suite("--table, --pk and --upsert without a schema")
struct TableKeysCLITests {
    /// Two monthly files of events, the second updating one event and adding one.
    static let january = """
        {"id": 1, "kind": "open", "user": "ann"}
        {"id": 2, "kind": "click", "user": "bob"}

        """
    static let february = """
        {"id": 2, "kind": "close"}
        {"id": 3, "kind": "open", "user": "cy"}

        """

    /// Records of different columns, the same key more than once, an explicit null:
    /// upserted, id 1 ends as a3, b2 and id 2 as NULL, b2.
    static let mixedColumns = """
        {"id": 1, "a": "a1", "b": "b1"}
        {"id": 1, "b": "b2"}
        {"id": 2, "a": "a2", "b": "b2"}
        {"id": 1, "a": "a3"}
        {"id": 2, "a": null}

        """

    /// A small schema keyed by id, with an optional email.
    static let schema = """
        {"entities": [{"name": "person", "records": "people/person", "table": "people", "primaryKey": "id",
          "fields": [{"name": "id", "source": "@id", "type": "integer"}, {"name": "name"}, {"name": "email"}]}]}
        """

    /// Runs `arguments`, which must fail with exit 65 saying each of `messages` and
    /// leave no `output` behind.
    static func expectDataError(
        _ box: Sandbox, _ arguments: [String], saying messages: [String], leaving output: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let result = try box.run(arguments)
        #expect(result.status == 65, "\(result)", sourceLocation: sourceLocation)
        for message in messages {
            #expect(result.stderr.contains(message), "\(result)", sourceLocation: sourceLocation)
        }
        #expect(!box.exists(output), sourceLocation: sourceLocation)
    }

    // MARK: --table

    @Test("--table events --append: monthly files land in one table (each made its own before)")
    func monthlyFilesInOneTable() throws {
        let box = try Sandbox()
        try box.write("events-2024-01.ndjson", Self.january)
        try box.write("events-2024-02.ndjson", Self.february)
        for file in ["events-2024-01.ndjson", "events-2024-02.ndjson"] {
            let result = try box.run([file, "--table", "events", "--append", "--out", "all.db", "-q"])
            #expect(result.status == 0, "\(result)")
        }
        #expect(try box.tables("all.db") == ["events"])
        #expect(
            try box.rows("all.db", "SELECT id, kind FROM events ORDER BY rowid")
                == [["1", "open"], ["2", "click"], ["2", "close"], ["3", "open"]])

        // Without --table each month is a table of its own.
        let separate = try box.run(["events-2024-01.ndjson", "events-2024-02.ndjson", "--out", "apart.db", "-q"])
        #expect(separate.status == 0, "\(separate)")
        #expect(try box.tables("apart.db") == ["events-2024-01", "events-2024-02"])
    }

    @Test("--table names an XML collection's table; a hostile name is only a name")
    func hostileTableName() throws {
        let box = try Sandbox()
        try box.copyFolks()
        let hostile = "x\"; DROP TABLE people; --"
        #expect(try box.run(["folks.xml", "--out", "f.db", "-q"]).status == 0)
        let result = try box.run(["folks.xml", "--table", hostile, "--append", "--out", "f.db", "-q"])
        #expect(result.status == 0, "\(result)")
        #expect(try box.tables("f.db") == ["people", hostile])
        #expect(try box.rows("f.db", "SELECT count(*) FROM \"x\"\"; DROP TABLE people; --\"") == [["3"]])
    }

    @Test("--table with records of two kinds fails (65) and writes nothing")
    func twoKindsRefused() throws {
        let box = try Sandbox()
        try box.write("mixed.xml", "<r><a><x>1</x></a><b><y>2</y></b></r>")
        try Self.expectDataError(
            box, ["mixed.xml", "--table", "things", "--out", "m.db"],
            saying: ["--table things takes records of one kind, but <b> records follow <a> records"], leaving: "m.db")
    }

    @Test("--table, --pk and --upsert-nulls where they cannot apply: usage errors (64)")
    func usageErrors() throws {
        let box = try Sandbox()
        try box.write("e.ndjson", Self.january)
        try box.write("s.json", Self.schema)
        let cases: [([String], String)] = [
            (
                ["--table", "t", "--to", "json", "--out", "o.json"],
                "--table names a table of a database; --to json has none."
            ),
            (["--table", "t", "--schema", "s.json"], "--table names the table of the automatic mapping"),
            (["--pk", "id", "--to", "ndjson", "--out", "o.ndjson"], "--pk makes a primary key of a database table"),
            (["--pk", "id", "--schema", "s.json"], "a --schema declares its keys itself"),
            (["--pk", "id,", "--out", "o.db"], "--pk needs column names"),
            (["--pk", "id", "--pk", "ID", "--out", "o.db"], "--pk names the column id twice."),
            (["--upsert", "--out", "o.db"], "--upsert updates rows by their primary key: name its columns with --pk"),
            (["--pk", "id", "--upsert-nulls", "--out", "o.db"], "--upsert-nulls says what --upsert does")
        ]
        for (arguments, message) in cases {
            let result = try box.run(["e.ndjson"] + arguments)
            #expect(result.status == 64, "\(arguments): \(result)")
            #expect(result.stderr.contains(message), "\(arguments): \(result)")
        }
        #expect(try box.listing() == ["e.ndjson", "s.json"])
    }

    // MARK: --pk

    @Test("--pk id makes the primary key; --pk a,b and --pk a --pk b a composite one")
    func primaryKeys() throws {
        let box = try Sandbox()
        try box.write("e.ndjson", Self.january)
        #expect(try box.run(["e.ndjson", "--pk", "id", "--out", "one.db", "-q"]).status == 0)
        #expect(try box.rows("one.db", "SELECT name FROM pragma_table_info('e') WHERE pk > 0 ORDER BY pk") == [["id"]])
        for (name, arguments) in [("comma.db", ["--pk", "user,id"]), ("twice.db", ["--pk", "user", "--pk", "id"])] {
            let result = try box.run(["e.ndjson", "--out", name, "-q"] + arguments)
            #expect(result.status == 0, "\(result)")
            #expect(
                try box.rows(name, "SELECT name FROM pragma_table_info('e') WHERE pk > 0 ORDER BY pk") == [
                    ["user"], ["id"]
                ])
        }
    }

    @Test("--pk: a duplicate key without --upsert fails (65) naming the record and the key; nothing written")
    func duplicateKey() throws {
        let box = try Sandbox()
        try box.write("e.ndjson", Self.january + Self.february)
        try Self.expectDataError(
            box, ["e.ndjson", "--pk", "id", "--out", "e.db"], saying: ["e.ndjson:3:", "(key id=2)"], leaving: "e.db")
    }

    @Test("--pk: a record without the key, or a key column no record has, fails (65); nothing written")
    func missingKey() throws {
        let box = try Sandbox()
        try box.write("e.ndjson", Self.january + "{\"kind\": \"lost\"}\n")
        try Self.expectDataError(
            box, ["e.ndjson", "--pk", "id", "--out", "e.db"],
            saying: [
                "e.ndjson:3:",
                "the record has no value for id, a column of the primary key of e (--pk id); its fields: kind"
            ],
            leaving: "e.db")
        try Self.expectDataError(
            box, ["e.ndjson", "--pk", "uid", "--out", "e.db"], saying: ["the record has no value for uid"],
            leaving: "e.db")
    }

    @Test("--pk into an existing table keyed otherwise, or not at all, is refused; the file is unchanged")
    func existingTableKeyedOtherwise() throws {
        let box = try Sandbox()
        try box.write("e.ndjson", Self.january)
        #expect(try box.run(["e.ndjson", "--out", "e.db", "-q"]).status == 0)
        let before = try box.contents("e.db")
        let result = try box.run(["e.ndjson", "--pk", "id", "--upsert", "--out", "e.db"])
        #expect(result.status != 0, "\(result)")
        #expect(result.stderr.contains("the existing table e has no primary key, not (id) as --pk says"), "\(result)")
        #expect(try box.contents("e.db") == before)
    }

    // MARK: --upsert without a schema

    @Test("--pk id --upsert: a stored key updates its row, keeping the columns the record lacks")
    func upsertKeepsMissingColumns() throws {
        let box = try Sandbox()
        try box.write("events-2024-01.ndjson", Self.january)
        try box.write("events-2024-02.ndjson", Self.february)
        for file in ["events-2024-01.ndjson", "events-2024-02.ndjson"] {
            let result = try box.run([file, "--table", "events", "--pk", "id", "--upsert", "--out", "e.db", "-q"])
            #expect(result.status == 0, "\(result)")
        }
        // Event 2 lost no user: February's record has none.
        #expect(
            try box.rows("e.db", "SELECT id, kind, user FROM events ORDER BY id")
                == [["1", "open", "ann"], ["2", "close", "bob"], ["3", "open", "cy"]])
    }

    @Test("--upsert-nulls: the columns a record lacks become NULL (the whole row replaced)")
    func upsertNulls() throws {
        let box = try Sandbox()
        try box.write("a.ndjson", Self.january)
        try box.write("b.ndjson", Self.february)
        for file in ["a.ndjson", "b.ndjson"] {
            let result = try box.run([
                file, "--table", "events", "--pk", "id", "--upsert", "--upsert-nulls", "--out", "e.db", "-q"
            ])
            #expect(result.status == 0, "\(result)")
        }
        #expect(
            try box.rows("e.db", "SELECT id, kind, user FROM events ORDER BY id")
                == [["1", "open", "ann"], ["2", "close", nil], ["3", "open", "cy"]])
    }

    @Test("--upsert in one run: records of different columns, the same key twice, an explicit null")
    func upsertMixedColumnsInOneRun() throws {
        let box = try Sandbox()
        try box.write("e.ndjson", TableKeysCLITests.mixedColumns)
        let result = try box.run(["e.ndjson", "--pk", "id", "--upsert", "--out", "e.db", "-q"])
        #expect(result.status == 0, "\(result)")
        #expect(try box.rows("e.db", "SELECT id, a, b FROM e ORDER BY id") == [["1", "a3", "b2"], ["2", nil, "b2"]])
    }

    @Test("--schema --upsert: a record lacking a field keeps its column; --upsert-nulls sets it NULL")
    func schemaUpsertKeepsMissingColumns() throws {
        let box = try Sandbox()
        try box.write("s.json", Self.schema)
        try box.write(
            "old.xml", "<people><person id=\"1\"><name>Ann</name><email>ann@example.org</email></person></people>")
        try box.write("new.xml", "<people><person id=\"1\"><name>Anne</name></person></people>")
        for (database, extra) in [("keep.db", [String]()), ("nulls.db", ["--upsert-nulls"])] {
            for file in ["old.xml", "new.xml"] {
                let result = try box.run([file, "--schema", "s.json", "--upsert", "--out", database, "-q"] + extra)
                #expect(result.status == 0, "\(result)")
            }
        }
        #expect(try box.rows("keep.db", "SELECT id, name, email FROM people") == [["1", "Anne", "ann@example.org"]])
        #expect(try box.rows("nulls.db", "SELECT id, name, email FROM people") == [["1", "Anne", nil]])
    }
}

/// The same against a real PostgreSQL.
@Suite(
    "--table, --pk and --upsert without a schema: --to postgres",
    .enabled(
        if: TestPostgresServer.enabled, "needs PostgreSQL's server programs (Debian's postgresql package), or CI set"))
struct TableKeysPostgresCLITests {
    @Test(
        "--table --pk --upsert: monthly files in one keyed table, missing columns kept; a hostile name is only a name")
    func upsertIntoOneTable() throws {
        let (server, database, uri) = try PostgresCLITests.database("cli_keys")
        let box = try Sandbox()
        try box.write("events-2024-01.ndjson", TableKeysCLITests.january)
        try box.write("events-2024-02.ndjson", TableKeysCLITests.february)
        for file in ["events-2024-01.ndjson", "events-2024-02.ndjson"] {
            let result = try box.run([
                file, "--to", "postgres", "--db", uri, "--table", "events", "--pk", "id", "--upsert", "-q"
            ])
            #expect(result.status == 0, "\(result)")
        }
        #expect(try server.tables(in: database) == ["events"])
        #expect(
            try server.psql("SELECT id::text, kind, \"user\" FROM events ORDER BY id", database: database)
                == [["1", "open", "ann"], ["2", "close", "bob"], ["3", "open", "cy"]])
        #expect(
            try server.psql(
                """
                SELECT a.attname::text FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY (i.indkey)
                WHERE i.indrelid = 'events'::regclass AND i.indisprimary
                """, database: database) == [["id"]])

        let hostile = "x\"; drop table events; --"  // lower case: --pg-names lower keeps it as it is
        let result = try box.run(["events-2024-01.ndjson", "--to", "postgres", "--db", uri, "--table", hostile, "-q"])
        #expect(result.status == 0, "\(result)")
        #expect(try server.tables(in: database).sorted() == ["events", hostile].sorted())
    }

    @Test("--upsert in one run: different columns, the same key twice; --upsert-nulls replaces the row")
    func upsertMixedColumns() throws {
        let (server, database, uri) = try PostgresCLITests.database("cli_keys_mixed")
        let box = try Sandbox()
        try box.write("e.ndjson", TableKeysCLITests.mixedColumns)
        let result = try box.run(["e.ndjson", "--to", "postgres", "--db", uri, "--pk", "id", "--upsert", "-q"])
        #expect(result.status == 0, "\(result)")
        #expect(
            try server.psql("SELECT id::text, a, b FROM e ORDER BY id", database: database) == [
                ["1", "a3", "b2"], ["2", nil, "b2"]
            ])

        try box.write("f.ndjson", "{\"id\": 1, \"a\": \"a4\"}\n")
        let nulls = try box.run([
            "f.ndjson", "--to", "postgres", "--db", uri, "--table", "e", "--pk", "id", "--upsert", "--upsert-nulls",
            "-q"
        ])
        #expect(nulls.status == 0, "\(nulls)")
        #expect(
            try server.psql("SELECT id::text, a, b FROM e ORDER BY id", database: database) == [
                ["1", "a4", nil], ["2", nil, "b2"]
            ])
    }

    @Test("--pk: a duplicate key without --upsert fails (65), nothing written; --schema --upsert keeps missing columns")
    func duplicateKeyAndSchemaUpsert() throws {
        let (server, database, uri) = try PostgresCLITests.database("cli_keys_dup")
        let box = try Sandbox()
        try box.write("e.ndjson", TableKeysCLITests.january + TableKeysCLITests.february)
        let result = try box.run(["e.ndjson", "--to", "postgres", "--db", uri, "--pk", "id"])
        #expect(result.status == 65, "\(result)")
        #expect(result.stderr.contains("(id)=(2)"), "\(result)")
        #expect(try server.tables(in: database) == [])

        try box.write("s.json", TableKeysCLITests.schema)
        try box.write(
            "old.xml", "<people><person id=\"1\"><name>Ann</name><email>ann@example.org</email></person></people>")
        try box.write("new.xml", "<people><person id=\"1\"><name>Anne</name></person></people>")
        for file in ["old.xml", "new.xml"] {
            let run = try box.run([file, "--to", "postgres", "--db", uri, "--schema", "s.json", "--upsert", "-q"])
            #expect(run.status == 0, "\(run)")
        }
        #expect(
            try server.psql("SELECT id::text, name, email FROM people", database: database) == [
                ["1", "Anne", "ann@example.org"]
            ])
    }
}
