import Foundation
import IngestKit

/// libFuzzer's driver, linked in by `-sanitize=fuzzer`. SwiftPM makes an executable's
/// `main` its own, so this target starts libFuzzer itself.
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32

/// One fuzz input: imported with the reader `INGEST_FUZZ_TARGET` names (`expat`,
/// `libxml2`, `json`, `ndjson`, `xpath`) into an output chosen from the input's
/// bytes (a hash, so the same input always goes to the same output), replacing an
/// output that exists. What must hold, as the command's exit codes say it:
///
/// - the import succeeds (0) or fails with an ``IngestError`` of kind `.data` (65):
///   any other kind (74 I/O, 73, 66, 64), any other error (1), a crash, a hang or
///   unbounded memory is a finding (libFuzzer's `-timeout` and `-rss_limit_mb`
///   catch the last two);
/// - a failed import leaves the previous output byte for byte as it was;
/// - no temporary file is left beside the output either way.
///
/// A finding aborts, so libFuzzer keeps the input as `crash-…`.
enum FuzzTarget: String, CaseIterable {
    case expat, libxml2, json, ndjson, xpath
    /// `ingest feed`'s path: ``FeedReader`` into a ``FeedArchive`` (see ``FeedHarness``).
    case feed

    func reader() -> any RecordReader {
        switch self {
        case .feed: preconditionFailure("the feed target has a harness of its own")
        case .expat: Importer(options: .init(format: .xml, xmlParser: .expat))
        case .libxml2: Importer(options: .init(format: .xml, xmlParser: .libxml2))
        case .json: Importer(options: .init(format: .json))
        case .ndjson: Importer(options: .init(format: .jsonLines))
        case .xpath: XPathReader(selection: XPathSelection("/*/*"), format: .xml)
        }
    }
}

/// The outputs an input may go to.
enum FuzzOutput: String, CaseIterable {
    case dryRun, sqlite, plistXML, plistBinary, archiveBinary, archiveXML, json, ndjson

    func make(path: String) -> any Output {
        switch self {
        case .dryRun: DiscardingOutput()
        case .sqlite: SQLiteOutput(path: path, mode: .replace)
        case .plistXML: FileOutput(path: path, format: .propertyList(.xml), replace: true)
        case .plistBinary: FileOutput(path: path, format: .propertyList(.binary), replace: true)
        case .archiveBinary: FileOutput(path: path, format: .keyedArchive(.binary), replace: true)
        case .archiveXML: FileOutput(path: path, format: .keyedArchive(.xml), replace: true)
        case .json: FileOutput(path: path, format: .json, replace: true)
        case .ndjson: FileOutput(path: path, format: .jsonLines, replace: true)
        }
    }

    /// FNV-1a of the input picks the output.
    static func choose(for bytes: UnsafeBufferPointer<UInt8>) -> FuzzOutput {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return allCases[Int(hash % UInt64(allCases.count))]
    }
}

final class FuzzHarness {
    let target: FuzzTarget
    let directory: String
    let inputPath: String
    let outputPath: String
    static let previous = Data("the previous output, which a failed import must leave alone\n".utf8)

    init() {
        let name = ProcessInfo.processInfo.environment["INGEST_FUZZ_TARGET"] ?? "expat"
        guard let target = FuzzTarget(rawValue: name) else {
            fatalError(
                "INGEST_FUZZ_TARGET=\(name): expected one of \(FuzzTarget.allCases.map(\.rawValue).joined(separator: ", "))"
            )
        }
        self.target = target
        var template = Array("\(NSTemporaryDirectory())/ingest-fuzz-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { fatalError("cannot create a temporary directory") }
        directory = String(cString: made)
        inputPath = directory + "/input"
        outputPath = directory + "/output"
    }

    func run(_ bytes: UnsafeBufferPointer<UInt8>) {
        if target == .feed { return feedHarness.run(bytes) }
        let output = FuzzOutput.choose(for: bytes)
        guard FileManager.default.createFile(atPath: inputPath, contents: Data(bytes)),
            output == .dryRun || FileManager.default.createFile(atPath: outputPath, contents: Self.previous)
        else {
            fatalError("cannot write in \(directory)")
        }
        do {
            let input = try InputFile(path: inputPath)
            try target.reader().run([input], into: output.make(path: outputPath))
        } catch let error as IngestError {
            if error.kind != .data { finding("\(output): kind \(error.kind), not data: \(error)") }
            if output != .dryRun, FileManager.default.contents(atPath: outputPath) != Self.previous {
                finding("\(output): the failed import changed the previous output (\(error))")
            }
        } catch {
            finding("\(output): an error that is not an IngestError (exit 1): \(error)")
        }
        let left = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        let unexpected = left.filter { $0 != "input" && $0 != "output" }
        if !unexpected.isEmpty { finding("\(output): files left beside the output: \(unexpected)") }
        try? FileManager.default.removeItem(atPath: outputPath)
    }

    func finding(_ what: String) -> Never {
        FileHandle.standardError.write(Data("ingest-fuzz finding [\(target)]: \(what)\n".utf8))
        abort()
    }

    private lazy var feedHarness = FeedHarness(directory: directory, inputPath: inputPath, finding: finding)
}

/// One fuzz input as `ingest feed` reads it: a file (which may be read again in
/// recovering mode) or standard input (which may not), picked from the input's
/// bytes, into an archive that already holds one feed. What must hold:
///
/// - the read and archive succeed, or fail with an ``IngestError`` of kind `.data`
///   (a source that is no feed, over a limit, amplifying: 65);
/// - a failure leaves the archive byte for byte as it was (one transaction);
/// - nothing is left beside the archive but its lock file.
final class FeedHarness {
    let directory: String
    let inputPath: String
    let archivePath: String
    let finding: (String) -> Never
    /// The archive before each input: one feed, stored once.
    let previous: Data

    init(directory: String, inputPath: String, finding: @escaping (String) -> Never) {
        self.directory = directory
        self.inputPath = inputPath
        self.finding = finding
        archivePath = directory + "/feeds.db"
        let seed = Data(
            #"<rss version="2.0"><channel><title>t</title><item><guid>1</guid></item></channel></rss>"#.utf8)
        do {
            let archive = try FeedArchive { design in
                SQLiteOutput(path: directory + "/feeds.db", mode: .append, design: design)
            }
            try archive.archive(.given("seed"), fetch: FeedFetch(url: "seed")) { deliver in
                try FeedReader().read(data: seed, deliver)
            }
        } catch {
            fatalError("cannot make the seed archive: \(error)")
        }
        guard let stored = FileManager.default.contents(atPath: archivePath) else { fatalError("no seed archive") }
        previous = stored
    }

    func run(_ bytes: UnsafeBufferPointer<UInt8>) {
        let asFile = bytes.count % 2 == 0
        guard FileManager.default.createFile(atPath: inputPath, contents: Data(bytes)) else {
            fatalError("cannot write in \(directory)")
        }
        do {
            let archive = try FeedArchive { design in
                SQLiteOutput(path: self.archivePath, mode: .append, design: design)
            }
            try archive.archive(asFile ? .given(inputPath) : .fromFeed, fetch: FeedFetch(url: inputPath)) { deliver in
                let input = try InputFile(path: inputPath)
                return try FeedReader().read(
                    input, reopen: asFile ? { try InputFile(path: self.inputPath) } : nil, deliver)
            }
            // A stored feed: back to the seed archive for the next input.
            guard FileManager.default.createFile(atPath: archivePath, contents: previous) else {
                fatalError("cannot restore")
            }
        } catch let error as IngestError {
            if error.kind != .data {
                finding("feed (\(asFile ? "file" : "stdin")): kind \(error.kind), not data: \(error)")
            }
            if FileManager.default.contents(atPath: archivePath) != previous {
                finding("feed (\(asFile ? "file" : "stdin")): the failed read changed the archive (\(error))")
            }
        } catch {
            finding("feed (\(asFile ? "file" : "stdin")): an error that is not an IngestError (exit 1): \(error)")
        }
        let left = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        let unexpected = left.filter { !["input", "feeds.db", ".feeds.db.ingest.lock"].contains($0) }
        if !unexpected.isEmpty { finding("feed: files left beside the archive: \(unexpected)") }
    }
}

nonisolated(unsafe) let harness = FuzzHarness()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    harness.run(UnsafeBufferPointer(start: data, count: size))
    return 0
}

var argc = CommandLine.argc
var argv = CommandLine.unsafeArgv
let status = withUnsafeMutablePointer(to: &argv) { pointer in
    pointer.withMemoryRebound(to: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?.self, capacity: 1) {
        LLVMFuzzerRunDriver(&argc, $0) { data, size in fuzzOneInput(data, size) }
    }
}
exit(status)
