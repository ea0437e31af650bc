import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A run that waits for another's lock says so where a person watches (a terminal,
/// or with -v), naming the holder's process, and the wait is not counted as import time.
@Suite("Waiting for another run")
struct LockWaitTests {
    @Test("A run holding the output's lock writes its process id into the lock file; one waiting names it with -v")
    func namesTheHolder() throws {
        let box = try Sandbox()
        try box.copyFolks()
        // The first run reads standard input, which this test keeps open: it holds the lock until then.
        let first = Process()
        first.executableURL = try Locations.requireIngest()
        first.arguments = ["-", "--nl", "--out", "held.db"]
        first.currentDirectoryURL = URL(fileURLWithPath: box.path("."))
        let input = Pipe()
        first.standardInput = input
        first.standardError = FileHandle.nullDevice
        try first.run()
        defer { if first.isRunning { first.terminate() } }
        // One line starts the import (and takes the lock); the end of input ends it.
        try input.fileHandleForWriting.write(contentsOf: Data("{\"a\": 1}\n".utf8))
        let lockFile = box.path(".held.db.ingest.lock")
        let deadline = Date().addingTimeInterval(30)
        var written = ""
        while Date() < deadline {
            written = (try? String(contentsOfFile: lockFile, encoding: .utf8)) ?? ""
            if written.hasSuffix("\n") { break }
            usleep(20_000)
        }
        #expect(written == "\(first.processIdentifier)\n")

        let verbose = try box.run(["folks.xml", "--out", "held.db", "--append", "--lock-timeout", "0.5", "-v"])
        let silent = try box.run(["folks.xml", "--out", "held.db", "--append", "--lock-timeout", "0.5"])
        try input.fileHandleForWriting.write(contentsOf: Data("{\"a\": 2}\n".utf8))
        try input.fileHandleForWriting.close()
        first.waitUntilExit()

        #expect(verbose.status == 75, "\(verbose)")
        #expect(
            verbose.stderrLines.contains(
                "ingest: waiting for process \(first.processIdentifier), which is writing held.db (up to 0.5 s, --lock-timeout)"
            ),
            "\(verbose)")
        #expect(
            silent.status == 75 && !silent.stderr.contains("waiting for"),
            "off a terminal and without -v, only the error: \(silent)")
        #expect(first.terminationStatus == 0)
        let table = try #require(try box.tables("held.db").first)
        #expect(try box.rows("held.db", "SELECT a FROM \"\(table)\"") == [["1"], ["2"]])
    }

    @Test("A lock file holding no process id (another program's lock): the waiting run says 'another run'")
    func unnamedHolder() throws {
        let box = try Sandbox()
        try box.copyFolks()
        let descriptor = open(box.path(".out.db.ingest.lock"), O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        try #require(descriptor >= 0 && flock(descriptor, LOCK_EX) == 0)
        defer { close(descriptor) }

        let result = try box.run(["folks.xml", "--out", "out.db", "--lock-timeout", "0.4", "-v"])

        #expect(result.status == 75, "\(result)")
        #expect(
            result.stderrLines.contains(
                "ingest: waiting for another run, which is writing out.db (up to 0.4 s, --lock-timeout)"), "\(result)")
    }

    @Test("On a terminal the wait is said without -v")
    func terminal() throws {
        let box = try Sandbox()
        try box.copyFolks()
        let descriptor = open(box.path(".out.db.ingest.lock"), O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        try #require(descriptor >= 0 && flock(descriptor, LOCK_EX) == 0)
        defer { close(descriptor) }

        let run = try box.runOnTerminal(["folks.xml", "--out", "out.db", "--lock-timeout", "0.4"], columns: 100)

        #expect(run.status == 75, "\(run.text)")
        #expect(
            run.text.contains("ingest: waiting for another run, which is writing out.db (up to 0.4 s, --lock-timeout)"),
            "\(run.text)")
    }

    @Test(
        "The summary counts the import's time, not the wait, and says how long the run waited",
        arguments: ["db", "json"])
    func waitNotCounted(to: String) throws {
        let box = try Sandbox()
        try box.copyFolks()
        let output = "out.\(to)"
        let descriptor = open(box.path(".\(output).ingest.lock"), O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        try #require(descriptor >= 0 && flock(descriptor, LOCK_EX) == 0)
        // Released 2 s after the start, so that a run that takes long to start on a
        // busy machine still waits over a second.
        DispatchQueue.global().asyncAfter(deadline: .now() + 2) { close(descriptor) }

        let result = try box.run(["folks.xml", "--to", to, "--out", output, "-v"])

        #expect(result.status == 0, "\(result)")
        let summary = try #require(result.stderrLines.last)
        // `...; 364 B in 0.01 s (35.5 KiB/s) after waiting 1.2 s for another run`
        let parts = summary.components(separatedBy: " after waiting ")
        try #require(parts.count == 2, "\(summary)")
        let imported = try #require(
            Double(parts[0].components(separatedBy: " in ").last?.components(separatedBy: " s").first ?? ""))
        let waited = try #require(Double(parts[1].components(separatedBy: " s").first ?? ""))
        #expect(waited >= 1.0, "\(summary)")
        #expect(imported < waited, "\(summary)")
    }

    @Test("ingest feed waiting for another run's lock on its archive says so with -v, and then archives")
    func feedWaits() throws {
        let box = try Sandbox()
        try box.write("news.rss", feedText(threeItems))
        let descriptor = open(box.path(".feeds.db.ingest.lock"), O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        try #require(descriptor >= 0 && flock(descriptor, LOCK_EX) == 0)
        DispatchQueue.global().asyncAfter(deadline: .now() + 1.5) { close(descriptor) }

        let result = try box.run(["feed", "news.rss", "-v"])

        #expect(result.status == 0, "\(result)")
        #expect(
            result.stderr.contains("ingest: waiting for another run, which is writing feeds.db (up to 60 s)\n"),
            "\(result.stderr)")
        #expect(try box.rows("feeds.db", "SELECT count(*) FROM items") == [["3"]])
    }
}
