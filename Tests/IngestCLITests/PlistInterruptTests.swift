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
    @Test("SIGINT part-way leaves the old output byte for byte and no temporary files",
          arguments: [["--to", "plist", "--plist-format", "binary"], ["--to", "archive", "--plist-format", "xml"], ["--to", "json"]])
    func interrupted(arguments: [String]) throws {
        let box = try Sandbox()
        try box.copyFolks()
        try box.write("big.xml", manyPeople(400_000))
        try #require(try box.run(["folks.xml", "--out", "out", "-q"] + arguments).status == 0)
        let before = try box.contents("out")

        // Spawned with no signal blocked: a test runner's thread blocks most signals,
        // and Foundation's Process passes that mask on, so SIGINT would never arrive.
        let pid = try spawnWithSignalsUnblocked(try Locations.requireIngest().path,
                                                [box.path("big.xml"), "--out", box.path("out"), "--replace", "-q"] + arguments)
        // Wait until the run has created its temporary files, then interrupt it.
        let deadline = Date().addingTimeInterval(30)
        var status: Int32 = 0
        var finished = false
        while try box.temporaryLeftovers().count < 2, Date() < deadline {
            if waitpid(pid, &status, WNOHANG) == pid { finished = true; break }
            usleep(10_000)
        }
        usleep(200_000)
        if !finished { finished = waitpid(pid, &status, WNOHANG) == pid }
        try #require(!finished, "the run finished before it could be interrupted; make the input bigger")
        kill(pid, SIGINT)
        _ = waitpid(pid, &status, 0)

        #expect(status & 0x7F == SIGINT, "killed by SIGINT (wait status \(status))")
        #expect(try box.contents("out") == before)
        #expect(try box.temporaryLeftovers() == [])
    }

    @Test("A write that fails part-way (file size limit) exits 74 and leaves the old output",
          arguments: [["--to", "plist"], ["--to", "plist", "--plist-format", "binary"], ["--to", "archive"], ["--to", "ndjson"]])
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
        process.arguments = ["-c", #"trap '' XFSZ; ulimit -f 1024; exec "$0" "$@""#, binary.path,
                             "big.xml", "--out", "out", "--replace", "-q"] + arguments
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

/// Starts `path` with `arguments`, standard output and error to /dev/null (standard
/// input from `stdin` when given), with an empty signal mask and default signal
/// actions; returns its process id.
func spawnWithSignalsUnblocked(_ path: String, _ arguments: [String], stdin: Int32? = nil) throws -> pid_t {
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var none = sigset_t()
    sigemptyset(&none)
    posix_spawnattr_setsigmask(&attributes, &none)
    var defaults = sigset_t()
    sigemptyset(&defaults)
    for signal in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&defaults, signal) }
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    if let stdin { posix_spawn_file_actions_adddup2(&actions, stdin, 0) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let argv = ([path] + arguments).map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var pid = pid_t()
    let result = posix_spawn(&pid, path, &actions, &attributes, argv, environ)
    guard result == 0 else { throw POSIXError(POSIXErrorCode(rawValue: result) ?? .EIO) }
    return pid
}
