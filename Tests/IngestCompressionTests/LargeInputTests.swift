import CZlib
import Foundation
import IngestTestSupport
import Testing
import IngestCompression
import IngestCore
import IngestParsers

/// Large inputs stream through fixed buffers: nothing grows with the input or with
/// how well it compresses.
@Suite(.enabled(if: Compressor.allAvailable, Compressor.absentMessage))
struct LargeInputTests {
    /// A source that passes reads through, noting every buffer it was asked to fill.
    final class BufferRecordingSource: ByteSource {
        let inner: any ByteSource
        var buffers: Set<UnsafeMutableRawPointer> = []
        var largestRequest = 0
        var displayName: String { inner.displayName }

        init(_ inner: any ByteSource) { self.inner = inner }

        func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
            buffers.insert(buffer.baseAddress!)
            largestRequest = max(largestRequest, buffer.count)
            return try inner.read(into: buffer)
        }
    }

    /// What a pass over a source found: bytes, lines (records) and the CRC-32 of it all.
    struct Digest: Equatable {
        var bytes = 0
        var lines = 0
        var crc: UInt = 0

        /// Reads `source` to the end through one buffer of `defaultChunkSize` bytes.
        init(reading source: any ByteSource) throws {
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: defaultChunkSize, alignment: 16)
            defer { buffer.deallocate() }
            while case let count = try source.read(into: buffer), count > 0 {
                let chunk = UnsafeRawBufferPointer(rebasing: buffer[..<count])
                bytes += count
                crc = crc32(crc, chunk.baseAddress!.assumingMemoryBound(to: Bytef.self), uInt(count))
                var position = chunk.baseAddress!
                let end = position + count
                while let newline = memchr(position, 0x0A, end - position) {
                    lines += 1
                    position = UnsafeRawPointer(newline) + 1
                }
            }
        }
    }

    @Test("about 50 MB of generated XML through gzip: every byte, through one fixed input buffer")
    func fiftyMegabytesOfXML() throws {
        let directory = try TemporaryDirectory()
        let plain = directory.path("people.xml"), compressed = directory.path("people.xml.gz")
        let records = 650_000
        try Compressor.shell(
            """
            awk 'BEGIN { print "<people>"; for (i = 1; i <= \(records); i++) \
              printf "<person id=\\"%d\\"><name>Zoë Person %d</name><score>%d</score></person>\\n", i, i, (i * 7919) % 1000; \
              print "</people>" }'
            """, output: plain)
        try Compressor.compress(file: plain, as: .gzip, arguments: "-1", into: compressed)

        let expected = try Digest(reading: InputFile(path: plain))
        #expect(expected.bytes > 50_000_000)
        #expect(expected.lines == records + 2)

        let file = BufferRecordingSource(try InputFile(path: compressed))
        let source = try file.decompressingIfCompressed()
        let decompressing = try #require(source as? DecompressingSource)
        #expect(try Digest(reading: source) == expected)
        #expect(
            decompressing.compressedBytesRead
                == (try FileManager.default.attributesOfItem(atPath: compressed)[.size] as? Int))
        // The compressed file went through one buffer of one size, however long it was
        // (the first, short read sniffed the magic number).
        #expect(file.buffers.count <= 2)
        #expect(file.largestRequest == defaultChunkSize)
    }

    @Test("a decompression bomb costs time, not memory: 1 GiB of zeros from a few kilobytes of zstd")
    func decompressionBomb() throws {
        let directory = try TemporaryDirectory()
        let bomb = directory.path("zeros.zst")
        try Compressor.shell("head -c \(1 << 30) /dev/zero | zstd -c -q", output: bomb)
        let file = BufferRecordingSource(try InputFile(path: bomb))
        let source = try DecompressingSource(file, format: .zstd)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: defaultChunkSize, alignment: 16)
        defer { buffer.deallocate() }
        let zeros = [UInt8](repeating: 0, count: defaultChunkSize)
        var total = 0
        var allZero = true
        while case let count = try source.read(into: buffer), count > 0 {
            total += count
            allZero = allZero && zeros.withUnsafeBytes { memcmp($0.baseAddress!, buffer.baseAddress!, count) } == 0
        }
        #expect(total == 1 << 30)
        #expect(allZero)
        #expect(source.compressedBytesRead < 100_000)
        #expect(file.buffers.count == 1)
    }
}
