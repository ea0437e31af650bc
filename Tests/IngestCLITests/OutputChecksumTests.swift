import Foundation
import GRDB
import Testing

/// The benchmark data generator in ../shared/bench, when it is there.
enum SharedBench {
    static let generator: URL? = {
        let url = Locations.packageRoot.deletingLastPathComponent().appendingPathComponent("shared/bench/gen_people.py")
        return FileManager.default.fileExists(atPath: url.path) ? url : nil
    }()
}

/// The same rows, types and order on the benchmark data, whatever is done to make
/// ingest faster: every output of 3 000 generated records (gen_people.py is
/// deterministic, seed 42) is reduced to a fingerprint and compared with the one
/// ingest produced before the performance work (commit 720b68a), recorded below.
///
/// A database's fingerprint covers its schema (`sqlite_master.sql`) and every row of
/// every table in rowid order, each value with its storage class; a file's covers its
/// bytes. To re-record after an intended change of output, run the suite and copy
/// the fingerprints it prints from the failures — and say why in the commit.
@Suite(
    "Outputs unchanged on generated data",
    .enabled(
        if: SharedBench.generator != nil,
        "needs ../shared/bench/gen_people.py (absent in a clone without ../shared)"))
struct OutputChecksumTests {
    /// The data set, generated once per test process into a sandbox of its own.
    nonisolated(unsafe) static let data: Sandbox? = {
        guard let generator = SharedBench.generator, let box = try? Sandbox() else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", generator.path, "3000", box.directory.path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        // A static is never deinitialized: remove the data when the test process ends.
        atexit { OutputChecksumTests.data.map { try? FileManager.default.removeItem(at: $0.directory) } }
        return box
    }()

    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var arguments: [String]
        var output: String
        var fingerprint: String
        var testDescription: String { name }
    }

    static let schemas = Locations.packageRoot.appendingPathComponent("Schemas").path

    static let cases: [Case] = [
        Case(
            name: "people.xml into SQLite", arguments: ["people.xml"], output: "out.db", fingerprint: "710aed9eaf45b08b"
        ),
        Case(
            name: "people.xml into SQLite with libxml2", arguments: ["people.xml", "--parser", "libxml2"],
            output: "out.db", fingerprint: "710aed9eaf45b08b"),
        Case(
            name: "posts.xml into SQLite", arguments: ["posts.xml"], output: "out.db", fingerprint: "f643498b0e3f6f38"),
        Case(
            name: "people.json into SQLite", arguments: ["people.json"], output: "out.db",
            fingerprint: "55449118072b4a96"),
        Case(
            name: "people.ndjson into SQLite", arguments: ["people.ndjson"], output: "out.db",
            fingerprint: "55449118072b4a96"),
        Case(
            name: "people.xml with a schema and child tables",
            arguments: ["people.xml", "--schema", "\(schemas)/people-with-tags.json"],
            output: "out.db", fingerprint: "1071f852ad70f808"),
        Case(
            name: "people.xml as a binary plist",
            arguments: ["people.xml", "--to", "plist", "--plist-format", "binary"],
            output: "out.plist", fingerprint: "d2d0de17cde5b8c4"),
        Case(
            name: "people.xml as an XML plist", arguments: ["people.xml", "--to", "plist"], output: "out.plist",
            fingerprint: "78a20bf4b924e006"),
        Case(
            name: "people.xml as a keyed archive", arguments: ["people.xml", "--to", "archive"], output: "out.archive",
            fingerprint: "e87b9c6006a87a00"),
        Case(
            name: "people.json as JSON", arguments: ["people.json", "--to", "json"], output: "out.json",
            fingerprint: "e8dbbfa44b3ec2ac"),
        Case(
            name: "people.xml as NDJSON", arguments: ["people.xml", "--to", "ndjson"], output: "out.ndjson",
            fingerprint: "83aff925d9fc468c")
    ]

    @Test(arguments: cases)
    func fingerprint(of testCase: Case) throws {
        let data = try #require(Self.data, "the data set could not be generated")
        let box = try Sandbox()
        for name in ["people.xml", "posts.xml", "people.json", "people.ndjson"] {
            try FileManager.default.createSymbolicLink(atPath: box.path(name), withDestinationPath: data.path(name))
        }
        let result = try box.run(testCase.arguments + ["--out", testCase.output])
        try #require(result.status == 0, "\(result)")
        let fingerprint =
            testCase.output.hasSuffix(".db")
            ? try Self.databaseFingerprint(box.database(testCase.output))
            : Self.fnv1a(try box.contents(testCase.output))
        #expect(fingerprint == testCase.fingerprint, "\(testCase.name): \(fingerprint)")
    }

    /// The schema and every row of every table, with storage classes, hashed.
    static func databaseFingerprint(_ queue: DatabaseQueue) throws -> String {
        var text = ""
        try queue.read { db in
            let tables = try Row.fetchAll(
                db, sql: "SELECT name, sql FROM sqlite_master WHERE type = 'table' ORDER BY name")
            for table in tables {
                let name: String = table["name"]
                text += "\(table["sql"] as String? ?? "")\n"
                let rows = try Row.fetchCursor(
                    db, sql: "SELECT * FROM \"\(name.replacingOccurrences(of: "\"", with: "\"\""))\" ORDER BY rowid")
                while let row = try rows.next() {
                    for value in row.databaseValues {
                        switch value.storage {
                        case .null: text += "N|"
                        case .int64(let number): text += "I\(number)|"
                        case .double(let number): text += "R\(number.bitPattern)|"
                        case .string(let string): text += "T\(string.utf8.count):\(string)|"
                        case .blob(let bytes): text += "B\(fnv1a(bytes))|"
                        }
                    }
                    text += "\n"
                }
            }
        }
        return fnv1a(Data(text.utf8))
    }

    /// FNV-1a, 64 bits, as 16 hex digits.
    static func fnv1a(_ data: Data) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in data { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
