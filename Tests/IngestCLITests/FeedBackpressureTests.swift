import Foundation
import LoopbackHTTPServer
import NIOCore
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `ingest feed` with many URLs and a writer that cannot keep up: fetches wait for
/// the writer rather than pile up in memory, and a server that dies mid-run ends the
/// run with a failure, never a hang.
@Suite("ingest feed: fetches wait for a slow writer; a dying server ends the run")
struct FeedBackpressureTests {
    /// `count` feeds of `items` items each, and an OPML file in `box` listing them.
    static func serve(_ count: Int, items: Int, delay: TimeAmount = .zero, in box: Sandbox) throws
        -> LoopbackHTTPServer
    {
        let http = try LoopbackHTTPServer()
        var outlines = ""
        let text = String(repeating: "words enough to fill a line of a summary; ", count: 8)
        for index in 0..<count {
            var route = LoopbackHTTPServer.Route.feed(
                feedText((0..<items).map { ("\(index)-\($0)", "Item \($0)", text) }, title: "Feed \(index)"))
            route.delay = delay
            http.route("/f\(index).xml", route)
            outlines += #"<outline text="Feed \#(index)" xmlUrl="\#(http.url("/f\(index).xml"))"/>"#
        }
        try box.write("subs.opml", #"<opml version="2.0"><head/><body>\#(outlines)</body></opml>"#)
        return http
    }

    /// Starts `ingest` in `box` with `arguments`, its standard output a pipe the
    /// caller reads (or not).
    static func start(_ arguments: [String], in box: Sandbox) throws -> (Process, FileHandle) {
        let process = Process()
        process.executableURL = try Locations.requireIngest()
        process.arguments = arguments
        process.currentDirectoryURL = box.directory
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return (process, output.fileHandleForReading)
    }

    /// Whether `process` ended within `seconds`; if not, it is killed.
    static func ends(_ process: Process, within seconds: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning, Date() < deadline { usleep(20_000) }
        guard process.isRunning else { return true }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        return false
    }

    /// Reads `handle` to its end on a thread of its own; the bytes once it ends.
    static func readInBackground(_ handle: FileHandle) -> () -> Data {
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var data = Data()
        Thread {
            data = handle.readDataToEndOfFile()
            done.signal()
        }.start()
        return {
            done.wait()
            return data
        }
    }

    /// Reads `output` to its end while `process` runs, which must end within 120 s of
    /// it being read; the lines it wrote.
    static func readToEnd(_ output: FileHandle, of process: Process) -> [Data.SubSequence] {
        let read = readInBackground(output)
        #expect(ends(process, within: 120), "the run did not end once its output was read")
        return read().split(separator: UInt8(ascii: "\n"))
    }

    /// Waits until `count()` has not changed for `quiet` seconds, `limit` at most.
    static func settled(_ count: () -> Int, quiet: TimeInterval = 1.5, limit: TimeInterval = 30) -> Int {
        let deadline = Date().addingTimeInterval(limit)
        var last = count(), since = Date()
        while Date() < deadline {
            usleep(100_000)
            let now = count()
            if now != last {
                last = now
                since = Date()
            } else if Date().timeIntervalSince(since) >= quiet {
                break
            }
        }
        return last
    }

    @Test("standard output not read: the fetches stop after a few feeds; read, every item comes out")
    func fetchesWaitForTheWriter() throws {
        let box = try Sandbox()
        let http = try Self.serve(150, items: 40, in: box)
        let (process, output) = try Self.start(
            ["feed", "--opml", "subs.opml", "--to", "ndjson", "--out", "-", "--jobs", "4"], in: box)
        defer { if process.isRunning { process.terminate() } }

        // Each feed is some 16 KB of NDJSON: the pipe holds a few, --jobs more may wait
        // fetched, and one is being written.
        let fetched = Self.settled { http.requests.count }
        #expect(fetched > 0)
        #expect(fetched <= 16, "\(fetched) of 150 feeds fetched while nothing was written")
        #expect(process.isRunning)

        let lines = Self.readToEnd(output, of: process)
        #expect(process.terminationStatus == 0)
        #expect(lines.count == 150 * 40)
        #expect(http.requests.count == 150)
    }

    @Test("a fetch that ends without a feed (404) waits for the writer without holding back the others")
    func feedlessEndingsDoNotHoldSlots() throws {
        let box = try Sandbox()
        // Six feeds of 400 items, each more NDJSON than a pipe holds; between the
        // first and the others, 100 URLs the server has no route for: 404s.
        let http = try Self.serve(6, items: 400, in: box)
        let opml = try String(contentsOf: box.directory.appendingPathComponent("subs.opml"), encoding: .utf8)
        let missing = (0..<100).map { #"<outline text="Gone \#($0)" xmlUrl="\#(http.url("/gone\($0).xml"))"/>"# }
        let firstOutlineEnd = try #require(opml.range(of: #""/>"#))
        try box.write("subs.opml", opml.replacingCharacters(in: firstOutlineEnd, with: #""/>"# + missing.joined()))
        let (process, output) = try Self.start(
            ["feed", "--opml", "subs.opml", "--to", "ndjson", "--out", "-", "--jobs", "4"], in: box)
        defer { if process.isRunning { process.terminate() } }

        // Nothing is read from standard output, so the writer stops in the first
        // feed, which holds one of the 4 fetch slots; each 404, once it has ended,
        // gives its slot back, and waits for the writer holding nothing.
        let fetched = Self.settled { http.requests.count }
        let gone = http.requests.filter { $0.path.hasPrefix("/gone") }.count
        #expect(gone == 100, "\(gone) of the 100 missing URLs asked for while the writer waited")
        #expect(fetched - gone <= 4, "\(fetched - gone) of 6 feeds fetched while nothing was written")
        #expect(process.isRunning)

        let lines = Self.readToEnd(output, of: process)
        #expect(process.terminationStatus == 66)
        #expect(lines.count == 6 * 400)
    }

    @Test("the server dies mid-run: the feeds after it fail as temporary (75), each noted, and the run ends")
    func aDyingServerEndsTheRun() throws {
        let box = try Sandbox()
        let http = try Self.serve(60, items: 5, delay: .milliseconds(50), in: box)
        let (process, output) = try Self.start(
            ["feed", "--opml", "subs.opml", "--jobs", "4", "--timeout", "5"], in: box)
        defer { if process.isRunning { process.terminate() } }
        let deadline = Date().addingTimeInterval(60)
        while http.requests.count < 10, Date() < deadline { usleep(20_000) }
        try http.kill()

        let read = Self.readInBackground(output)
        try #require(Self.ends(process, within: 60), "the run did not end within 60 s of the server's death")
        _ = read()
        #expect(process.terminationStatus == 75)
        // Each feed read before the end is stored; each after it failed and says so.
        let rows = try box.rows(
            "feeds.db",
            "SELECT count(*), sum(last_status = 200), sum(failures = 1 AND last_error IS NOT NULL) FROM feeds")
        let (stored, failed) = (Int(rows.first?[1] ?? "") ?? 0, Int(rows.first?[2] ?? "") ?? 0)
        #expect(rows.first?[0] == "60", "every feed has its row")
        #expect(stored >= 1 && failed >= 40 && stored + failed == 60, "\(rows)")
    }
}
