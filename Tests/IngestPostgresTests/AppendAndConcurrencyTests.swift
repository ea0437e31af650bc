import Foundation
import IngestCore
import PostgresTestServer
import IngestPostgres
import Testing

/// Append in one transaction; several imports writing the same tables at once.
@Suite(
    .enabled(
        if: TestPostgresServer.enabled, "needs PostgreSQL's server programs (Debian's postgresql package), or CI set"))
struct AppendAndConcurrencyTests {
    static func row(_ make: RecordMaker, _ index: Int, writer: Int) -> IngestRecord {
        make.record(
            "events",
            [
                "writer": number(String(writer)), "n": number(String(index)),
                "note": .text("writer \(writer) row \(index)")
            ])
    }

    /// How long the tests where imports queue behind one another let each wait for the table's
    /// lock. They test that nothing is lost or seen half-written, not the 60 s default, which
    /// a queue of imports under ThreadSanitizer can outlast.
    static let patientLockTimeout = 900.0

    /// An output for a test where imports queue behind one another.
    static func patientOutput(_ settings: PostgresConnectionSettings, mode: PostgresOutput.Mode) -> PostgresOutput {
        let output = PostgresOutput(settings: settings, mode: mode)
        output.lockTimeout = patientLockTimeout
        return output
    }

    static func failure(_ body: @escaping @Sendable () throws -> Void) async throws -> IngestError? {
        try await onThread { () -> IngestError? in
            do {
                try body()
                return nil
            } catch let error as IngestError {
                return error
            }
        }
    }

    @Test func appendAddsRowsAndCreatesMissingTables() async throws {
        let server = try TestPostgresServer.shared.get()
        let database = try server.makeDatabase("append")
        try server.psql(
            "CREATE TABLE events (id serial PRIMARY KEY, writer bigint, n bigint, note text, seen timestamptz DEFAULT now())",
            database: database)
        try server.psql("INSERT INTO events (writer, n, note) VALUES (0, 0, 'before')", database: database)
        let settings = try server.settings(database)
        try await onThread {
            let make = RecordMaker()
            try run(PostgresOutput(settings: settings, mode: .append)) {
                [
                    Self.row(make, 1, writer: 1), Self.row(make, 2, writer: 1),
                    make.record("fresh", ["x": .text("new table")])
                ]
            }
        }
        #expect(
            try server.psql(
                "SELECT id::text, writer::text, n::text, note, seen IS NOT NULL FROM events ORDER BY id",
                database: database)
                == [
                    ["1", "0", "0", "before", "t"], ["2", "1", "1", "writer 1 row 1", "t"],
                    ["3", "1", "2", "writer 1 row 2", "t"]
                ],
            "columns the records do not fill keep their defaults (a serial key, a timestamp)")
        #expect(try server.psql("SELECT x FROM fresh", database: database) == [["new table"]])
    }

    @Test func aFailedAppendAddsNothing() async throws {
        let server = try TestPostgresServer.shared.get()
        let database = try server.makeDatabase("appendfail")
        try server.psql(
            "CREATE TABLE events (writer bigint, n bigint, note text); INSERT INTO events VALUES (0, 0, 'before')",
            database: database)
        let settings = try server.settings(database)
        let error = try await Self.failure {
            let make = RecordMaker()
            let output = PostgresOutput(settings: settings, mode: .append)
            output.batchSize = 512  // rows reach the server before the bad one
            try stream(output, count: 3_001) { index in
                index < 3_000 ? Self.row(make, index, writer: 1) : make.record("events", ["n": .text("not a number")])
            }
        }
        #expect(error?.kind == .data)
        #expect(error?.position?.line == 3_001, "the error points at the record: \(String(describing: error))")
        #expect(error?.message.contains("bigint") == true)
        #expect(try server.value("SELECT count(*) FROM events", database: database) == "1")
    }

    @Test func anExistingTableGainsColumnsOnlyWithAlter() async throws {
        let server = try TestPostgresServer.shared.get()
        let database = try server.makeDatabase("alter")
        try server.psql("CREATE TABLE events (writer bigint, n bigint, note text)", database: database)
        let settings = try server.settings(database)
        let refused = try await Self.failure {
            let make = RecordMaker()
            try run(PostgresOutput(settings: settings, mode: .append)) {
                [Self.row(make, 1, writer: 1), make.record("events", ["n": number("2"), "extra": .text("new field")])]
            }
        }
        #expect(refused?.kind == .data)
        #expect(
            refused?.reason == .missingColumn(table: "events", field: "extra"), "the command says --alter would add it")
        #expect(refused?.position?.line == 2)
        #expect(try server.value("SELECT count(*) FROM events", database: database) == "0")

        let added = try await onThread { () -> [String] in
            let make = RecordMaker()
            let output = PostgresOutput(settings: settings, mode: .append, altersExistingTables: true)
            try run(output) {
                [
                    Self.row(make, 1, writer: 1),
                    make.record("events", ["n": number("2"), "extra": number("7"), "more": .bool(true)]),
                    make.record("events", ["n": number("3"), "extra": .text("seven")])
                ]
            }
            return output.columnsAddedToExistingTables.flatMap(\.columns)
        }
        #expect(added == ["extra", "more"])
        #expect(
            try server.psql("SELECT n::text, extra, more::text FROM events ORDER BY n", database: database)
                == [["1", nil, nil], ["2", "7", "true"], ["3", "seven", nil]],
            "a column this import added widens like a new table's")
    }

    @Test func fourConcurrentAppendersLoseAndDuplicateNothing() async throws {
        let server = try TestPostgresServer.shared.get()
        let database = try server.makeDatabase("concurrent")
        let settings = try server.settings(database)
        let rows = 20_000
        // The table does not exist yet: one import creates it, the others wait, then append.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 1...4 {
                group.addTask {
                    try await onThread {
                        let make = RecordMaker()
                        let output = Self.patientOutput(settings, mode: .append)
                        output.batchSize = 16_384
                        try stream(output, count: rows) { Self.row(make, $0, writer: writer) }
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(try server.value("SELECT count(*) FROM events", database: database) == String(4 * rows))
        #expect(
            try server.psql(
                "SELECT writer::text, count(*)::text, count(DISTINCT n)::text FROM events GROUP BY writer ORDER BY writer",
                database: database)
                == (1...4).map { [String($0), String(rows), String(rows)] })
        #expect(try server.tables(in: database) == ["events"])
    }

    @Test func anAppenderWaitingPastLockTimeoutSaysWhy() async throws {
        let server = try TestPostgresServer.shared.get()
        let database = try server.makeDatabase("lockwait")
        let settings = try server.settings(database)
        let creating = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        // The first import creates the table and, half-way, holds it open.
        async let first: Void = onThread {
            let make = RecordMaker()
            try stream(PostgresOutput(settings: settings, mode: .append), count: 200, batchSize: 10) { index in
                if index == 100 {
                    creating.signal()
                    release.wait()
                }
                return Self.row(make, index, writer: 1)
            }
        }
        try await onThread { creating.wait() }
        let error = try await Self.failure {
            let make = RecordMaker()
            let output = PostgresOutput(settings: settings, mode: .append)
            output.lockTimeout = 0.3
            try run(output) { [Self.row(make, 1, writer: 2)] }
        }
        release.signal()
        try await first
        #expect(error?.kind == .temporary)
        #expect(
            error?.message.contains("another import is writing the same tables") == true,
            "the lock wait's own error, not a later statement's: \(String(describing: error))")
        #expect(try server.value("SELECT count(*) FROM events", database: database) == "200")
    }

    @Test func concurrentReplacementsRunOneAfterTheOther() async throws {
        let server = try TestPostgresServer.shared.get()
        let database = try server.makeDatabase("replaces")
        let settings = try server.settings(database)
        let reader = try await TestClient.connect(server, database: database)
        let counts = try await withThrowingTaskGroup(of: [Int].self) { group -> [Int] in
            for writer in 1...3 {
                group.addTask {
                    try await onThread {
                        let make = RecordMaker()
                        let output = Self.patientOutput(settings, mode: .replace)
                        output.batchSize = 8_192
                        try stream(output, count: 5_000 * writer) { Self.row(make, $0, writer: writer) }
                    }
                    return []
                }
            }
            group.addTask {
                // Meanwhile a reader only ever sees one import's rows, whole.
                var seen: [Int] = []
                for _ in 0..<200 {
                    if let count = try? await reader.integer(
                        "SELECT count(*) * 10 + count(DISTINCT writer) FROM events")
                    {
                        seen.append(count)
                    }
                    try await Task.sleep(for: .milliseconds(5))
                }
                return seen
            }
            var all: [Int] = []
            for try await counts in group { all += counts }
            return all
        }
        await reader.close()
        #expect(Set(counts).isSubset(of: [50_001, 100_001, 150_001]), "a reader saw \(Set(counts).sorted())")
        let final = try server.psql(
            "SELECT count(*)::text, min(writer)::text, max(writer)::text FROM events", database: database)[0]
        #expect(final[1] == final[2], "one import's rows only")
        #expect(final[0] == String(5_000 * Int(final[1]!)!))
        #expect(try server.tables(in: database) == ["events"])
    }

    @Test func anAppendWaitsForAReplacementAndNeverWritesIntoADroppedTable() async throws {
        let server = try TestPostgresServer.shared.get()
        let database = try server.makeDatabase("mixed")
        try server.psql("CREATE TABLE events (writer bigint, n bigint, note text)", database: database)
        let settings = try server.settings(database)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                try await onThread {
                    let make = RecordMaker()
                    try stream(Self.patientOutput(settings, mode: .replace), count: 10_000) {
                        Self.row(make, $0, writer: 1)
                    }
                }
            }
            for writer in 2...3 {
                group.addTask {
                    try await onThread {
                        let make = RecordMaker()
                        try stream(Self.patientOutput(settings, mode: .append), count: 3_000) {
                            Self.row(make, $0, writer: writer)
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        // Appends that committed before the swap went with the old table; those after are in the new one.
        let perWriter = try server.psql(
            "SELECT writer::text, count(*)::text FROM events GROUP BY writer ORDER BY writer", database: database)
        #expect(perWriter.first == ["1", "10000"])
        for row in perWriter.dropFirst() { #expect(row[1] == "3000", "an append is whole or absent: \(perWriter)") }
    }
}
