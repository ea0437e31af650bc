import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `count` people, about 100 bytes each, for runs that must last a moment.
func manyPeople(_ count: Int) -> Data {
    var text = "<people>\n"
    text.reserveCapacity(count * 100)
    for index in 0..<count {
        text += "<person><firstName>F\(index)</firstName><lastName>Last name number \(index)</lastName></person>\n"
    }
    return Data((text + "</people>\n").utf8)
}

@Suite("File outputs when a run is cut short")
struct PlistInterruptTests {
    @Test(
        "SIGINT part-way leaves the old output byte for byte and no temporary files",
        arguments: [
            ["--to", "plist", "--plist-format", "binary"], ["--to", "archive", "--plist-format", "xml"],
            ["--to", "json"]
        ])
    func interrupted(arguments: [String]) throws {
        let box = try Sandbox()
        try box.copyFolks()
        try box.write("big.xml", manyPeople(400_000))
        try #require(try box.run(["folks.xml", "--out", "out", "-q"] + arguments).status == 0)
        let before = try box.contents("out")

        // Spawned with no signal blocked: a test runner's thread blocks most signals,
        // and Foundation's Process passes that mask on, so SIGINT would never arrive.
        let pid = try spawnWithSignalsUnblocked(
            try Locations.requireIngest().path,
            [box.path("big.xml"), "--out", box.path("out"), "--replace", "-q"] + arguments)
        // Wait until the run has created its temporary files, then interrupt it.
        let created = try isStillRunning(pid, within: 30) { try box.temporaryLeftovers().count >= 2 }
        usleep(200_000)
        try #require(
            created && isStillRunning(pid), "the run finished before it could be interrupted; make the input bigger")
        let (status, _) = signalAndWait(pid, SIGINT)

        #expect(status & 0x7F == SIGINT, "killed by SIGINT (wait status \(status))")
        #expect(try box.contents("out") == before)
        #expect(try box.temporaryLeftovers() == [])
    }

    @Test(
        "A write that fails part-way (file size limit) exits 74 and leaves the old output",
        arguments: [
            ["--to", "plist"], ["--to", "plist", "--plist-format", "binary"], ["--to", "archive"], ["--to", "ndjson"]
        ])
    func writeFails(arguments: [String]) throws {
        let box = try Sandbox()
        try box.copyFolks()
        try box.write("big.xml", manyPeople(20_000))
        try #require(try box.run(["folks.xml", "--out", "out", "-q"] + arguments).status == 0)
        let before = try box.contents("out")
        let binary = try Locations.requireIngest()

        // Files may not grow past 512 KiB; SIGXFSZ ignored, so writes fail with EFBIG.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments =
            [
                "-c", #"trap '' XFSZ; ulimit -f 1024; exec "$0" "$@""#, binary.path,
                "big.xml", "--out", "out", "--replace", "-q"
            ] + arguments
        process.currentDirectoryURL = box.directory
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()

        #expect(process.terminationStatus == 74, "\(stderr)")
        #expect(stderr.contains("out: write failed"), "\(stderr)")
        #expect(try box.contents("out") == before)
        #expect(try box.temporaryLeftovers() == [])
    }
}
