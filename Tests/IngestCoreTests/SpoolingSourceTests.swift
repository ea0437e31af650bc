import Foundation
import IngestCore
import IngestParsers
import Testing

/// Bytes in chunks of a given size, from memory: a source that cannot be reopened.
private final class Chunks: ByteSource {
    let displayName = "<chunks>"
    private let bytes: [UInt8]
    private let size: Int
    private var offset = 0

    init(_ bytes: [UInt8], size: Int) {
        self.bytes = bytes
        self.size = size
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let count = min(size, buffer.count, bytes.count - offset)
        bytes.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress! + offset, byteCount: count) }
        offset += count
        return count
    }
}

/// Everything `source` gives from here on, read `size` bytes at a time.
private func readAll(_ source: any ByteSource, size: Int = 1000) throws -> [UInt8] {
    var result: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: size)
    while true {
        let count = try buffer.withUnsafeMutableBytes { try source.read(into: $0) }
        if count == 0 { return result }
        result += buffer.prefix(count)
    }
}

@Suite("SpoolingSource: bytes read once, replayed from a copy on disk, then the rest")
struct SpoolingSourceTests {
    @Test(
        "a replay after part of the input gives all of it from the start, once",
        arguments: [0, 1, 4095, 70_000, 100_000])
    func replayAfterPart(readFirst: Int) throws {
        let bytes = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let spool = try SpoolingSource(Chunks(bytes, size: 777))
        var first = [UInt8](repeating: 0, count: readFirst)
        var read = 0
        while read < readFirst {
            let count = try first.withUnsafeMutableBytes {
                try spool.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[read...]))
            }
            if count == 0 { break }
            read += count
        }
        #expect(first == Array(bytes.prefix(readFirst)))
        #expect(spool.spooledBytes == readFirst)
        let replay = try spool.replay()
        #expect(replay.displayName == "<chunks>")
        #expect(try readAll(replay) == bytes)
        #expect(throws: IngestError.self) { try spool.replay() }
    }
}
