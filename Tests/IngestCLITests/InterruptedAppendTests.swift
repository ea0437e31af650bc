import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Appends cut short by a signal or a full disk (issue 27, item 9): the database
/// file on disk must be the old one byte for byte — not one grown by pages that
/// only SQLite's journal says to ignore — with no journal beside it.
@Suite("Appends cut short by a signal or a full disk")
struct InterruptedAppendTests {
    /// A database of one small table `people`, and its bytes.
    private func oldDatabase(in box: Sandbox) throws -> Data {
        try box.write("small.xml", manyPeople(10))
        try #require(try box.run(["small.xml", "--out", "out.db"]).status == 0)
        return try box.contents("out.db")
    }

    private func size(_ path: String) -> Int {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) : 0
    }

    @Test(
        "A signal during --append rolls back before the process ends by it: the old file, no journal",
        arguments: [SIGTERM, SIGINT, SIGHUP])
    func signalled(signal: Int32) throws {
        let box = try Sandbox()
        let before = try oldDatabase(in: box)
        try box.write("big.xml", manyPeople(1_000_000))
        let pid = try spawnWithSignalsUnblocked(
            try Locations.requireIngest().path,
            [box.path("big.xml"), "--out", box.path("out.db"), "--append"])
        // Wait until SQLite has spilled pages of the transaction into the file itself.
        let running = isStillRunning(pid, within: 60) { size(box.path("out.db")) >= before.count + 4 << 20 }
        try #require(running, "the run finished before it could be interrupted; make the input bigger")
        try #require(size(box.path("out.db")) > before.count, "the file grew before the signal")
        let (status, seconds) = signalAndWait(pid, signal)

        #expect(status & 0x7F == signal, "ended by the signal (wait status \(status))")
        #expect(seconds < 5, "ended by the run, not by the grace period's alarm")
        #expect(try box.contents("out.db") == before, "the old file byte for byte")
        #expect(try box.listing().sorted() == ["big.xml", "out.db", "small.xml"])
    }

    @Test("A run waiting on standard input ends at a signal, whichever thread it reached, leaving the old database")
    func waitingOnStandardInput() throws {
        let box = try Sandbox()
        let before = try oldDatabase(in: box)
        var pipeEnds: [Int32] = [0, 0]
        try #require(pipe(&pipeEnds) == 0)
        let pid = try spawnWithSignalsUnblocked(
            try Locations.requireIngest().path,
            ["-", "--out", box.path("out.db"), "--append"], stdin: pipeEnds[0])
        close(pipeEnds[0])
        // Half a document, then nothing: the reader waits on the pipe, in a transaction.
        let half = manyPeople(50_000).prefix(3_000_000)
        let written = half.withUnsafeBytes { write(pipeEnds[1], $0.baseAddress, $0.count) }
        try #require(written == half.count)
        try #require(isStillRunning(pid, within: 1.5), "the run is still waiting")
        let (status, seconds) = signalAndWait(pid, SIGTERM)
        close(pipeEnds[1])

        #expect(status & 0x7F == SIGTERM, "ended by the signal (wait status \(status))")
        #expect(seconds < 5, "ended by the run, not by the grace period's alarm")
        #expect(try box.contents("out.db") == before)
        #expect(try box.listing().sorted() == ["out.db", "small.xml"])
    }

    @Test("ingest feed stopped by a signal mid-source leaves the archive as it was")
    func feedSignalled() throws {
        let box = try Sandbox()
        try box.write(
            "one.rss",
            "<rss version=\"2.0\"><channel><title>t</title><item><guid>a</guid><title>A</title></item></channel></rss>")
        try #require(try box.run(["feed", "one.rss", "--out", "feeds.db"]).status == 0)
        let before = try box.contents("feeds.db")
        var pipeEnds: [Int32] = [0, 0]
        try #require(pipe(&pipeEnds) == 0)
        let pid = try spawnWithSignalsUnblocked(
            try Locations.requireIngest().path,
            ["feed", "-", "--out", box.path("feeds.db")], stdin: pipeEnds[0])
        close(pipeEnds[0])
        let items = (0..<20_000).map { "<item><guid>g\($0)</guid><title>item \($0)</title></item>" }.joined()
        let half = Data("<rss version=\"2.0\"><channel><title>s</title>\(items)".utf8)
        let written = half.withUnsafeBytes { write(pipeEnds[1], $0.baseAddress, $0.count) }
        try #require(written == half.count)
        try #require(isStillRunning(pid, within: 1.5), "the run is still waiting")
        let (status, _) = signalAndWait(pid, SIGINT)
        close(pipeEnds[1])

        #expect(status & 0x7F == SIGINT, "ended by the signal (wait status \(status))")
        #expect(try box.contents("feeds.db") == before)
        #expect(try box.listing().sorted() == ["feeds.db", "one.rss"])
    }

    /// Whether this process may mount a tmpfs (root, with the capability to mount).
    static let canMountSmallDisk: Bool = {
        guard getuid() == 0, let box = try? Sandbox() else { return false }
        let disk = box.path("probe")
        guard (try? FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: true)) != nil,
            let mounted = try? box.run(
                ["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", disk],
                executable: URL(fileURLWithPath: "/usr/bin/env")),
            mounted.status == 0
        else { return false }
        _ = try? box.run(["umount", disk], executable: URL(fileURLWithPath: "/usr/bin/env"))
        return true
    }()

    @Test(
        "An append that fills the disk exits 74 and leaves the file as it was, not grown to fill it",
        .enabled(if: canMountSmallDisk, "mounting a small file system needs root and the right to mount: skipped"))
    func diskFull() throws {
        let box = try Sandbox()
        let disk = box.path("disk")
        try FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: true)
        let mount = try box.run(
            ["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", disk],
            executable: URL(fileURLWithPath: "/usr/bin/env"))
        try #require(mount.status == 0, "cannot mount a tmpfs here: \(mount)")
        defer { _ = try? box.run(["umount", disk], executable: URL(fileURLWithPath: "/usr/bin/env")) }
        try box.write("small.xml", manyPeople(10))
        try #require(try box.run(["small.xml", "--out", "disk/out.db"]).status == 0)
        let before = try box.contents("disk/out.db")
        try box.write("big.xml", manyPeople(200_000))

        let result = try box.run(["big.xml", "--out", "disk/out.db", "--append"])

        #expect(result.status == 74, "\(result)")
        #expect(result.stderr.contains("database or disk is full"), "\(result.stderr)")
        #expect(try box.contents("disk/out.db") == before, "the old file byte for byte")
        #expect(try box.listing("disk") == ["out.db"])
    }
}
