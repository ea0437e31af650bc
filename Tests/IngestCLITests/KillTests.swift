import Foundation
import GRDB
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs killed with SIGKILL, which no handler sees: the old output must survive
/// byte for byte, and the next run must remove what the killed one left (issue 15,
/// item 21 and the kill test of "Done when").
@Suite("Runs killed with SIGKILL")
struct KillTests {
    @Test(
        "The temporary file of a killed run is removed by the next run, which says so with --verbose; others' files are kept"
    )
    func nextRunRemovesLeftovers() throws {
        let box = try Sandbox()
        try box.copyFolks()
        try box.write("big.xml", manyPeople(100_000))
        let pid = try spawnWithSignalsUnblocked(
            try Locations.requireIngest().path,
            [box.path("big.xml"), "--to", "json", "--out", box.path("out.json")])
        let deadline = Date().addingTimeInterval(60)
        while try box.temporaryLeftovers().filter({ $0.hasSuffix(".tmp") }).isEmpty, Date() < deadline { usleep(5_000) }
        kill(pid, SIGKILL)
        var status: Int32 = 0
        _ = waitpid(pid, &status, 0)
        let left = try box.temporaryLeftovers().filter { $0.hasSuffix(".tmp") }
        let listing = try box.listing()
        try #require(left == [".out.json.ingest-\(pid)-1.tmp"], "the killed run's file: \(listing)")
        // Files the next run must keep: a live process's (this one), another output's.
        try box.write(".out.json.ingest-\(getpid())-1.tmp", "live")
        try box.write(".other.json.ingest-\(pid)-1.tmp", "other output")

        let next = try box.run(["folks.xml", "--to", "json", "--out", "out.json", "-v"])

        #expect(next.status == 0, "\(next)")
        #expect(
            next.stderrLines.contains(
                "ingest: removed .out.json.ingest-\(pid)-1.tmp, left by a run that no longer exists"), "\(next)")
        #expect(
            try box.listing() == [
                ".other.json.ingest-\(pid)-1.tmp", ".out.json.ingest-\(getpid())-1.tmp", "big.xml", "folks.xml",
                "out.json"
            ])
    }

    /// One kill-test configuration: the output kind and how the run writes it.
    struct Case: CustomTestStringConvertible, Sendable {
        var to: String
        var append = false
        var testDescription: String { append ? "--append" : "--to \(to)" }
        var fileName: String { "out.\(to)" }
        var mode: [String] { append ? ["--append"] : ["--replace"] }
    }

    static let cases = [
        Case(to: "db"), Case(to: "plist"), Case(to: "archive"), Case(to: "json"), Case(to: "ndjson"),
        Case(to: "db", append: true)
    ]

    /// Records in the import that is killed: few, so that 120 kills fit in a test run
    /// of a debug build; Scripts/kill-test.sh runs the same with 500 000.
    static let records = 2_000
    static let points = 20

    @Test(
        "SIGKILL at 20 points of a 2 000-record import: the old output survives, the next run leaves no temporary file",
        .enabled(
            if: SharedData.available, "../shared/bench/gen_people.py (beside the clone) or python3 is missing: skipped"),
        arguments: cases)
    func killAtRandomPoints(_ configuration: Case) throws {
        let box = try Sandbox()
        let big = try SharedData.generate(records: Self.records, in: box)
        let small = try SharedData.generate(records: 50, in: box, directory: "small")
        let binary = try Locations.requireIngest().path
        try FileManager.default.createDirectory(atPath: box.path("out"), withIntermediateDirectories: true)
        let output = box.path("out/\(configuration.fileName)")
        let arguments = [big + "/people.xml", "--to", configuration.to, "--out", output, "-q"] + configuration.mode

        // The old output, and how long an uninterrupted import into it takes.
        try #require(try box.run([small + "/people.xml", "--to", configuration.to, "--out", output]).status == 0)
        let saved = box.path("saved")
        try FileManager.default.copyItem(atPath: output, toPath: saved)
        let old = try box.contents("saved")
        let oldRows = configuration.append ? try allRows(output) : []
        // The output is opened (its lock file appears) once the process has started:
        // the kill points are spread from a little before that to a little past the end.
        let started = Date()
        let full = try spawnWithSignalsUnblocked(binary, arguments)
        var status: Int32 = 0
        var opened: Double?
        while waitpid(full, &status, WNOHANG) == 0 {
            if opened == nil, try box.listing("out").contains(where: { $0.hasPrefix(".") }) {
                opened = Date().timeIntervalSince(started)
            }
            usleep(2_000)
        }
        try #require(status == 0, "an uninterrupted run succeeds (wait status \(status))")
        let duration = Date().timeIntervalSince(started)
        // What a run killed after its commit (before it could exit) leaves: the import, complete.
        let complete = try box.contents("out/\(configuration.fileName)")
        let completeRows = configuration.to == "db" ? try allRows(output) : []
        let first = (opened ?? 0) * 0.8
        var span = duration * 1.05 - first
        try restore(saved, to: output)

        var killed = 0, finished = 0, committed = 0, leftovers = 0
        while killed < Self.points, killed + finished < 2 * Self.points {
            // One random moment in each twentieth of that span.
            let delay = first + span * (Double(killed) + Double.random(in: 0..<1)) / Double(Self.points)
            let pid = try spawnWithSignalsUnblocked(binary, arguments)
            usleep(useconds_t(delay * 1_000_000))
            kill(pid, SIGKILL)
            _ = waitpid(pid, &status, 0)
            let what =
                "\(configuration.testDescription), kill \(killed + 1) at \(Int(delay * 1000)) ms of \(Int(duration * 1000))"
            if status & 0x7F == 0 {
                // It finished first (this machine is busy, or idle, by turns): what it
                // wrote is the new output. Put the old one back, aim a little earlier.
                #expect(status >> 8 == 0, "\(what): exit \(status >> 8)")
                finished += 1
                span *= 0.9
                try restore(saved, to: output)
                continue
            }
            killed += 1
            if configuration.append {
                // SQLite rolls the hot journal back when the database is next opened.
                let check = try DatabaseQueue(path: output).read {
                    try String.fetchAll($0, sql: "PRAGMA integrity_check")
                }
                #expect(check == ["ok"], "\(what)")
                let rows = try allRows(output)
                if rows == completeRows {
                    committed += 1
                } else {
                    #expect(rows == oldRows, "\(what): the old rows exactly")
                }
            } else {
                let bytes = try box.contents("out/\(configuration.fileName)")
                if bytes != old, configuration.to == "db" ? try allRows(output) == completeRows : bytes == complete {
                    committed += 1
                } else {
                    #expect(bytes == old, "\(what): the old output byte for byte")
                }
            }
            let left = try box.temporaryLeftovers("out")
            leftovers += left.count
            let next = try box.run(
                [small + "/people.xml", "--to", configuration.to, "--out", output, "-v"] + configuration.mode)
            #expect(next.status == 0, "\(what): the next run: \(next)")
            for file in left where file.hasSuffix(".tmp") {
                #expect(
                    next.stderr.contains("removed \(box.path("out/\(file)")), left by a run that no longer exists"),
                    "\(what): \(next)")
            }
            #expect(try box.listing("out") == [configuration.fileName], "\(what): left after the next run")
            try restore(saved, to: output)
        }
        print(
            "kill test \(configuration.testDescription): \(Self.records) records, \(Int(duration * 1000)) ms a run (opened at \(Int((opened ?? 0) * 1000)) ms); \(killed) killed (\(committed) of them after their commit), \(finished) finished first; \(leftovers) temporary files left and removed by the next run"
        )
        #expect(killed == Self.points, "\(killed) runs killed before they finished, \(finished) finished first")
    }

    /// Every row of every table, in order.
    private func allRows(_ path: String) throws -> [[String]] {
        try DatabaseQueue(path: path).read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").flatMap {
                table in
                try Row.fetchAll(db, sql: "SELECT * FROM \"\(table)\" ORDER BY rowid").map { row in
                    [table] + row.databaseValues.map(\.description)
                }
            }
        }
    }

    private func restore(_ saved: String, to output: String) throws {
        try? FileManager.default.removeItem(atPath: output)
        try FileManager.default.copyItem(atPath: saved, toPath: output)
    }
}
