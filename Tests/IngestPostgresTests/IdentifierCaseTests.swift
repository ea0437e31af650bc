import Foundation
import IngestCore
import PostgresTestServer
import IngestPostgres
import Testing

/// Tables and columns grown from the records are named in lower case, as PostgreSQL
/// folds unquoted names, unless the output keeps them exact; names that fold alike
/// stay apart; appends find tables and columns made with either spelling.
@Suite(
    .enabled(
        if: TestPostgresServer.enabled, "needs PostgreSQL's server programs (Debian's postgresql package), or CI set"))
struct IdentifierCaseTests {
    /// The columns of `table`, in order.
    static func columns(_ table: String, _ server: TestPostgresServer, _ database: String) throws -> [String] {
        try server.psql(
            """
            SELECT column_name::text FROM information_schema.columns
            WHERE table_schema = 'public' AND table_name = '\(table)' ORDER BY ordinal_position
            """, database: database
        ).map { $0[0]! }
    }

    static func folks(_ make: RecordMaker, table: String = "People") -> [IngestRecord] {
        [
            make.record(table, ["firstName": .text("Matt"), "lastName": .text("Neuburg")]),
            make.record(table, ["firstName": .text("Snidely"), "lastName": .text("Whiplash")])
        ]
    }

    @Test func namesFromTheRecordsAreLowerCaseSoQueriesNeedNoQuotes() async throws {
        let server = try TestPostgresServer.shared.get()
        let database = try server.makeDatabase("lower")
        let settings = try server.settings(database)
        try await onThread {
            let make = RecordMaker()
            try run(PostgresOutput(settings: settings)) { Self.folks(make) }
        }
        #expect(
            try server.psql("select firstname, lastname from people", database: database)
                == [["Matt", "Neuburg"], ["Snidely", "Whiplash"]])
        #expect(try server.tables(in: database) == ["people"])
        #expect(try Self.columns("people", server, database) == ["firstname", "lastname"])
    }

    @Test func exactKeepsTheRecordsSpelling() async throws {
        let server = try TestPostgresServer.shared.get()
        let database = try server.makeDatabase("exact")
        let settings = try server.settings(database)
        try await onThread {
            let make = RecordMaker()
            try run(PostgresOutput(settings: settings, identifierCase: .exact)) { Self.folks(make) }
        }
        #expect(try server.tables(in: database) == ["People"])
        #expect(try Self.columns("People", server, database) == ["firstName", "lastName"])
        #expect(try server.psql(#"SELECT "firstName" FROM "People""#, database: database) == [["Matt"], ["Snidely"]])
    }

    @Test func namesThatFoldAlikeStayApartEveryValueInOneColumn() async throws {
        let server = try TestPostgresServer.shared.get()
        let database = try server.makeDatabase("fold_twins")
        let settings = try server.settings(database)
        try await onThread {
            let make = RecordMaker()
            try run(PostgresOutput(settings: settings)) {
                [
                    make.record(
                        "Things",
                        pairs: [
                            ("ID", .text("upper")), ("id", .text("lower")), ("Id", .text("mixed")),
                            ("id_2", .text("literal"))
                        ]),
                    make.record("things", pairs: [("id", .text("other table"))])
                ]
            }
        }
        #expect(try server.tables(in: database) == ["things", "things_2"])
        #expect(try Self.columns("things", server, database) == ["id", "id_2", "id_3", "id_2_2"])
        #expect(
            try server.psql("select id, id_2, id_3, id_2_2 from things", database: database)
                == [["upper", "lower", "mixed", "literal"]])
        #expect(try server.psql("select id from things_2", database: database) == [["other table"]])
    }

    @Test func lowerCaseNamesAreTheSQLiteOutputsInLowerCase() async throws {
        // What SQLite tells apart (ASCII letters without case), folding keeps apart; so
        // the column names are SQLite's, folded, for any spelling.
        let server = try TestPostgresServer.shared.get()
        let database = try server.makeDatabase("fold_parity")
        let settings = try server.settings(database)
        let fields = ["name", "NAME", "Name_2", "name_2", "Ünï", "ünï", "ÜNÏ"]
        try await onThread {
            let make = RecordMaker()
            try run(PostgresOutput(settings: settings)) { [make.record("t", pairs: fields.map { ($0, .text($0)) })] }
        }
        #expect(
            try Self.columns("t", server, database) == ["name", "name_2", "name_2_2", "name_2_3", "Ünï", "ünï", "ÜnÏ"],
            "only ASCII letters fold, as PostgreSQL folds unquoted names")
        #expect(
            try server.psql(#"select name, name_2, name_2_2, name_2_3, "Ünï", "ünï", "ÜnÏ" from t"#, database: database)
                == [fields])
    }

    @Test func keywordsAreNamesToo() async throws {
        let server = try TestPostgresServer.shared.get()
        let database = try server.makeDatabase("keywords")
        let settings = try server.settings(database)
        try await onThread {
            let make = RecordMaker()
            try run(PostgresOutput(settings: settings)) {
                [make.record("Order", ["User": .text("ann"), "SELECT": number("1"), "from": .text("x")])]
            }
        }
        #expect(try server.tables(in: database) == ["order"])
        #expect(try Self.columns("order", server, database) == ["user", "select", "from"])
        #expect(
            try server.psql(#"select "user", "select"::text, "from" from "order""#, database: database) == [
                ["ann", "1", "x"]
            ])
    }

    @Test func anAppendFindsTheMixedCaseTableAndColumnsOfAnEarlierVersion() async throws {
        let server = try TestPostgresServer.shared.get()
        let database = try server.makeDatabase("append_exact")
        let settings = try server.settings(database)
        @Sendable func records(_ make: RecordMaker, _ run: String) -> [IngestRecord] {
            [
                make.record(
                    "People",
                    pairs: [("ID", .text("\(run) upper")), ("id", .text("\(run) lower")), ("firstName", .text(run))])
            ]
        }
        // As versions before names were folded made it: "People" ("ID", "id_2", "firstName").
        try await onThread {
            let make = RecordMaker()
            try run(PostgresOutput(settings: settings, identifierCase: .exact)) { records(make, "old") }
        }
        #expect(try Self.columns("People", server, database) == ["ID", "id_2", "firstName"])
        try await onThread {
            let make = RecordMaker()
            try run(PostgresOutput(settings: settings, mode: .append)) { records(make, "new") }
        }
        #expect(try server.tables(in: database) == ["People"], "no lower-case table beside it")
        #expect(try Self.columns("People", server, database) == ["ID", "id_2", "firstName"], "no column added")
        #expect(
            try server.psql(#"SELECT "ID", id_2, "firstName" FROM "People""#, database: database)
                == [["old upper", "old lower", "old"], ["new upper", "new lower", "new"]])
    }

    @Test func anAppendFindsTheLowerCaseColumnsItMade() async throws {
        let server = try TestPostgresServer.shared.get()
        let database = try server.makeDatabase("append_lower")
        let settings = try server.settings(database)
        for (label, mode) in [("first", PostgresOutput.Mode.create), ("second", .append)] {
            try await onThread {
                let make = RecordMaker()
                try run(PostgresOutput(settings: settings, mode: mode)) {
                    [make.record("People", pairs: [("ID", .text("\(label) upper")), ("id", .text("\(label) lower"))])]
                }
            }
        }
        #expect(try server.tables(in: database) == ["people"])
        #expect(try Self.columns("people", server, database) == ["id", "id_2"])
        #expect(
            try server.psql("select id, id_2 from people", database: database)
                == [["first upper", "first lower"], ["second upper", "second lower"]])
    }

    @Test func aRenamedTableGetsTheFoldedNewName() async throws {
        let server = try TestPostgresServer.shared.get()
        let database = try server.makeDatabase("rename")
        let settings = try server.settings(database)
        try await onThread {
            let make = RecordMaker()
            try PostgresOutput(settings: settings).writeAndCommit { sink in
                try sink.write(make.record("Items", ["Name": .text("first")]))
                try sink.renameTable("Items", to: "Person")
                try sink.write(make.record("Person", ["Name": .text("second")]))
            }
        }
        #expect(try server.tables(in: database) == ["person"])
        #expect(try server.psql("select name from person", database: database) == [["first"], ["second"]])
    }

    @Test func aDesignsNamesAreKeptAsDeclared() async throws {
        let server = try TestPostgresServer.shared.get()
        let database = try server.makeDatabase("design_names")
        let settings = try server.settings(database)
        let design = TableDesign(
            tables: [
                TableDesign.Table(
                    name: "People",
                    columns: [
                        .init(name: "personID", type: .integer, notNull: true),
                        .init(name: "firstName", type: .text)
                    ],
                    primaryKey: ["personID"])
            ], upsert: false)
        try await onThread {
            let make = RecordMaker()
            try run(PostgresOutput(settings: settings, design: design)) {
                [make.record("People", ["personID": number("1"), "firstName": .text("Matt")])]
            }
        }
        #expect(try server.tables(in: database) == ["People"])
        #expect(try Self.columns("People", server, database) == ["personID", "firstName"])
    }
}
