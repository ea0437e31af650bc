import Foundation
import IngestCore
import IngestPostgres
import PostgresTestServer
import Testing

/// `PostgresOutput.storedRows`: what a feed archive reads back before it writes — the
/// values as they were written, only committed rows, names quoted, values bound.
@Suite(
    .enabled(
        if: TestPostgresServer.enabled, "needs PostgreSQL's server programs (Debian's postgresql package), or CI set"))
struct StoredRowsTests {
    static let design = TableDesign(
        tables: [
            .init(
                name: "we\"ird table",
                columns: [
                    .init(name: "id", type: .integer, notNull: true), .init(name: "select", type: .text),
                    .init(name: "born", type: .date), .init(name: "seen", type: .datetime),
                    .init(name: "active", type: .bool),
                    .init(name: "score", type: .real), .init(name: "photo", type: .data),
                    .init(name: "extra", type: .json),
                    .init(name: "tags", type: .json)
                ],
                primaryKey: ["id"])
        ], upsert: true)
    static let table = "we\"ird table"
    static let columns = ["id", "select", "born", "seen", "active", "score", "photo", "extra", "tags"]

    static func records(_ make: RecordMaker) -> [IngestRecord] {
        [
            make.record(
                table,
                [
                    "id": number("1"), "select": .text("it's \"quoted\"; DROP TABLE x; --"),
                    "born": .text("2026-11-23"),
                    "seen": .text("2026-11-23T02:00:00Z"), "active": .bool(true), "score": number("2.5"),
                    "photo": .data([0, 1, 0xfe, 0xff]), "extra": .json(#"{"a":1}"#, .object),
                    "tags": .json(#"["x"]"#, .array)
                ]),
            make.record(
                table,
                [
                    "id": number("2"), "select": .null, "seen": .text("2026-11-23T04:30:00.25+02:00"),
                    "active": .bool(false),
                    "score": number("3.0")
                ]),
            make.record(table, ["id": number("3"), "select": .text("Zoë")])
        ]
    }

    /// A database holding the table, written by the output itself.
    static func prepared(_ hint: String) async throws -> (TestPostgresServer, String, PostgresConnectionSettings) {
        let server = try TestPostgresServer.shared.get()
        let database = try server.makeDatabase(hint)
        let settings = try server.settings(database)
        try await onThread {
            let make = RecordMaker()
            try run(PostgresOutput(settings: settings, mode: .append, design: Self.design)) { Self.records(make) }
        }
        return (server, database, settings)
    }

    @Test func valuesComeBackAsTheOutputWroteThem() async throws {
        let (_, _, settings) = try await Self.prepared("stored")
        let rows = try await onThread { () throws -> [[FieldValue]] in
            try PostgresOutput(settings: settings, mode: .append).storedRows(
                in: Self.table, columns: Self.columns, matching: [:])
        }
        let byID = Dictionary(uniqueKeysWithValues: rows.map { ($0[0].int64 ?? -1, $0) })
        #expect(byID.keys.sorted() == [1, 2, 3])
        #expect(
            byID[1] == [
                .integer(1), .text("it's \"quoted\"; DROP TABLE x; --"), .text("2026-11-23"),
                .text("2026-11-23T02:00:00Z"),
                .bool(true), number("2.5"), .data([0, 1, 0xfe, 0xff]), .json(#"{"a": 1}"#, .object),
                .json(#"["x"]"#, .array)
            ])
        // An instant with an offset and a fraction: UTC, the fraction kept, no trailing zeros.
        #expect(
            byID[2] == [
                .integer(2), .null, .null, .text("2026-11-23T02:30:00.25Z"), .bool(false), number("3.0"), .null, .null,
                .null
            ])
        #expect(byID[3]?[1] == .text("Zoë"))
    }

    @Test func matchingSelectsRowsByValueAndByNull() async throws {
        let (_, _, settings) = try await Self.prepared("stored_match")
        let found = try await onThread { () throws -> [[[FieldValue]]] in
            let output = PostgresOutput(settings: settings, mode: .append)
            return [
                try output.storedRows(in: Self.table, columns: ["select"], matching: ["id": .integer(3)]),
                try output.storedRows(in: Self.table, columns: ["id"], matching: ["select": .null]),
                try output.storedRows(
                    in: Self.table, columns: ["id"], matching: ["active": .bool(true), "born": .text("2026-11-23")]),
                try output.storedRows(in: Self.table, columns: ["id"], matching: ["photo": .data([0, 1, 0xfe, 0xff])]),
                try output.storedRows(in: Self.table, columns: ["id"], matching: ["select": .text("no such value")]),
                // The same output reads again through the session it opened.
                try output.storedRows(in: Self.table, columns: ["id"], matching: ["id": .integer(1)])
            ]
        }
        #expect(found == [[[.text("Zoë")]], [[.integer(2)]], [[.integer(1)]], [[.integer(1)]], [], [[.integer(1)]]])
    }

    @Test func aMissingTableHasNoRowsAndAnUnknownColumnIsAnError() async throws {
        let (_, _, settings) = try await Self.prepared("stored_missing")
        let (missing, error) = try await onThread { () throws -> ([[FieldValue]], IngestError?) in
            let output = PostgresOutput(settings: settings, mode: .append)
            let missing = try output.storedRows(in: "nothing here", columns: ["id"], matching: [:])
            do {
                _ = try output.storedRows(in: Self.table, columns: ["id", "no column"], matching: [:])
                return (missing, nil)
            } catch let error as IngestError {
                return (missing, error)
            }
        }
        #expect(missing.isEmpty)
        #expect(error?.kind == .io)
        #expect(error?.message.contains("has no column no column") == true, "\(error?.message ?? "")")
    }

    @Test func onlyCommittedRowsAreSeenAndAnOpenImportDoesNotBlockTheRead() async throws {
        let (_, _, settings) = try await Self.prepared("stored_committed")
        let seen = try await onThread { () -> (during: [[FieldValue]], after: [[FieldValue]]) in
            let make = RecordMaker()
            let writer = PostgresOutput(settings: settings, mode: .append, design: Self.design)
            let reader = PostgresOutput(settings: settings, mode: .append)
            var during: [[FieldValue]] = []
            try writer.writeAndCommit { sink in
                try sink.write(make.record(Self.table, ["id": number("4"), "select": .text("new")]))
                try sink.write(make.record(Self.table, ["id": number("1"), "select": .text("changed")]))
                try writer.flush()
                during = try reader.storedRows(in: Self.table, columns: ["id", "select"], matching: [:])
            }
            return (during, try reader.storedRows(in: Self.table, columns: ["id", "select"], matching: [:]))
        }
        #expect(Set(seen.during.map { $0[0].int64 }) == [1, 2, 3])
        #expect(seen.during.first { $0[0] == .integer(1) }?[1] == .text("it's \"quoted\"; DROP TABLE x; --"))
        #expect(Set(seen.after.map { $0[0].int64 }) == [1, 2, 3, 4])
        #expect(seen.after.first { $0[0] == .integer(1) }?[1] == .text("changed"))
    }

    @Test func aKeptSessionThatWasEndedIsReplaced() async throws {
        let (server, database, settings) = try await Self.prepared("stored_ended")
        let output = UncheckedOutput(PostgresOutput(settings: settings, mode: .append))
        let first = try await onThread { () throws -> [[FieldValue]] in
            try output.value.storedRows(in: Self.table, columns: ["id"], matching: ["id": .integer(3)])
        }
        // The server ends the reading session, as a restart between two feeds would.
        let ended = try server.psql(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '\(database)' AND pid <> pg_backend_pid()",
            database: database)
        #expect(ended == [["t"]], "the reading session was there to end")
        let second = try await onThread { () throws -> [[FieldValue]] in
            try output.value.storedRows(in: Self.table, columns: ["id"], matching: ["id": .integer(3)])
        }
        #expect(first == [[.integer(3)]])
        #expect(second == [[.integer(3)]])
    }

    @Test func noServerIsTemporary() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "ingest-pg-read-nobody-\(getpid())"
        ).path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let settings = try PostgresConnectionSettings(
            "postgresql:///db?host=\(directory)&user=me", environment: [:], homeDirectory: "/nonexistent")
        let error = try await onThread { () -> IngestError? in
            do {
                _ = try PostgresOutput(settings: settings, mode: .append).storedRows(
                    in: "t", columns: ["a"], matching: [:])
                return nil
            } catch let error as IngestError {
                return error
            }
        }
        #expect(error?.kind == .temporary)
        #expect(error?.reason == .serverUnavailable(.unreachable))
    }
}

/// An output handed from the test to the threads that read through it, one at a time.
private struct UncheckedOutput: @unchecked Sendable {
    let value: PostgresOutput
    init(_ value: PostgresOutput) { self.value = value }
}
