import Foundation
import IngestCore
import PostgresTestServer
import IngestPostgres
import IngestSQLite
import GRDB
import Testing

/// Tables a mapping schema declares: types, keys, child tables, and the upsert.
@Suite(
    .enabled(
        if: TestPostgresServer.enabled, "needs PostgreSQL's server programs (Debian's postgresql package), or CI set"))
struct DesignOutputTests {
    static func design(upsert: Bool = false) -> TableDesign {
        TableDesign(
            tables: [
                .init(
                    name: "people",
                    columns: [
                        .init(name: "id", type: .integer, notNull: true),
                        .init(name: "name", type: .text, notNull: true),
                        .init(name: "born", type: .date), .init(name: "seen", type: .datetime),
                        .init(name: "active", type: .bool),
                        .init(name: "score", type: .real), .init(name: "photo", type: .data),
                        .init(name: "extra", type: .json)
                    ],
                    primaryKey: ["id"], unique: [["name"]], indexes: [["born"]], childTables: ["phones"]),
                .init(
                    name: "phones",
                    columns: [.init(name: "number", type: .text, notNull: true), .init(name: "kind", type: .text)],
                    primaryKey: ["number"],
                    foreignKey: .init(column: "person_id", parentTable: "people", parentColumn: "id", type: .integer))
            ], upsert: upsert)
    }

    static func person(_ make: RecordMaker, _ id: Int, name: String, born: String = "2000-01-01") -> IngestRecord {
        make.record(
            "people",
            [
                "id": number(String(id)), "name": .text(name), "born": .text(born),
                "seen": .text("2024-05-01T09:30:00Z"),
                "active": .bool(id % 2 == 0), "score": number("1.5"), "photo": .data([UInt8(id), 0xff]),
                "extra": .json(#"{"id":\#(id)}"#, .object)
            ])
    }

    static func phone(_ make: RecordMaker, _ person: Int, _ number: String, kind: String = "home") -> IngestRecord {
        make.record(
            "phones",
            ["person_id": IngestPostgresTests.number(String(person)), "number": .text(number), "kind": .text(kind)])
    }

    /// People 1…count, each with two phones.
    static func family(_ make: RecordMaker, _ ids: ClosedRange<Int>, name: (Int) -> String = { "person \($0)" })
        -> [IngestRecord]
    {
        ids.flatMap {
            [person(make, $0, name: name($0)), phone(make, $0, "\($0)-a"), phone(make, $0, "\($0)-b", kind: "work")]
        }
    }

    @Test func declaredTablesTypesKeysAndIndexes() async throws {
        let server = try TestPostgresServer.shared.get()
        let database = try server.makeDatabase("design")
        let settings = try server.settings(database)
        try await onThread {
            let make = RecordMaker()
            try run(PostgresOutput(settings: settings, design: Self.design())) { Self.family(make, 1...2) }
        }
        #expect(
            try server.psql(
                """
                SELECT table_name::text, column_name::text, data_type::text, is_nullable::text FROM information_schema.columns
                WHERE table_schema = 'public' ORDER BY table_name, ordinal_position
                """, database: database) == [
                    ["people", "id", "bigint", "NO"], ["people", "name", "text", "NO"],
                    ["people", "born", "date", "YES"],
                    ["people", "seen", "timestamp with time zone", "YES"], ["people", "active", "boolean", "YES"],
                    ["people", "score", "double precision", "YES"], ["people", "photo", "bytea", "YES"],
                    ["people", "extra", "jsonb", "YES"],
                    ["phones", "person_id", "bigint", "NO"], ["phones", "number", "text", "NO"],
                    ["phones", "kind", "text", "YES"]
                ])
        #expect(
            try server.psql(
                "SELECT indexname::text FROM pg_indexes WHERE schemaname = 'public' ORDER BY 1", database: database
            )
            .map { $0[0]! } == ["people_born", "people_name_key", "people_pkey", "phones_person_id", "phones_pkey"])
        #expect(
            try server.psql(
                "SELECT conname::text, confdeltype::text FROM pg_constraint WHERE contype = 'f'", database: database)
                == [["phones_person_id_fkey", "c"]], "the foreign key cascades deletes")
        #expect(
            try server.psql(
                """
                SELECT id::text, born::text, to_char(seen AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS'), active::text, score::text,
                       encode(photo, 'hex'), extra->>'id' FROM people ORDER BY id
                """, database: database)
                == [
                    ["1", "2000-01-01", "2024-05-01 09:30:00", "false", "1.5", "01ff", "1"],
                    ["2", "2000-01-01", "2024-05-01 09:30:00", "true", "1.5", "02ff", "2"]
                ])
        #expect(
            try server.psql("SELECT person_id::text, number, kind FROM phones ORDER BY number", database: database)
                == [["1", "1-a", "home"], ["1", "1-b", "work"], ["2", "2-a", "home"], ["2", "2-b", "work"]])
    }

    @Test func replacingDeclaredTablesGivesIndexesAndConstraintsTheirFinalNames() async throws {
        let server = try TestPostgresServer.shared.get()
        let database = try server.makeDatabase("designreplace")
        let settings = try server.settings(database)
        for (round, ids) in [(1, 1...3), (2, 10...11)] {
            try await onThread {
                let make = RecordMaker()
                try run(PostgresOutput(settings: settings, mode: .replace, design: Self.design())) {
                    Self.family(make, ids) { "round \(round) person \($0)" }
                }
            }
        }
        #expect(try server.psql("SELECT id::text FROM people ORDER BY id", database: database) == [["10"], ["11"]])
        #expect(try server.value("SELECT count(*) FROM phones", database: database) == "4")
        #expect(
            try server.psql(
                "SELECT indexname::text FROM pg_indexes WHERE schemaname = 'public' ORDER BY 1", database: database
            )
            .map { $0[0]! } == ["people_born", "people_name_key", "people_pkey", "phones_person_id", "phones_pkey"])
        #expect(
            try server.psql(
                "SELECT conname::text FROM pg_constraint WHERE connamespace = 'public'::regnamespace ORDER BY 1",
                database: database
            )
            .map { $0[0]! } == ["people_name_key", "people_pkey", "phones_person_id_fkey", "phones_pkey"])
        #expect(
            try server.value("SELECT count(*) FROM pg_class WHERE relname LIKE 'ingest%'", database: database) == "0")
        #expect(try server.tables(in: database) == ["people", "phones"])
    }

    @Test func upsertUpdatesByKeyAndDeletesNothing() async throws {
        let server = try TestPostgresServer.shared.get()
        let database = try server.makeDatabase("upsert")
        let settings = try server.settings(database)
        try await onThread {
            let make = RecordMaker()
            try run(PostgresOutput(settings: settings, design: Self.design())) { Self.family(make, 1...5) }
        }
        try await onThread {
            let make = RecordMaker()
            let output = PostgresOutput(settings: settings, mode: .append, design: Self.design(upsert: true))
            output.batchSize = 300  // several batches; a parent and its children stay in one
            try run(output) {
                // 4 again with a new phone and one phone updated, 5 again without phones,
                // 6 new, 7 twice (the last wins), 1–3 not mentioned.
                [
                    Self.person(make, 4, name: "four, updated"), Self.phone(make, 4, "4-new"),
                    Self.phone(make, 4, "4-a", kind: "mobile")
                ]
                    + [Self.person(make, 5, name: "five, updated")]
                    + Self.family(make, 6...6)
                    + [
                        Self.person(make, 7, name: "seven, first"), Self.phone(make, 7, "7-first"),
                        Self.person(make, 7, name: "seven, last"), Self.phone(make, 7, "7-last")
                    ]
            }
        }
        #expect(
            try server.psql("SELECT id::text, name FROM people ORDER BY id", database: database)
                == [
                    ["1", "person 1"], ["2", "person 2"], ["3", "person 3"], ["4", "four, updated"],
                    ["5", "five, updated"],
                    ["6", "person 6"], ["7", "seven, last"]
                ])
        #expect(
            try server.psql(
                "SELECT person_id::text, string_agg(number || ':' || kind, ',' ORDER BY number) FROM phones GROUP BY person_id ORDER BY person_id",
                database: database)
                == [
                    ["1", "1-a:home,1-b:work"], ["2", "2-a:home,2-b:work"], ["3", "3-a:home,3-b:work"],
                    ["4", "4-a:mobile,4-b:work,4-new:home"], ["5", "5-a:home,5-b:work"], ["6", "6-a:home,6-b:work"],
                    ["7", "7-first:home,7-last:home"]
                ],
            "a child with a key of its own is upserted; no child row is deleted")
        #expect(
            try server.value(
                "SELECT count(*) FROM pg_class WHERE relname LIKE 'ingest%' AND relpersistence = 'p'",
                database: database) == "0")
    }

    /// `people` keyed by id, their `tags` without a key of their own, as
    /// Schemas/people-with-tags.json declares them.
    static let taggedDesign = TableDesign(
        tables: [
            .init(
                name: "people",
                columns: [.init(name: "id", type: .integer, notNull: true), .init(name: "name", type: .text)],
                primaryKey: ["id"], childTables: ["tags"]),
            .init(
                name: "tags",
                columns: [.init(name: "tag", type: .text, notNull: true), .init(name: "note", type: .text)],
                foreignKey: .init(column: "person_id", parentTable: "people", parentColumn: "id", type: .integer))
        ], upsert: true)

    static func tagged(_ make: RecordMaker, _ id: Int, name: String, tags: [String], note: String? = nil)
        -> [IngestRecord]
    {
        [make.record("people", ["id": number(String(id)), "name": .text(name)])]
            + tags.map {
                make.record(
                    "tags",
                    ["person_id": number(String(id)), "tag": .text($0), "note": note.map(FieldValue.text) ?? .null])
            }
    }

    @Test func keylessChildRowsAreAddedOnceAndGiveTheSQLiteOutputsRows() async throws {
        let server = try TestPostgresServer.shared.get()
        let database = try server.makeDatabase("keyless")
        let settings = try server.settings(database)
        // Longer than a B-tree entry may be: the unique index holds its MD5.
        let long = String(repeating: "long tag é ", count: 1_000)
        let runs: [@Sendable (RecordMaker) -> [IngestRecord]] = [
            { make in
                Self.tagged(make, 1, name: "one", tags: ["a", "b", long])
                    + Self.tagged(make, 2, name: "two", tags: ["x"], note: "n")
            },
            // Again, with one tag more for 1, 2 renamed and its tag repeated within the run, 3 new.
            { make in
                Self.tagged(make, 1, name: "one", tags: ["a", "b", long, "c"])
                    + Self.tagged(make, 2, name: "two again", tags: ["x", "x"], note: "n")
                    + Self.tagged(make, 3, name: "three", tags: [])
            }
        ]
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "ingest-keyless-\(UUID().uuidString).db"
        ).path
        defer { try? FileManager.default.removeItem(atPath: path) }
        for records in runs {
            try await onThread {
                let output = PostgresOutput(settings: settings, mode: .append, design: Self.taggedDesign)
                output.batchSize = 100
                try run(output) { records(RecordMaker()) }
            }
            try SQLiteOutput(path: path, mode: .append, design: Self.taggedDesign).writeAndCommit { sink in
                for record in records(RecordMaker()) { try sink.write(record) }
            }
        }
        let postgresPeople = try server.psql("SELECT id::text, name FROM people ORDER BY id", database: database)
        // The long tag shown by its length, so a failure prints something readable.
        func short(_ rows: [[String?]]) -> [[String?]] {
            rows.map { $0.map { $0.map { $0.count > 100 ? "<\($0.utf8.count) bytes>" : $0 } } }
        }
        let postgresTags = short(
            try server.psql("SELECT person_id::text, tag, note FROM tags ORDER BY person_id, tag", database: database))
        #expect(postgresPeople == [["1", "one"], ["2", "two again"], ["3", "three"]])
        #expect(
            postgresTags == [
                ["1", "a", nil], ["1", "b", nil], ["1", "c", nil], ["1", "<\(long.utf8.count) bytes>", nil],
                ["2", "x", "n"]
            ],
            "each tag once, also those whose note is NULL")

        let sqlite = try DatabaseQueue(path: path)
        let (sqlitePeople, sqliteTags) = try await sqlite.read { db in
            (
                try Row.fetchAll(db, sql: "SELECT CAST(id AS TEXT), name FROM people ORDER BY id").map {
                    [$0[0] as String?, $0[1] as String?]
                },
                try Row.fetchAll(db, sql: "SELECT CAST(person_id AS TEXT), tag, note FROM tags ORDER BY person_id, tag")
                    .map {
                        [$0[0] as String?, $0[1] as String?, $0[2] as String?]
                    }
            )
        }
        #expect(postgresPeople == sqlitePeople)
        #expect(postgresTags == short(sqliteTags))
    }

    @Test func aDuplicateKeyWithoutUpsertIsADataErrorAtItsRecord() async throws {
        let server = try TestPostgresServer.shared.get()
        let database = try server.makeDatabase("dupkey")
        let settings = try server.settings(database)
        let error = try await onThread { () -> IngestError? in
            let make = RecordMaker()
            do {
                try run(PostgresOutput(settings: settings, design: Self.design())) {
                    Self.family(make, 1...3) + [Self.person(make, 2, name: "second two")]
                }
                return nil
            } catch let error as IngestError {
                return error
            }
        }
        #expect(error?.kind == .data)
        #expect(error?.message.contains("duplicate key") == true, "\(error?.message ?? "")")
        #expect(
            error?.position?.line == 10, "the tenth record is the duplicate: \(String(describing: error?.position))")
        #expect(try server.tables(in: database) == [])
    }
}
