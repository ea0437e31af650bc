import Foundation
import IngestTestSupport
import GRDB
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What one run of the `ingest` executable produced.
struct RunResult: CustomStringConvertible {
    /// The exit status, or the signal number when `crashed`.
    var status: Int32
    /// Killed by a signal (a crash) rather than exiting.
    var crashed: Bool
    var stdout: Data
    var stderr: String

    var stderrLines: [String] {
        stderr.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
    }

    /// The one-line summary a run prints with `--verbose` (or on a terminal):
    /// `ingest: 3 records in 1 table …`, or `ingest: well-formed, …`.
    var summary: String? {
        stderrLines.last { line in
            line.hasPrefix("ingest: well-formed")
                || line.dropFirst("ingest: ".count).first?.isNumber == true && line.hasPrefix("ingest: ")
        }
    }

    var description: String {
        let head = stderr.count > 1_500 ? String(stderr.prefix(1_500)) + "…" : stderr
        return "\(crashed ? "killed by signal" : "exit") \(status), stderr: \(head.debugDescription)"
    }
}

/// Where things are: the built `ingest` executable and the sample inputs.
enum Locations {
    /// The package root (IngestTestSupport's).
    static let packageRoot = IngestTestSupport.packageRoot

    static let folksXML = packageRoot.appendingPathComponent("Samples/folks.xml")

    /// Directories where the test bundle runs from; `swift test` builds `ingest` next to it.
    static var searchedDirectories: [URL] {
        var directories: [URL] = []
        if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            directories.append(URL(fileURLWithPath: exe).resolvingSymlinksInPath().deletingLastPathComponent())
        }
        if let first = CommandLine.arguments.first {
            directories.append(URL(fileURLWithPath: first).resolvingSymlinksInPath().deletingLastPathComponent())
        }
        // On macOS the bundle's executable sits in <debug>/X.xctest/Contents/MacOS/.
        for directory in directories {
            var up = directory
            for _ in 0..<3 {
                up = up.deletingLastPathComponent()
                directories.append(up)
            }
        }
        return directories
    }

    /// The built executable, or nil when it cannot be found.
    static let ingest: URL? = {
        if let override = ProcessInfo.processInfo.environment["INGEST_BINARY"] {
            return FileManager.default.isExecutableFile(atPath: override) ? URL(fileURLWithPath: override) : nil
        }
        for directory in searchedDirectories {
            let candidate = directory.appendingPathComponent("ingest")
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory),
                !isDirectory.boolValue,
                FileManager.default.isExecutableFile(atPath: candidate.path)
            {
                return candidate
            }
        }
        return nil
    }()

    static func requireIngest(sourceLocation: SourceLocation = #_sourceLocation) throws -> URL {
        try #require(
            Locations.ingest,
            """
            The built `ingest` executable was not found next to the test bundle \
            (looked in: \(searchedDirectories.map(\.path).joined(separator: ", "))). \
            Build it with `swift build` (or run `swift test`, which builds it too), \
            or set INGEST_BINARY to its path.
            """, sourceLocation: sourceLocation)
    }
}

/// Collects bytes from a background reader.
private final class DataBox: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()
    func set(_ value: Data) {
        lock.lock()
        data = value
        lock.unlock()
    }
    func get() -> Data {
        lock.lock()
        defer { lock.unlock() }
        return data
    }
}

/// A fresh temporary directory, removed when the sandbox goes away; `ingest` runs
/// with it as its current directory.
final class Sandbox {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("ingest-cli-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    deinit {
        // Restore permissions a test may have removed, then clean up. A symbolic link
        // is skipped: chmod follows it, and one to /dev/null would change the device.
        if let enumerator = FileManager.default.enumerator(atPath: directory.path) {
            for case let relative as String in enumerator {
                let path = directory.appendingPathComponent(relative).path
                var info = stat()
                if lstat(path, &info) == 0, (info.st_mode & S_IFMT) != S_IFLNK { chmod(path, 0o755) }
            }
        }
        try? FileManager.default.removeItem(at: directory)
    }

    /// The absolute path of `relative` inside the sandbox.
    func path(_ relative: String) -> String {
        directory.appendingPathComponent(relative).path
    }

    func exists(_ relative: String) -> Bool {
        FileManager.default.fileExists(atPath: path(relative))
    }

    func contents(_ relative: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: path(relative)))
    }

    /// Writes `text` to `relative`, creating intermediate directories.
    @discardableResult
    func write(_ relative: String, _ text: String) throws -> String {
        try write(relative, Data(text.utf8))
    }

    @discardableResult
    func write(_ relative: String, _ data: Data) throws -> String {
        let url = directory.appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: url)
        return url.path
    }

    /// Copies Samples/folks.xml to `relative`.
    @discardableResult
    func copyFolks(to relative: String = "folks.xml") throws -> String {
        try write(relative, try Data(contentsOf: Locations.folksXML))
    }

    /// Names of the entries directly in `relative` (the sandbox itself by default), sorted.
    func listing(_ relative: String = ".") throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: path(relative)).sorted()
    }

    /// Leftover temporary files of an AtomicFile: `.<target>.ingest-<pid>-<n>.tmp`.
    func temporaryLeftovers(_ relative: String = ".") throws -> [String] {
        try listing(relative).filter { $0.hasPrefix(".") && $0.contains(".ingest-") }
    }

    /// Runs `ingest` with `arguments`, the sandbox as current directory, `stdin` as
    /// standard input (or /dev/null), and waits for it.
    func run(
        _ arguments: [String], stdin: Data? = nil, environment: [String: String] = [:],
        executable: URL? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> RunResult {
        let binary = try executable ?? Locations.requireIngest(sourceLocation: sourceLocation)
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.currentDirectoryURL = directory
        var env = ProcessInfo.processInfo.environment
        env.merge(environment) { _, new in new }
        process.environment = env

        let outPipe = Pipe(), errPipe = Pipe()
        process.standardOutput = outPipe
        process.standardError = errPipe
        let inPipe: Pipe? = stdin == nil ? nil : Pipe()
        process.standardInput = inPipe ?? FileHandle.nullDevice

        try process.run()

        let group = DispatchGroup()
        let errBox = DataBox()
        let errReader = errPipe.fileHandleForReading
        DispatchQueue.global().async(group: group) {
            errBox.set(errReader.readDataToEndOfFile())
        }
        if let inPipe, let stdin {
            let writer = inPipe.fileHandleForWriting
            DispatchQueue.global().async(group: group) {
                // The tool may stop reading early (and close its end): ignore EPIPE.
                signal(SIGPIPE, SIG_IGN)
                try? writer.write(contentsOf: stdin)
                try? writer.close()
            }
        }
        let out = outPipe.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()

        return RunResult(
            status: process.terminationStatus,
            crashed: process.terminationReason == .uncaughtSignal,
            stdout: out,
            stderr: String(decoding: errBox.get(), as: UTF8.self))
    }

    /// Opens the database at `relative` read-only.
    func database(_ relative: String) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.readonly = true
        return try DatabaseQueue(path: path(relative), configuration: configuration)
    }

    /// Every row of `sql` as text (NULL stays nil), one array per row.
    func rows(_ relative: String, _ sql: String) throws -> [[String?]] {
        try database(relative).read { db in
            try Row.fetchAll(db, sql: sql).map { row in
                row.databaseValues.map { value in
                    switch value.storage {
                    case .null: nil
                    case .int64(let number): String(number)
                    case .double(let number): String(number)
                    case .string(let text): text
                    case .blob(let data): String(decoding: data, as: UTF8.self)
                    }
                }
            }
        }
    }

    /// Table names in the database at `relative`, sorted.
    func tables(_ relative: String) throws -> [String] {
        try database(relative).read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        }
    }

    /// Column names of `table`, in order.
    func columns(_ relative: String, table: String) throws -> [String] {
        try database(relative).read { db in
            try db.columns(in: table).map(\.name)
        }
    }
}

/// The three people of Samples/folks.xml, in document order.
let folks: [[String?]] = [["Matt", "Neuburg"], ["Snidely", "Whiplash"], ["Dudley", "Doright"]]

/// Well-formed up to line 3, where `</lastName>` closes `<firstName>`.
let malformedXML = "<people>\n  <person>\n    <firstName>Matt</lastName>\n"

extension Data {
    func contains(_ text: String) -> Bool {
        range(of: Data(text.utf8)) != nil
    }
}

/// What a run on a pseudo-terminal printed on standard error.
struct TerminalRun {
    var status: Int32
    /// Everything, escape sequences included.
    var text: String

    /// The progress lines drawn: every piece but the last line (the summary).
    var progressLines: [String] { Array(lines.dropLast()) }

    /// The pieces the terminal shows on one line each: split at CR and LF, escape
    /// sequences removed.
    var lines: [String] {
        let plain = text.replacingOccurrences(of: "\u{1B}[K", with: "")
        return plain.split(whereSeparator: { $0 == "\r" || $0 == "\n" || $0 == "\r\n" }).map(String.init).filter {
            !$0.isEmpty
        }
    }
}

extension Sandbox {
    /// Runs `ingest` with standard error on a pseudo-terminal `columns` wide (Python's
    /// `pty` sets it up), standard input a pipe fed from `stdinFile`, or nothing.
    func runOnTerminal(
        _ arguments: [String], columns: Int, stdinFile: String? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> TerminalRun {
        let binary = try Locations.requireIngest(sourceLocation: sourceLocation)
        let script = """
            import os, pty, sys, fcntl, termios, struct, subprocess
            columns, stdin_file, args = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
            master, slave = pty.openpty()
            fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack('HHHH', 24, columns, 0, 0))
            process = subprocess.Popen(args, stdin=subprocess.PIPE if stdin_file else subprocess.DEVNULL,
                                       stdout=subprocess.DEVNULL, stderr=slave, close_fds=True)
            os.close(slave)
            if stdin_file:
                def feed():
                    with open(stdin_file, 'rb') as source:
                        while True:
                            chunk = source.read(65536)
                            if not chunk:
                                break
                            try:
                                process.stdin.write(chunk)
                            except BrokenPipeError:
                                break
                    process.stdin.close()
                import threading
                threading.Thread(target=feed, daemon=True).start()
            output = b''
            while True:
                try:
                    data = os.read(master, 65536)
                except OSError:
                    break
                if not data:
                    break
                output += data
            sys.stdout.buffer.write(output)
            sys.exit(process.wait())
            """
        let result = try run(
            ["python3", "-c", script, String(columns), stdinFile ?? "", binary.path] + arguments,
            executable: URL(fileURLWithPath: "/usr/bin/env"))
        return TerminalRun(status: result.status, text: String(decoding: result.stdout, as: UTF8.self))
    }
}
