// Benchmarks/postgres.sh's measures of the PostgreSQL output (issue 17): not a test.
//
//   ingest-postgres-bench formats URI N          text vs binary COPY of N people-shaped rows
//   ingest-postgres-bench bridge URI N           the plain-thread bridge: round trips, and
//                                                N generated records at pipeline depths 0, 1, 2
//
// The import itself is measured through the real `ingest` binary (Benchmarks/postgres.sh).
import Foundation
import IngestCore
import IngestPostgres
import Logging
import PostgresNIO

let logger = Logger(label: "bench", factory: { _ in SwiftLogNoOpLogHandler() })

func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now()
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
}

func secondsAsync(_ body: () async throws -> Void) async rethrows -> Double {
    let start = DispatchTime.now()
    try await body()
    return Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
}

/// Deterministic people-shaped values, as the automatic mapping gives people.xml's:
/// id bigint, active text, three names and an email as text, born text, score double,
/// bio text, tags jsonb.
struct PersonRows {
    static let first = [
        "Matt", "Snidely", "Dudley", "Nell", "Zoë", "José", "Ågot", "Łukasz", "Øyvind", "Björk", "Chloé", "Renée", "李",
        "さくら", "Иван", "Αλέξανδρος"
    ]
    static let last = [
        "Neuburg", "Whiplash", "Doright", "Fenwick", "O'Brien", "Müller", "García", "Nguyễn", "田中", "Смирнов", "Łopata",
        "Dvořák", "D'Angelo", "Smith & Sons", "<Tag>", "Quote\"d"
    ]
    static let words =
        "lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore et dolore magna aliqua"
        .split(separator: " ").map(String.init)
    static let columns = ["id", "active", "firstName", "lastName", "email", "born", "score", "bio", "tags"]
    static let createColumns =
        #""id" bigint, "active" text, "firstName" text, "lastName" text, "email" text, "born" text, "score" double precision, "bio" text, "tags" jsonb"#

    var state: UInt64 = 42
    mutating func next() -> UInt64 {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return state >> 33
    }

    struct Row {
        var id: Int64, active: String, firstName: String, lastName: String, email: String, born: String, score: Double,
            bio: String, tags: String
    }

    mutating func row(_ id: Int) -> Row {
        let bio = (0..<(3 + Int(next() % 28))).map { _ in Self.words[Int(next() % UInt64(Self.words.count))] }.joined(
            separator: " ")
        let tags =
            "["
            + (0..<Int(next() % 5)).map { _ in "\"\(Self.words[Int(next() % UInt64(Self.words.count))])\"" }.joined(
                separator: ",") + "]"
        return Row(
            id: Int64(id), active: next() % 10 < 7 ? "true" : "false", firstName: Self.first[Int(next() % 16)],
            lastName: Self.last[Int(next() % 16)], email: "user\(id)@example.org",
            born:
                "\(1930 + next() % 80)-\(String(format: "%02d", 1 + next() % 12))-\(String(format: "%02d", 1 + next() % 28))",
            score: Double(Int64(next() % 2_000_000) - 1_000_000) / 1000, bio: bio, tags: tags)
    }
}

// MARK: formats

/// COPY text: tab-separated, backslash escapes, written by the output's own encoder.
func appendText(_ row: PersonRows.Row, to buffer: inout ByteBuffer) {
    func text(_ value: String) {
        var value = value
        value.withUTF8 { try! CopyTextEncoder.appendEscaped(UnsafeRawBufferPointer($0), to: &buffer) }
    }
    buffer.writeString(String(row.id))
    buffer.writeInteger(UInt8(9))
    text(row.active)
    buffer.writeInteger(UInt8(9))
    text(row.firstName)
    buffer.writeInteger(UInt8(9))
    text(row.lastName)
    buffer.writeInteger(UInt8(9))
    text(row.email)
    buffer.writeInteger(UInt8(9))
    text(row.born)
    buffer.writeInteger(UInt8(9))
    buffer.writeString(row.score.description)
    buffer.writeInteger(UInt8(9))
    text(row.bio)
    buffer.writeInteger(UInt8(9))
    text(row.tags)
    buffer.writeInteger(UInt8(10))
}

/// COPY binary: a 16-bit field count, then each field's 32-bit length and bytes.
func appendBinary(_ row: PersonRows.Row, to buffer: inout ByteBuffer) {
    func text(_ value: String) {
        buffer.writeInteger(Int32(value.utf8.count))
        buffer.writeString(value)
    }
    buffer.writeInteger(Int16(9))
    buffer.writeInteger(Int32(8))
    buffer.writeInteger(row.id)
    text(row.active)
    text(row.firstName)
    text(row.lastName)
    text(row.email)
    text(row.born)
    buffer.writeInteger(Int32(8))
    buffer.writeInteger(row.score.bitPattern)
    text(row.bio)
    buffer.writeInteger(Int32(row.tags.utf8.count + 1))
    buffer.writeInteger(UInt8(1))
    buffer.writeString(row.tags)  // jsonb version 1
}

func binaryHeader(_ buffer: inout ByteBuffer) {
    buffer.writeBytes(Array("PGCOPY\n".utf8) + [0xff, 0x0d, 0x0a, 0x00])
    buffer.writeInteger(Int32(0))
    buffer.writeInteger(Int32(0))
}

func formats(uri: String, count: Int) async throws {
    let settings = try PostgresConnectionSettings(uri)
    let endpoint = settings.endpoints[0]
    let configuration = PostgresConnection.Configuration(
        unixSocketPath: endpoint.socketPath, username: settings.user, password: nil, database: settings.database)
    let connection = try await PostgresConnection.connect(configuration: configuration, id: 1, logger: logger)
    let columns = PersonRows.columns
    var results: [String: [Double]] = [:]
    var bytes: [String: Int] = [:]
    for round in 1...3 {
        for format in ["text", "binary"] {
            let table = "bench_\(format)"
            try await connection.query(PostgresQuery(unsafeSQL: "DROP TABLE IF EXISTS \(table)"), logger: logger)
            try await connection.query(
                PostgresQuery(unsafeSQL: "CREATE TABLE \(table) (\(PersonRows.createColumns))"), logger: logger)
            var generator = PersonRows()
            var sent = 0
            let elapsed = try await secondsAsync {
                var id = 1
                while id <= count {
                    var buffer = ByteBuffer()
                    buffer.reserveCapacity(1 << 20 + 4096)
                    if format == "binary" { binaryHeader(&buffer) }
                    while id <= count, buffer.readableBytes < 1 << 20 {
                        let row = generator.row(id)
                        if format == "binary" { appendBinary(row, to: &buffer) } else { appendText(row, to: &buffer) }
                        id += 1
                    }
                    if format == "binary" { buffer.writeInteger(Int16(-1)) }
                    sent += buffer.readableBytes
                    let batch = buffer
                    if format == "binary" {
                        // PostgresNIO 1.33.2 offers only FORMAT text; its query is
                        // `COPY "<table>" … WITH (FORMAT text)`, so a table argument that
                        // closes the name, names the columns and comments out the rest asks for
                        // binary. For this measurement only.
                        let quotedColumns = columns.map { "\"\($0)\"" }.joined(separator: ", ")
                        try await connection.copyFrom(
                            table: "\(table)\" (\(quotedColumns)) FROM STDIN WITH (FORMAT binary) --", logger: logger
                        ) { writer in
                            try await writer.write(batch)
                        }
                    } else {
                        try await connection.copyFrom(table: table, columns: columns, logger: logger) { writer in
                            try await writer.write(batch)
                        }
                    }
                }
            }
            results[format, default: []].append(elapsed)
            bytes[format] = sent
            print("round \(round) \(format): \(String(format: "%.2f", elapsed)) s")
        }
        // Both tables must hold the same rows.
        for try await same in try await connection.query(
            "SELECT count(*) = \(count) AND NOT EXISTS (SELECT * FROM bench_text EXCEPT SELECT * FROM bench_binary) FROM bench_text",
            logger: logger
        ).decode(Bool.self) {
            guard same else { fatalError("text and binary COPY stored different rows") }
        }
    }
    for format in ["text", "binary"] {
        let best = results[format]!.min()!
        print(
            "\(format) COPY: \(count) rows, \(bytes[format]! / 1_000_000) MB sent, best of 3 \(String(format: "%.2f", best)) s (\(String(format: "%.0f", Double(count) / best)) rows/s)"
        )
    }
    try await connection.close()
}

// MARK: bridge

func bridge(uri: String, count: Int) async throws {
    let settings = try PostgresConnectionSettings(uri)
    let trips = 20_000
    // Round trips from a plain thread through the session (task on its own executor thread).
    let session = PostgresSession(target: settings.description)
    var warnings: [String] = []
    try session.connect(settings, warnings: &warnings)
    let bridged = try seconds {
        for _ in 0..<trips {
            _ = try session.run(doing: "bench") { connection in
                try await connection.query("SELECT 1", logger: logger)
                return ()
            }
        }
    }
    session.close()
    // The same round trips from async code directly.
    let endpoint = settings.endpoints[0]
    let configuration = PostgresConnection.Configuration(
        unixSocketPath: endpoint.socketPath, username: settings.user, password: nil, database: settings.database)
    let connection = try await PostgresConnection.connect(configuration: configuration, id: 2, logger: logger)
    let direct = try await secondsAsync {
        for _ in 0..<trips { try await connection.query("SELECT 1", logger: logger) }
    }
    try await connection.close()
    print(
        "round trip SELECT 1 x \(trips): bridged from a plain thread \(String(format: "%.1f", bridged / Double(trips) * 1e6)) µs, async directly \(String(format: "%.1f", direct / Double(trips) * 1e6)) µs"
    )

    // Generated records through PostgresOutput at pipeline depths 0 (send and wait), 1, 2.
    for depth in [0, 1, 2] {
        var best = Double.infinity
        for _ in 1...3 {
            let output = PostgresOutput(settings: settings, mode: .replace)
            output.pipelineDepth = depth
            let names = NameTable()
            let fields = PersonRows.columns.map { names.intern($0) }
            var generator = PersonRows()
            let elapsed = try seconds {
                try output.writeAndCommit { sink in
                    // In batches of 1 024 records, as the import hands them over.
                    let batch = RecordBatch()
                    for id in 1...count {
                        let row = generator.row(id)
                        let texts: [(RecordBatch.Kind, String)] = [
                            (.inferred, String(row.id)), (.text, row.active), (.text, row.firstName),
                            (.text, row.lastName), (.text, row.email), (.text, row.born),
                            (.inferred, row.score.description), (.text, row.bio), (.jsonArray, row.tags)
                        ]
                        for (field, (kind, text)) in zip(fields, texts) { batch.append(field, kind, text: text) }
                        batch.endRecord(
                            table: "bench_bridge", position: SourcePosition(line: id, column: 1, byteOffset: 0))
                        if batch.count == 1024 {
                            try sink.write(batch)
                            batch.clear()
                        }
                    }
                    try sink.write(batch)
                }
            }
            best = min(best, elapsed)
        }
        print(
            "PostgresOutput, \(count) generated records, pipeline depth \(depth): best of 3 \(String(format: "%.2f", best)) s (\(String(format: "%.0f", Double(count) / best)) records/s)"
        )
    }
}

// MARK: main

let arguments = CommandLine.arguments
guard arguments.count >= 3 else {
    print("usage: ingest-postgres-bench formats URI N | bridge URI N")
    exit(64)
}
do {
    switch arguments[1] {
    case "formats":
        try await formats(uri: arguments[2], count: Int(arguments[3])!)
    case "bridge":
        try await bridge(uri: arguments[2], count: Int(arguments[3])!)
    default:
        print("unknown measure \(arguments[1])")
        exit(64)
    }
} catch {
    print("failed: \(error)")
    exit(1)
}
