import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `count` people with ids `prefix-0` … as `<people><person><id>…</id><n>…</n></person>…`.
func keyedPeople(_ prefix: String, _ count: Int) -> String {
    var text = "<people>\n"
    for index in 0..<count { text += "<person><id>\(prefix)-\(index)</id><n>\(index)</n></person>\n" }
    return text + "</people>\n"
}

/// A schema for `keyedPeople`, keyed by id, for --upsert.
let keyedPeopleSchema =
    #"{"entities": [{"name": "person", "records": "people/person", "table": "people", "primaryKey": "id", "fields": [{"name": "id"}, {"name": "n", "type": "integer"}]}]}"#

extension Sandbox {
    /// Runs `ingest` once per argument list, all at the same time; the results in order.
    func runConcurrently(_ argumentLists: [[String]]) throws -> [RunResult] {
        let box = UncheckedSandbox(self)
        let results = ResultList(count: argumentLists.count)
        DispatchQueue.concurrentPerform(iterations: argumentLists.count) { index in
            results.set(index, Result { try box.sandbox.run(argumentLists[index]) })
        }
        return try results.all.map { try $0!.get() }
    }

    /// The ids in `table` of the database at `relative`, sorted.
    func ids(_ relative: String, table: String = "people") throws -> [String] {
        try rows(relative, "SELECT id FROM \(table) ORDER BY id").map { $0[0] ?? "NULL" }
    }

    /// A sandbox with a.xml (200 people), b.xml (300) and base.db holding 50 old ones.
    static func withBaseDatabase() throws -> Sandbox {
        let box = try Sandbox()
        try box.write("old.xml", keyedPeople("old", 50))
        try box.write("a.xml", keyedPeople("a", 200))
        try box.write("b.xml", keyedPeople("b", 300))
        try #require(try box.run(["old.xml", "--out", "base.db"]).status == 0)
        return box
    }

    /// Copies base.db to out.db, replacing it.
    func resetOutput() throws {
        try? FileManager.default.removeItem(atPath: path("out.db"))
        try FileManager.default.copyItem(atPath: path("base.db"), toPath: path("out.db"))
    }

    /// Takes the lock `ingest` takes on `output` (flock on `.NAME.ingest.lock`), as
    /// another run would; closing the descriptor releases it.
    func holdLock(on output: String) throws -> Int32 {
        let descriptor = open(path(".\(output).ingest.lock"), O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        try #require(descriptor >= 0)
        try #require(flock(descriptor, LOCK_EX) == 0)
        return descriptor
    }
}

private struct UncheckedSandbox: @unchecked Sendable {
    let sandbox: Sandbox
    init(_ sandbox: Sandbox) { self.sandbox = sandbox }
}

private final class ResultList: @unchecked Sendable {
    private let lock = NSLock()
    private var results: [Result<RunResult, any Error>?]
    init(count: Int) { results = Array(repeating: nil, count: count) }
    func set(_ index: Int, _ result: Result<RunResult, any Error>) {
        lock.lock()
        results[index] = result
        lock.unlock()
    }
    var all: [Result<RunResult, any Error>?] {
        lock.lock()
        defer { lock.unlock() }
        return results
    }
}

/// Cron overlap: two runs on one output at once never lose or duplicate rows, and
/// never interleave (issue 15, items 7 and 20).
@Suite("Cron overlap: runs on the same output at once")
struct CronOverlapTests {
    static let trials = 20

    @Test("Two --append runs into a database that does not exist yet keep both runs' rows (20 trials)")
    func appendsCreatingTheDatabase() throws {
        let box = try Sandbox()
        try box.write("a.xml", keyedPeople("a", 200))
        try box.write("b.xml", keyedPeople("b", 300))
        let expected = (((0..<200).map { "a-\($0)" }) + (0..<300).map { "b-\($0)" }).sorted()
        for trial in 0..<Self.trials {
            try? FileManager.default.removeItem(atPath: box.path("out.db"))
            let results = try box.runConcurrently([
                ["a.xml", "--append", "--out", "out.db"], ["b.xml", "--append", "--out", "out.db"]
            ])
            #expect(results.map(\.status) == [0, 0], "trial \(trial): \(results)")
            #expect(try box.ids("out.db") == expected, "trial \(trial)")
            #expect(try box.listing() == ["a.xml", "b.xml", "out.db"], "trial \(trial)")
        }
    }

    @Test("Two --upsert runs into a database that does not exist yet keep both runs' rows (20 trials)")
    func upsertsCreatingTheDatabase() throws {
        let box = try Sandbox()
        try box.write("a.xml", keyedPeople("a", 200))
        try box.write("b.xml", keyedPeople("b", 300))
        try box.write("s.json", keyedPeopleSchema)
        let expected = (((0..<200).map { "a-\($0)" }) + (0..<300).map { "b-\($0)" }).sorted()
        for trial in 0..<Self.trials {
            try? FileManager.default.removeItem(atPath: box.path("out.db"))
            let results = try box.runConcurrently([
                ["a.xml", "--schema", "s.json", "--upsert", "--out", "out.db"],
                ["b.xml", "--schema", "s.json", "--upsert", "--out", "out.db"]
            ])
            #expect(results.map(\.status) == [0, 0], "trial \(trial): \(results)")
            #expect(try box.ids("out.db") == expected, "trial \(trial)")
        }
    }

    @Test("Two --append runs into an existing database: every row once (20 trials)")
    func appendsToExisting() throws {
        let box = try Sandbox.withBaseDatabase()
        let expected = (((0..<50).map { "old-\($0)" }) + ((0..<200).map { "a-\($0)" }) + (0..<300).map { "b-\($0)" })
            .sorted()
        for trial in 0..<Self.trials {
            try box.resetOutput()
            let results = try box.runConcurrently([
                ["a.xml", "--append", "--out", "out.db"], ["b.xml", "--append", "--out", "out.db"]
            ])
            #expect(results.map(\.status) == [0, 0], "trial \(trial): \(results)")
            #expect(try box.ids("out.db") == expected, "trial \(trial)")
        }
    }

    @Test(
        "Two --replace runs never interleave: the output is exactly one run's, for every output (20 trials)",
        arguments: ["db", "json", "plist"])
    func replacesNeverInterleave(to: String) throws {
        let box = try Sandbox()
        try box.write("a.xml", keyedPeople("a", 200))
        try box.write("b.xml", keyedPeople("b", 300))
        try #require(try box.run(["a.xml", "--to", to, "--out", "a.out"]).status == 0)
        try #require(try box.run(["b.xml", "--to", to, "--out", "b.out"]).status == 0)
        let a = try box.contents("a.out"), b = try box.contents("b.out")
        try #require(try box.run(["a.xml", "--to", to, "--out", "out"]).status == 0)
        for trial in 0..<Self.trials {
            let results = try box.runConcurrently([
                ["a.xml", "--to", to, "--out", "out", "--replace"],
                ["b.xml", "--to", to, "--out", "out", "--replace"]
            ])
            #expect(results.map(\.status) == [0, 0], "trial \(trial): \(results)")
            let out = try box.contents("out")
            if to == "db" {
                // A database file holds its own page bookkeeping: compare the rows.
                let ids = try box.ids("out"), idsA = try box.ids("a.out"), idsB = try box.ids("b.out")
                #expect(ids == idsA || ids == idsB, "trial \(trial)")
            } else {
                #expect(out == a || out == b, "trial \(trial): the output is neither run's")
            }
            #expect(try box.listing() == ["a.out", "a.xml", "b.out", "b.xml", "out"], "trial \(trial)")
        }
    }

    @Test(
        "--replace and --append at once: the append lands in the database that stays, or after the rebuild (20 trials)")
    func replaceAndAppend() throws {
        let box = try Sandbox.withBaseDatabase()
        let a = (0..<200).map { "a-\($0)" }, b = (0..<300).map { "b-\($0)" }
        for trial in 0..<Self.trials {
            try box.resetOutput()
            let results = try box.runConcurrently([
                ["a.xml", "--replace", "--out", "out.db"], ["b.xml", "--append", "--out", "out.db"]
            ])
            #expect(results.map(\.status) == [0, 0], "trial \(trial): \(results)")
            // Replace first, then append: a + b. Append first, then replace: a alone.
            let ids = try box.ids("out.db")
            #expect(ids == (a + b).sorted() || ids == a.sorted(), "trial \(trial): \(ids.count) rows")
        }
    }

    @Test(
        "A run that finds another holding the output's lock waits for it, then fails 75 naming --lock-timeout",
        arguments: [["--append"], ["--replace"], ["--to", "json", "--replace"]])
    func lockHeldTimesOut(arguments: [String]) throws {
        let box = try Sandbox()
        try box.copyFolks()
        let output = arguments.contains("json") ? "out.json" : "out.db"
        try #require(
            try box.run(["folks.xml", "--out", output] + arguments.filter { $0 != "--append" && $0 != "--replace" })
                .status == 0)
        let before = try box.contents(output)
        let descriptor = try box.holdLock(on: output)
        defer { close(descriptor) }

        let started = Date()
        let result = try box.run(["folks.xml", "--out", output, "--lock-timeout", "0.5"] + arguments)

        #expect(result.status == 75, "\(result)")
        #expect(Date().timeIntervalSince(started) >= 0.5)
        #expect(
            result.stderr.contains(
                "ingest: \(output): another run is writing it (it holds .\(output).ingest.lock); waited 0.5 s (--lock-timeout SECONDS waits longer"
            ), "\(result)")
        #expect(try box.contents(output) == before)
    }

    @Test("A run waits for another's lock and proceeds when it is released")
    func lockReleasedProceeds() throws {
        let box = try Sandbox()
        try box.copyFolks()
        let descriptor = try box.holdLock(on: "out.db")
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.7) { close(descriptor) }

        let started = Date()
        let result = try box.run(["folks.xml", "--out", "out.db", "--append"])

        #expect(result.status == 0, "\(result)")
        #expect(Date().timeIntervalSince(started) >= 0.6)
        #expect(try box.rows("out.db", "SELECT firstName, lastName FROM people") == folks)
        #expect(try box.listing() == ["folks.xml", "out.db"], "the lock file goes with the lock")
    }

    @Test("--append waits for another program's write transaction, or exits 75 when it outlasts --lock-timeout")
    func appendWaitsForSQLiteWriter() throws {
        let box = try Sandbox()
        try box.copyFolks()
        try #require(try box.run(["folks.xml", "--out", "out.db"]).status == 0)
        // sqlite3 holds a write transaction for a second.
        let writer = Process()
        writer.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        writer.arguments = [
            "python3", "-c",
            """
            import sqlite3, sys, time
            db = sqlite3.connect(sys.argv[1], isolation_level=None)
            db.execute("BEGIN IMMEDIATE"); db.execute("INSERT INTO people(firstName) VALUES ('Nell')")
            print("holding", flush=True); time.sleep(1.5); db.execute("COMMIT")
            """, box.path("out.db")
        ]
        let output = Pipe()
        writer.standardOutput = output
        try writer.run()
        _ = output.fileHandleForReading.availableData  // "holding"

        let impatient = try box.run(["folks.xml", "--out", "out.db", "--append", "--lock-timeout", "0.2"])
        #expect(impatient.status == 75, "\(impatient)")
        #expect(impatient.stderr.contains("another connection is writing the database; waited 0.2 s"), "\(impatient)")

        let patient = try box.run(["folks.xml", "--out", "out.db", "--append"])
        writer.waitUntilExit()
        #expect(patient.status == 0, "\(patient)")
        #expect(
            try box.rows("out.db", "SELECT firstName FROM people").map { $0[0] ?? "" }
                == ["Matt", "Snidely", "Dudley", "Nell", "Matt", "Snidely", "Dudley"])
    }

    @Test("--lock-timeout out of range is a usage error", arguments: ["-1", "nan", "90000"])
    func lockTimeoutRange(value: String) throws {
        let box = try Sandbox()
        try box.copyFolks()
        let result = try box.run(["folks.xml", "--lock-timeout", value])
        #expect(result.status == 64, "\(result)")
        #expect(!box.exists("folks.db"))
    }
}
