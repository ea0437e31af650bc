import Foundation
import IngestCore
import IngestPostgres
import PostgresTestServer

extension TestPostgresServer {
    /// Connection settings for `database`, independent of the caller's `PG*` variables.
    func settings(_ database: String, user: String = superuser, environment: [String: String] = [:]) throws
        -> PostgresConnectionSettings
    {
        try PostgresConnectionSettings(
            uri(database, user: user), environment: environment, homeDirectory: "/nonexistent")
    }
}

/// Builds records by hand, as the mapping would: interned field names, positions.
final class RecordMaker {
    let names = NameTable()
    private var line = 0

    /// A record of `table` with `fields` in order, at the next line of an imaginary input.
    func record(_ table: String, _ fields: KeyValuePairs<String, FieldValue>) -> IngestRecord {
        line += 1
        return IngestRecord(
            table: table, fields: fields.map { IngestRecord.Field(name: names.intern($0.key), value: $0.value) },
            position: SourcePosition(line: line, column: 1, byteOffset: 0))
    }

    func record(_ table: String, pairs: [(String, FieldValue)]) -> IngestRecord {
        line += 1
        return IngestRecord(
            table: table, fields: pairs.map { IngestRecord.Field(name: names.intern($0.0), value: $0.1) },
            position: SourcePosition(line: line, column: 1, byteOffset: 0))
    }
}

/// A number as the mapping classifies it (`"42"` an integer, `"2.5"` a real).
func number(_ text: String) -> FieldValue {
    var text = text
    let value = text.withUTF8 { FieldValue.inferring($0) }
    guard case .number = value else { fatalError("\(text) is not a number to the mapping") }
    return value
}

/// Runs `body` on a plain thread of its own, as the importer calls an output, and
/// waits for it without holding a thread of the test's pool.
func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread { continuation.resume(with: Result { try body() }) }
        thread.stackSize = 4 << 20
        thread.start()
    }
}

/// Opens `output`, writes `records` one at a time, commits; on a failure discards and
/// rethrows, as the import loop does.
func run(_ output: PostgresOutput, _ records: () throws -> [IngestRecord]) throws {
    try output.writeAndCommit { sink in
        for record in try records() { try sink.write(record) }
    }
}

/// Opens `output`, writes records `produce` makes in batches of `batchSize`, as the
/// import hands them over (none kept beyond its batch), commits; discards on a failure.
func stream(_ output: PostgresOutput, count: Int, batchSize: Int = 1024, _ produce: (Int) throws -> IngestRecord) throws
{
    try output.writeAndCommit { sink in
        let batch = RecordBatch()
        for index in 0..<count {
            batch.append(try produce(index))
            if batch.count == batchSize {
                try sink.write(batch)
                batch.clear()
            }
        }
        if batch.count > 0 { try sink.write(batch) }
    }
}

/// A temporary file, removed by `body`'s end.
func withTemporaryFile<T>(contents: String, permissions: Int = 0o600, _ body: (String) throws -> T) throws -> T {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("ingest-pg-\(UUID().uuidString)").path
    try contents.write(toFile: path, atomically: false, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: permissions], ofItemAtPath: path)
    defer { try? FileManager.default.removeItem(atPath: path) }
    return try body(path)
}

/// A temporary file, removed by `body`'s end (for async bodies).
func withTemporaryFile<T>(contents: String, permissions: Int = 0o600, _ body: (String) async throws -> T) async throws
    -> T
{
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("ingest-pg-\(UUID().uuidString)").path
    try contents.write(toFile: path, atomically: false, encoding: .utf8)
    try FileManager.default.setAttributes([.posixPermissions: permissions], ofItemAtPath: path)
    defer { try? FileManager.default.removeItem(atPath: path) }
    return try await body(path)
}
