import Foundation
import IngestKit
import IngestPostgres
import Testing

/// Tables a mapping schema declares: types, keys, child tables, and the upsert.
@Suite(.enabled(if: TestPostgresServer.enabled, "needs PostgreSQL's server programs (Debian's postgresql package), or CI set"))
struct DesignOutputTests {
    static func design(upsert: Bool = false) -> TableDesign {
        TableDesign(tables: [
            .init(name: "people",
                  columns: [.init(name: "id", type: .integer, notNull: true), .init(name: "name", type: .text, notNull: true),
                            .init(name: "born", type: .date), .init(name: "seen", type: .datetime), .init(name: "active", type: .bool),
                            .init(name: "score", type: .real), .init(name: "photo", type: .data), .init(name: "extra", type: .json)],
                  primaryKey: ["id"], unique: [["name"]], indexes: [["born"]], childTables: ["phones"]),
            .init(name: "phones",
                  columns: [.init(name: "number", type: .text, notNull: true), .init(name: "kind", type: .text)],
                  primaryKey: ["number"],
                  foreignKey: .init(column: "person_id", parentTable: "people", parentColumn: "id", type: .integer)),
        ], upsert: upsert)
    }

    static func person(_ make: RecordMaker, _ id: Int, name: String, born: String = "2000-01-01") -> Record {
        make.record("people", ["id": number(String(id)), "name": .text(name), "born": .text(born), "seen": .text("2024-05-01T09:30:00Z"),
                               "active": .bool(id % 2 == 0), "score": number("1.5"), "photo": .data([UInt8(id), 0xff]),
                               "extra": .json(#"{"id":\#(id)}"#, .object)])
    }

    static func phone(_ make: RecordMaker, _ person: Int, _ number: String, kind: String = "home") -> Record {
        make.record("phones", ["person_id": IngestPostgresTests.number(String(person)), "number": .text(number), "kind": .text(kind)])
    }

    /// People 1…count, each with two phones.
    static func family(_ make: RecordMaker, _ ids: ClosedRange<Int>, name: (Int) -> String = { "person \($0)" }) -> [Record] {
        ids.flatMap { [person(make, $0, name: name($0)), phone(make, $0, "\($0)-a"), phone(make, $0, "\($0)-b", kind: "work")] }
    }

    @Test func declaredTablesTypesKeysAndIndexes() async throws {
        let server = try TestPostgresServer.shared.get()
        let database = try server.makeDatabase("design")
        let settings = try server.settings(database)
        try await onThread {
            let make = RecordMaker()
            try run(try PostgresOutput(settings: settings, design: Self.design())) { Self.family(make, 1...2) }
        }
        #expect(try server.psql("""
            SELECT table_name::text, column_name::text, data_type::text, is_nullable::text FROM information_schema.columns
            WHERE table_schema = 'public' ORDER BY table_name, ordinal_position
            """, database: database) == [
                ["people", "id", "bigint", "NO"], ["people", "name", "text", "NO"], ["people", "born", "date", "YES"],
                ["people", "seen", "timestamp with time zone", "YES"], ["people", "active", "boolean", "YES"],
                ["people", "score", "double precision", "YES"], ["people", "photo", "bytea", "YES"], ["people", "extra", "jsonb", "YES"],
                ["phones", "person_id", "bigint", "NO"], ["phones", "number", "text", "NO"], ["phones", "kind", "text", "YES"],
            ])
        #expect(try server.psql("SELECT indexname::text FROM pg_indexes WHERE schemaname = 'public' ORDER BY 1", database: database)
                .map { $0[0]! } == ["people_born", "people_name_key", "people_pkey", "phones_person_id", "phones_pkey"])
        #expect(try server.psql("SELECT conname::text, confdeltype::text FROM pg_constraint WHERE contype = 'f'", database: database)
                == [["phones_person_id_fkey", "c"]], "the foreign key cascades deletes")
        #expect(try server.psql("""
            SELECT id::text, born::text, to_char(seen AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS'), active::text, score::text,
                   encode(photo, 'hex'), extra->>'id' FROM people ORDER BY id
            """, database: database)
                == [["1", "2000-01-01", "2024-05-01 09:30:00", "false", "1.5", "01ff", "1"],
                    ["2", "2000-01-01", "2024-05-01 09:30:00", "true", "1.5", "02ff", "2"]])
        #expect(try server.psql("SELECT person_id::text, number, kind FROM phones ORDER BY number", database: database)
                == [["1", "1-a", "home"], ["1", "1-b", "work"], ["2", "2-a", "home"], ["2", "2-b", "work"]])
    }

    @Test func replacingDeclaredTablesGivesIndexesAndConstraintsTheirFinalNames() async throws {
        let server = try TestPostgresServer.shared.get()
        let database = try server.makeDatabase("designreplace")
        let settings = try server.settings(database)
        for (round, ids) in [(1, 1...3), (2, 10...11)] {
            try await onThread {
                let make = RecordMaker()
                try run(try PostgresOutput(settings: settings, mode: .replace, design: Self.design())) {
                    Self.family(make, ids) { "round \(round) person \($0)" }
                }
            }
        }
        #expect(try server.psql("SELECT id::text FROM people ORDER BY id", database: database) == [["10"], ["11"]])
        #expect(try server.value("SELECT count(*) FROM phones", database: database) == "4")
        #expect(try server.psql("SELECT indexname::text FROM pg_indexes WHERE schemaname = 'public' ORDER BY 1", database: database)
                .map { $0[0]! } == ["people_born", "people_name_key", "people_pkey", "phones_person_id", "phones_pkey"])
        #expect(try server.psql("SELECT conname::text FROM pg_constraint WHERE connamespace = 'public'::regnamespace ORDER BY 1", database: database)
                .map { $0[0]! } == ["people_name_key", "people_pkey", "phones_person_id_fkey", "phones_pkey"])
        #expect(try server.value("SELECT count(*) FROM pg_class WHERE relname LIKE 'ingest%'", database: database) == "0")
        #expect(try server.tables(in: database) == ["people", "phones"])
    }

    @Test func upsertUpdatesByKeyReplacesChildrenAndDeletesNothingElse() async throws {
        let server = try TestPostgresServer.shared.get()
        let database = try server.makeDatabase("upsert")
        let settings = try server.settings(database)
        try await onThread {
            let make = RecordMaker()
            try run(try PostgresOutput(settings: settings, design: Self.design())) { Self.family(make, 1...5) }
        }
        try await onThread {
            let make = RecordMaker()
            let output = try PostgresOutput(settings: settings, mode: .append, design: Self.design(upsert: true))
            output.batchSize = 300  // several batches; a parent and its children stay in one
            try run(output) {
                // 4 again with other phones, 5 again with none, 6 new, 7 twice (the last wins), 1–3 not mentioned.
                [Self.person(make, 4, name: "four, updated"), Self.phone(make, 4, "4-new")]
                    + [Self.person(make, 5, name: "five, updated")]
                    + Self.family(make, 6...6)
                    + [Self.person(make, 7, name: "seven, first"), Self.phone(make, 7, "7-first"),
                       Self.person(make, 7, name: "seven, last"), Self.phone(make, 7, "7-last")]
            }
        }
        #expect(try server.psql("SELECT id::text, name FROM people ORDER BY id", database: database)
                == [["1", "person 1"], ["2", "person 2"], ["3", "person 3"], ["4", "four, updated"], ["5", "five, updated"],
                    ["6", "person 6"], ["7", "seven, last"]])
        #expect(try server.psql("SELECT person_id::text, string_agg(number, ',' ORDER BY number) FROM phones GROUP BY person_id ORDER BY person_id", database: database)
                == [["1", "1-a,1-b"], ["2", "2-a,2-b"], ["3", "3-a,3-b"], ["4", "4-new"], ["6", "6-a,6-b"], ["7", "7-last"]])
        #expect(try server.value("SELECT count(*) FROM pg_class WHERE relname LIKE 'ingest%' AND relpersistence = 'p'", database: database) == "0")
    }

    @Test func aDuplicateKeyWithoutUpsertIsADataErrorAtItsRecord() async throws {
        let server = try TestPostgresServer.shared.get()
        let database = try server.makeDatabase("dupkey")
        let settings = try server.settings(database)
        let error = try await onThread { () -> IngestError? in
            let make = RecordMaker()
            do {
                try run(try PostgresOutput(settings: settings, design: Self.design())) {
                    Self.family(make, 1...3) + [Self.person(make, 2, name: "second two")]
                }
                return nil
            } catch let error as IngestError {
                return error
            }
        }
        #expect(error?.kind == .data)
        #expect(error?.message.contains("duplicate key") == true, "\(error?.message ?? "")")
        #expect(error?.position?.line == 10, "the tenth record is the duplicate: \(String(describing: error?.position))")
        #expect(try server.tables(in: database) == [])
    }

    @Test func upsertNeedsAPrimaryKeyOnEveryTable() throws {
        var design = Self.design(upsert: true)
        design.tables[1].primaryKey = []
        let settings = try PostgresConnectionSettings("dbname=x", environment: [:], homeDirectory: "/nonexistent")
        #expect(throws: IngestError.self) { try PostgresOutput(settings: settings, mode: .append, design: design) }
        do {
            _ = try PostgresOutput(settings: settings, mode: .append, design: design)
        } catch let error as IngestError {
            #expect(error.kind == .usage)
            #expect(error.message.contains("phones"))
        }
    }
}
