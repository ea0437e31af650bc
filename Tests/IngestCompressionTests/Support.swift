import Foundation
import Testing
import IngestCompression
import IngestCore
import IngestTestSupport

/// The format's own command-line tool, which writes the compressed data the tests read:
/// data as users' files hold it, not as our code would make it.
enum Compressor {
    static func executable(_ format: CompressionFormat) -> String {
        switch format {
        case .gzip: "gzip"
        case .bzip2: "bzip2"
        case .xz: "xz"
        case .zstd: "zstd"
        }
    }

    /// Whether every tool is on the PATH (.ci/run installs them: gzip, bzip2, xz-utils, zstd).
    static let allAvailable = CompressionFormat.allCases.allSatisfy { format in
        (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").contains {
            FileManager.default.isExecutableFile(atPath: "\($0)/\(executable(format))")
        }
    }
    static let absentMessage: Comment =
        "gzip, bzip2, xz or zstd is not on the PATH (apt-get install gzip bzip2 xz-utils zstd): skipped"

    /// Runs `command` through the shell with stdout to `output`, failing on a non-zero exit.
    static func shell(_ command: String, output: String) throws {
        _ = FileManager.default.createFile(atPath: output, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
        defer { try? handle.close() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        process.standardOutput = handle
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw CocoaError(
                .fileWriteUnknown,
                userInfo: [NSLocalizedDescriptionKey: "\(command) exited \(process.terminationStatus)"])
        }
    }

    /// Compresses the file at `path` with the format's tool into `output`. Reading from
    /// standard input, as `zcat`-style pipelines do, so no name is stored in the header.
    static func compress(file path: String, as format: CompressionFormat, arguments: String = "", into output: String)
        throws
    {
        try shell("\(executable(format)) -c -q \(arguments) < '\(path)'", output: output)
    }

    /// `bytes` compressed by the format's tool.
    static func compress(_ bytes: [UInt8], as format: CompressionFormat, arguments: String = "") throws -> [UInt8] {
        let directory = try TemporaryDirectory()
        let plain = directory.path("plain")
        let compressed = directory.path("compressed")
        try Data(bytes).write(to: URL(fileURLWithPath: plain))
        try compress(file: plain, as: format, arguments: arguments, into: compressed)
        return try Array(Data(contentsOf: URL(fileURLWithPath: compressed)))
    }
}

/// Bytes held in memory, handed out at most `chunkSize` at a time — how a pipe or a
/// socket delivers data — counting what was asked of it.
final class MemorySource: ByteSource {
    let displayName: String
    private let bytes: [UInt8]
    private let chunkSize: Int
    private var offset = 0
    /// How many reads returned data or the end.
    private(set) var reads = 0

    init(_ bytes: [UInt8], chunkSize: Int = .max, displayName: String = "memory.bin") {
        self.bytes = bytes
        self.chunkSize = chunkSize
        self.displayName = displayName
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        reads += 1
        let count = min(buffer.count, chunkSize, bytes.count - offset)
        bytes.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress! + offset, byteCount: count) }
        offset += count
        return count
    }
}

/// Everything `source` yields, read through a buffer of `bufferSize` bytes.
func readAll(_ source: any ByteSource, bufferSize: Int = defaultChunkSize) throws -> [UInt8] {
    var result: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: bufferSize)
    while true {
        let count = try buffer.withUnsafeMutableBytes { try source.read(into: $0) }
        if count == 0 { return result }
        result += buffer[..<count]
    }
}

/// Text that compresses like real data: varied lines, numbers, and non-ASCII letters.
func generatedText(lines: Int, seed: Int = 1) -> [UInt8] {
    let words = ["ingest", "Zoë", "naïve", "Straße", "日本語", "🎉", "record", "<person>", "&amp;", "value", "x"]
    var text = ""
    var state = UInt64(seed)
    for line in 0..<lines {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        let count = Int(state >> 60) + 1
        text += "\(line):"
        for index in 0..<count { text += " " + words[Int((state >> UInt64(index * 4)) % UInt64(words.count))] }
        text += " \(state % 100_000)\n"
    }
    return Array(text.utf8)
}

/// The error `body` throws, when it is an ``IngestError``.
func ingestError(_ body: () throws -> Void) -> IngestError? {
    do {
        try body()
        return nil
    } catch let error as IngestError {
        return error
    } catch {
        return nil
    }
}
