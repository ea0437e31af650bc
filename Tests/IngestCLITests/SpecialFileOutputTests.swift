import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Outputs that are not regular files are written through, never replaced: a device,
/// a FIFO, a shell's `>(…)`, and a symbolic link leads to what it names.
@Suite("Special files as outputs")
struct SpecialFileOutputTests {
    @Test(
        "--out /dev/null works without --replace, for every output, and /dev/null stays a device",
        arguments: ["db", "json", "ndjson", "plist", "archive"])
    func devNull(to: String) throws {
        let box = try Sandbox()
        try box.copyFolks()

        let result = try box.run(["folks.xml", "--to", to, "--out", "/dev/null"])

        #expect(result.status == 0 && result.stderr.isEmpty, "\(result)")
        var info = stat()
        #expect(stat("/dev/null", &info) == 0 && (info.st_mode & S_IFMT) == S_IFCHR)
        #expect(try box.listing() == ["folks.xml"], "no lock or temporary file is left anywhere")
        #expect(!FileManager.default.fileExists(atPath: "/dev/.null.ingest.lock"))
    }

    @Test(
        "ingest feed --out /dev/null, or a FIFO, works without --replace for every output; the device stays one",
        arguments: ["db", "json", "ndjson"])
    func feedToSpecialFiles(to: String) throws {
        let box = try Sandbox()
        try box.write("news.rss", feedText(threeItems))

        let result = try box.run(["feed", "news.rss", "--to", to, "--out", "/dev/null"])

        #expect(result.status == 0 && result.stderr.isEmpty, "\(result)")
        var info = stat()
        #expect(stat("/dev/null", &info) == 0 && (info.st_mode & S_IFMT) == S_IFCHR)
        #expect(try box.listing() == ["news.rss"])

        try #require(mkfifo(box.path("pipe"), 0o644) == 0)
        let reader = ReadAll(path: box.path("pipe"))
        let throughFIFO = try box.run(["feed", "news.rss", "--to", to, "--out", "pipe"])
        let received = reader.wait()
        #expect(throughFIFO.status == 0, "\(throughFIFO)")
        switch to {
        case "ndjson": #expect(String(decoding: received, as: UTF8.self).split(separator: "\n").count == 3)
        case "json": #expect(String(decoding: received, as: UTF8.self).contains("\"title\": \"Test feed\""))
        default: #expect(received.starts(with: Data("SQLite format 3\0".utf8)))
        }
        #expect(lstat(box.path("pipe"), &info) == 0 && (info.st_mode & S_IFMT) == S_IFIFO)
        #expect(try box.listing() == ["news.rss", "pipe"])
    }

    @Test("A FIFO is written through: a reader gets the output, the FIFO stays a FIFO", arguments: ["ndjson", "db"])
    func fifo(to: String) throws {
        let box = try Sandbox()
        try box.copyFolks()
        try #require(mkfifo(box.path("pipe"), 0o644) == 0)
        let reader = ReadAll(path: box.path("pipe"))

        let result = try box.run(["folks.xml", "--to", to, "--out", "pipe"])
        let received = reader.wait()

        #expect(result.status == 0, "\(result)")
        if to == "ndjson" {
            #expect(String(decoding: received, as: UTF8.self).split(separator: "\n").count == 3)
        } else {
            #expect(received.starts(with: Data("SQLite format 3\0".utf8)))
        }
        var info = stat()
        #expect(lstat(box.path("pipe"), &info) == 0 && (info.st_mode & S_IFMT) == S_IFIFO)
        #expect(try box.listing() == ["folks.xml", "pipe"])
    }

    @Test("A shell's process substitution, --out >(gzip > x.gz), gets the output")
    func processSubstitution() throws {
        let box = try Sandbox()
        try box.copyFolks()
        let binary = try Locations.requireIngest()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [
            "-c", "'\(binary.path)' folks.xml --to json --out >(cat > copy.json); status=$?; wait; exit $status"
        ]
        process.currentDirectoryURL = URL(fileURLWithPath: box.path("."))
        try process.run()
        process.waitUntilExit()
        // The substituted process may still be writing when bash exits.
        let deadline = Date().addingTimeInterval(10)
        var array: [Any]? = nil
        while Date() < deadline {
            array = (try? JSONSerialization.jsonObject(with: box.contents("copy.json"))) as? [Any]
            if array != nil { break }
            usleep(20_000)
        }

        #expect(process.terminationStatus == 0)
        #expect(array?.count == 3)
    }

    @Test("--replace through a symbolic link replaces the file it names; the link stays a link")
    func symlinkToFile() throws {
        let box = try Sandbox()
        try box.copyFolks()
        try FileManager.default.createDirectory(atPath: box.path("data"), withIntermediateDirectories: true)
        _ = try box.write("data/people.json", "[]")
        try #require(symlink("data/people.json", box.path("latest.json")) == 0)

        let refused = try box.run(["folks.xml", "--to", "json", "--out", "latest.json"])
        let replaced = try box.run(["folks.xml", "--to", "json", "--out", "latest.json", "--replace"])

        #expect(refused.status == 73 && refused.stderr.contains("latest.json: already exists"), "\(refused)")
        #expect(replaced.status == 0, "\(replaced)")
        #expect(
            try FileManager.default.destinationOfSymbolicLink(atPath: box.path("latest.json")) == "data/people.json")
        let people = try JSONSerialization.jsonObject(with: box.contents("data/people.json")) as? [Any]
        #expect(people?.count == 3)
        #expect(
            try box.listing("data") == ["people.json"],
            "the temporary file and the lock were beside the real file, and are gone")
    }

    @Test("A database reached through a symbolic link: --append adds to the file it names")
    func symlinkedDatabaseAppend() throws {
        let box = try Sandbox()
        try box.copyFolks()
        #expect(try box.run(["folks.xml", "--out", "real.db"]).status == 0)
        try #require(symlink("real.db", box.path("link.db")) == 0)

        let appended = try box.run(["folks.xml", "--out", "link.db", "--append"])

        #expect(appended.status == 0, "\(appended)")
        #expect(try box.rows("real.db", "SELECT count(*) FROM people") == [["6"]])
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: box.path("link.db")) == "real.db")
    }

    @Test("A symbolic link to a device is written through to the device")
    func symlinkToDevice() throws {
        let box = try Sandbox()
        try box.copyFolks()
        try #require(symlink("/dev/null", box.path("sink")) == 0)

        let result = try box.run(["folks.xml", "--out", "sink", "--to", "ndjson"])

        #expect(result.status == 0, "\(result)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: box.path("sink")) == "/dev/null")
    }

    @Test("--report /dev/stderr writes the report to standard error and leaves the link alone")
    func reportToStandardError() throws {
        let box = try Sandbox()
        try box.copyFolks()

        let result = try box.run(["folks.xml", "--out", "folks.db", "--report", "/dev/stderr"])

        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.contains("\"exitStatus\": 0"), "\(result)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: "/dev/stderr").isEmpty == false)
    }
}

/// Reads a FIFO to its end on another thread (opening it blocks until a writer comes).
private final class ReadAll: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var data = Data()

    init(path: String) {
        DispatchQueue.global().async { [self] in
            let descriptor = open(path, O_RDONLY)
            if descriptor >= 0 {
                var buffer = [UInt8](repeating: 0, count: 65536)
                while true {
                    let count = read(descriptor, &buffer, buffer.count)
                    if count < 0 && errno == EINTR { continue }
                    if count <= 0 { break }
                    data.append(contentsOf: buffer[..<count])
                }
                close(descriptor)
            }
            done.signal()
        }
    }

    func wait() -> Data {
        _ = done.wait(timeout: .now() + 30)
        return data
    }
}
