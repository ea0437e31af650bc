import Foundation
import IngestCore
import PostgresTestServer
import IngestPostgres
import Testing

/// The automatic mapping into a real PostgreSQL: tables grown from the records, types
/// widened as values demand, names as the SQLite output gives them.
@Suite(
    .enabled(
        if: TestPostgresServer.enabled, "needs PostgreSQL's server programs (Debian's postgresql package), or CI set"))
struct AutomaticMappingOutputTests {
    @Test func recordsBecomeTypedRowsInOrder() async throws {
        let server = try TestPostgresServer.shared.get()
        let database = try server.makeDatabase("auto")
        let settings = try server.settings(database)
        try await onThread {
            let make = RecordMaker()
            try run(PostgresOutput(settings: settings)) {
                [
                    make.record(
                        "people", ["firstName": .text("Matt"), "lastName": .text("Neuburg"), "age": number("52")]),
                    make.record(
                        "people", ["firstName": .text("Snidely"), "lastName": .text("Whiplash"), "age": number("40")]),
                    make.record("people", ["firstName": .text("Dudley"), "lastName": .text("Doright"), "age": .null])
                ]
            }
        }
        #expect(
            try server.psql("SELECT firstname, lastname, age::text FROM people", database: database)
                == [["Matt", "Neuburg", "52"], ["Snidely", "Whiplash", "40"], ["Dudley", "Doright", nil]])
        #expect(
            try server.psql(
                """
                SELECT column_name::text, data_type::text FROM information_schema.columns
                WHERE table_name = 'people' ORDER BY ordinal_position
                """, database: database) == [["firstname", "text"], ["lastname", "text"], ["age", "bigint"]])
        #expect(try server.tables(in: database) == ["people"], "no temporary table is left")
    }

    @Test func everyValueKindGetsPostgresOwnType() async throws {
        let server = try TestPostgresServer.shared.get()
        let database = try server.makeDatabase("types")
        let settings = try server.settings(database)
        try await onThread {
            let make = RecordMaker()
            try run(PostgresOutput(settings: settings)) {
                [
                    make.record(
                        "things",
                        [
                            "flag": .bool(true), "count": number("-9223372036854775808"), "ratio": number("2.5"),
                            "label": .text("tab\there, newline\nthere, back\\slash, \"quoted\", ünïcödé 🎉"),
                            "nested": .json(#"{"a":[1,2,{"b":"c\\d"}]}"#, .object), "bytes": .data([0, 1, 0xfe, 0xff])
                        ]),
                    make.record(
                        "things",
                        [
                            "flag": .bool(false), "count": number("9223372036854775807"), "ratio": number("0.1"),
                            "label": .text(""), "nested": .json("[]", .array), "bytes": .data([])
                        ])
                ]
            }
        }
        #expect(
            try server.psql(
                """
                SELECT column_name::text, data_type::text FROM information_schema.columns
                WHERE table_name = 'things' ORDER BY ordinal_position
                """, database: database)
                == [
                    ["flag", "boolean"], ["count", "bigint"], ["ratio", "double precision"], ["label", "text"],
                    ["nested", "jsonb"], ["bytes", "bytea"]
                ])
        #expect(
            try server.psql(
                """
                SELECT flag::text, count::text, ratio::text, label, nested->'a'->2->>'b', encode(bytes, 'hex') FROM things
                """, database: database)
                == [
                    [
                        "true", "-9223372036854775808", "2.5",
                        "tab\there, newline\nthere, back\\slash, \"quoted\", ünïcödé 🎉", "c\\d", "0001feff"
                    ],
                    ["false", "9223372036854775807", "0.1", "", nil, ""]
                ])
    }

    @Test func columnsWidenAsValuesDemand() async throws {
        let server = try TestPostgresServer.shared.get()
        let database = try server.makeDatabase("widen")
        let settings = try server.settings(database)
        try await onThread {
            let make = RecordMaker()
            let output = PostgresOutput(settings: settings)
            output.batchSize = 64  // several batches, so rows are in the table when it widens
            try run(output) {
                [
                    make.record(
                        "t",
                        ["a": .bool(true), "b": number("1"), "c": number("7"), "d": .null, "e": .json("[1]", .array)]),
                    make.record(
                        "t",
                        [
                            "a": number("5"), "b": number("1.5"), "c": .text("seven"), "d": .null,
                            "e": .json("[2]", .array)
                        ]),
                    make.record(
                        "t",
                        ["a": number("0.25"), "b": number("2"), "c": number("8"), "d": number("3"), "e": .text("plain")]
                    ),
                    make.record(
                        "t", ["a": .bool(false), "b": .bool(true), "c": .bool(true), "d": .text("x"), "e": number("4")])
                ]
            }
        }
        #expect(
            try server.psql(
                """
                SELECT column_name::text, data_type::text FROM information_schema.columns WHERE table_name = 't' ORDER BY ordinal_position
                """, database: database)
                == [["a", "double precision"], ["b", "double precision"], ["c", "text"], ["d", "text"], ["e", "text"]])
        #expect(
            try server.psql("SELECT a::text, b::text, c, d, e FROM t", database: database)
                == [
                    ["1", "1", "7", nil, "[1]"], ["5", "1.5", "seven", nil, "[2]"], ["0.25", "2", "8", "3", "plain"],
                    ["0", "1", "true", "x", "4"]
                ])
    }

    @Test func fieldsMetLaterAddColumnsAndMissingFieldsAreNull() async throws {
        let server = try TestPostgresServer.shared.get()
        let database = try server.makeDatabase("grow")
        let settings = try server.settings(database)
        try await onThread {
            let make = RecordMaker()
            try run(PostgresOutput(settings: settings)) {
                [
                    make.record("p", ["a": .text("1")]),
                    make.record("p", ["b": .text("2")]),
                    make.record("p", ["c": number("3"), "a": .text("4")])
                ]
            }
        }
        #expect(
            try server.psql("SELECT a, b, c::text FROM p", database: database)
                == [["1", nil, nil], [nil, "2", nil], ["4", nil, "3"]])
    }

    @Test(arguments: PostgresOutput.IdentifierCase.allCases)
    func columnNamesFollowTheSQLiteOutputRules(names: PostgresOutput.IdentifierCase) async throws {
        let server = try TestPostgresServer.shared.get()
        let database = try server.makeDatabase("names")
        let settings = try server.settings(database)
        let long = String(repeating: "é", count: 40)  // 80 bytes
        try await onThread {
            let make = RecordMaker()
            try run(PostgresOutput(settings: settings, identifierCase: names)) {
                [
                    make.record(
                        "Mixed Case \"table\"",
                        pairs: [
                            ("id", .text("lower")), ("ID", .text("upper")), ("Id", .text("title")),
                            ("x\"); DROP TABLE t; --", .text("hostile")), ("dc:title", .text("prefixed")),
                            (long + "a", .text("long 1")), (long + "b", .text("long 2")),
                            ("q\"\u{301}", .text("combining"))
                        ])
                ]
            }
        }
        let columns = try server.psql(
            """
            SELECT column_name::text FROM information_schema.columns WHERE table_name = '\(names == .lower ? "mixed case" : "Mixed Case") "table"' ORDER BY ordinal_position
            """, database: database
        ).map { $0[0]! }
        let cut = String(repeating: "é", count: 31)  // 62 bytes: one more é would pass 63
        // Lower case: the same names with their ASCII letters folded.
        let exact = [
            "id", "ID_2", "Id_3", "x\"); DROP TABLE t; --", "dc:title", cut, String(repeating: "é", count: 30) + "_2",
            "q\"\u{301}"
        ]
        #expect(
            columns
                == (names == .lower
                    ? [
                        "id", "id_2", "id_3", "x\"); drop table t; --", "dc:title", cut,
                        String(repeating: "é", count: 30) + "_2", "q\"\u{301}"
                    ]
                    : exact))
        #expect(
            try server.psql(
                "SELECT * FROM \"\(names == .lower ? "mixed case" : "Mixed Case") \"\"table\"\"\"", database: database)
                == [["lower", "upper", "title", "hostile", "prefixed", "long 1", "long 2", "combining"]])
    }

    @Test func aCollectionThatTurnsOutImpureRenamesItsTable() async throws {
        let server = try TestPostgresServer.shared.get()
        let database = try server.makeDatabase("rename")
        let settings = try server.settings(database)
        try await onThread {
            let make = RecordMaker()
            let output = PostgresOutput(settings: settings)
            try output.writeAndCommit { sink in
                try sink.write(make.record("people", ["name": .text("a")]))
                try sink.renameTable("people", to: "person")
                try sink.write(make.record("person", ["name": .text("b")]))
                try sink.write(make.record("company", ["name": .text("c")]))
            }
            #expect(output.tableSummaries.map(\.name) == ["person", "company"])
        }
        #expect(try server.tables(in: database) == ["company", "person"])
        #expect(try server.psql("SELECT name FROM person", database: database) == [["a"], ["b"]])
    }

    @Test func emptyNestedElementsBecomeEmptyJSON() async throws {
        let server = try TestPostgresServer.shared.get()
        let database = try server.makeDatabase("emptyjson")
        let settings = try server.settings(database)
        try await onThread {
            let make = RecordMaker()
            try run(PostgresOutput(settings: settings)) {
                [
                    make.record("r", ["tags": .text(""), "meta": .json(#"{"k":1}"#, .object), "note": .text("")]),
                    make.record("r", ["tags": .json(#"["x"]"#, .array), "meta": .text(""), "note": .text("")]),
                    make.record("r", ["tags": .text(""), "meta": .json("{}", .object), "note": .json("[1]", .array)]),
                    make.record("r", ["tags": .null, "meta": .null, "note": .text("words")])
                ]
            }
        }
        #expect(
            try server.psql(
                "SELECT column_name::text, data_type::text FROM information_schema.columns WHERE table_name = 'r' ORDER BY ordinal_position",
                database: database) == [["tags", "jsonb"], ["meta", "jsonb"], ["note", "text"]])
        #expect(
            try server.psql("SELECT tags::text, meta::text, note FROM r", database: database)
                == [["[]", #"{"k": 1}"#, "[]"], [#"["x"]"#, "{}", "[]"], ["[]", "{}", "[1]"], [nil, nil, "words"]])
    }

    @Test func textWithANulCharacterIsADataErrorAtItsRecord() async throws {
        let server = try TestPostgresServer.shared.get()
        let database = try server.makeDatabase("nul")
        let settings = try server.settings(database)
        let error = try await onThread { () -> IngestError? in
            let make = RecordMaker()
            do {
                try run(PostgresOutput(settings: settings)) {
                    [make.record("t", ["a": .text("fine")]), make.record("t", ["a": .text("bad\u{0}byte")])]
                }
                return nil
            } catch let error as IngestError {
                return error
            }
        }
        #expect(error?.kind == .data)
        #expect(error?.position?.line == 2)
        #expect(error?.message.contains("U+0000") == true)
        #expect(try server.tables(in: database) == [])
    }

    @Test func emptyInputCreatesNothing() async throws {
        let server = try TestPostgresServer.shared.get()
        let database = try server.makeDatabase("empty")
        let settings = try server.settings(database)
        try await onThread { try run(PostgresOutput(settings: settings, mode: .replace)) { [] } }
        #expect(try server.tables(in: database) == [])
    }
}
