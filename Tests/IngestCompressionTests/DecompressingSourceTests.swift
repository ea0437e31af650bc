import Foundation
import IngestTestSupport
import Testing
import IngestCompression
import IngestCore

@Suite(.enabled(if: Compressor.allAvailable, Compressor.absentMessage))
struct DecompressingSourceTests {
    /// About 400 KB of text: several bzip2 blocks' worth at `-1`, many deflate blocks.
    static let text = generatedText(lines: 8000)

    /// (compressed bytes per read of the wrapped source, decompressed bytes per read)
    static let splits = [(1, 1000), (7, 7), (64 << 10, defaultChunkSize)]

    @Test(
        "round trip byte for byte, compressed input arriving 1, 7 or 64 KiB at a time",
        arguments: CompressionFormat.allCases, splits)
    func roundTrip(format: CompressionFormat, split: (input: Int, output: Int)) throws {
        let compressed = try Compressor.compress(Self.text, as: format, arguments: format == .bzip2 ? "-1" : "")
        let source = try DecompressingSource(MemorySource(compressed, chunkSize: split.input), format: format)
        #expect(try readAll(source, bufferSize: split.output) == Self.text)
        #expect(source.compressedBytesRead == compressed.count)
        // The end stays the end.
        #expect(try readAll(source).isEmpty)
    }

    @Test(
        "the smallest input buffer (64 bytes): members and magic numbers split across refills",
        arguments: CompressionFormat.allCases)
    func tinyInputBuffer(format: CompressionFormat) throws {
        let first = Array(Self.text.prefix(5000)), second = Array("second part\n".utf8)
        let compressed = try Compressor.compress(first, as: format) + Compressor.compress(second, as: format)
        let source = try DecompressingSource(MemorySource(compressed, chunkSize: 5), format: format, inputBufferSize: 1)
        #expect(try readAll(source, bufferSize: 3) == first + second)
    }

    @Test("empty data compressed decompresses to nothing", arguments: CompressionFormat.allCases)
    func emptyData(format: CompressionFormat) throws {
        let compressed = try Compressor.compress([], as: format)
        #expect(!compressed.isEmpty)
        let source = try DecompressingSource(MemorySource(compressed), format: format)
        #expect(try readAll(source).isEmpty)
        #expect(source.compressedBytesRead == compressed.count)
    }

    @Test(
        "concatenated members, streams and frames read as one, as the tools read them",
        arguments: CompressionFormat.allCases)
    func concatenated(format: CompressionFormat) throws {
        let parts = [Array(Self.text.prefix(100_000)), [], Array("Ünïcödé in the last part 🎉\n".utf8)]
        let compressed = try parts.flatMap { try Compressor.compress($0, as: format) }
        for chunkSize in [1, 4096] {
            let source = try DecompressingSource(MemorySource(compressed, chunkSize: chunkSize), format: format)
            #expect(try readAll(source, bufferSize: 4096) == parts.flatMap { $0 })
        }
        // The format's own tool agrees: what `gzip -dc` and friends print.
        let directory = try TemporaryDirectory()
        try Data(compressed).write(to: URL(fileURLWithPath: directory.path("joined")))
        try Compressor.shell(
            "\(Compressor.executable(format)) -dc < '\(directory.path("joined"))'", output: directory.path("tool"))
        #expect(try Array(Data(contentsOf: URL(fileURLWithPath: directory.path("tool")))) == parts.flatMap { $0 })
    }

    @Test func xzStreamPaddingBetweenAndAfterStreams() throws {
        let one = try Compressor.compress(Array("one\n".utf8), as: .xz),
            two = try Compressor.compress(Array("two\n".utf8), as: .xz)
        let padded = one + [0, 0, 0, 0] + two + [0, 0, 0, 0, 0, 0, 0, 0]
        #expect(
            try readAll(DecompressingSource(MemorySource(padded, chunkSize: 3), format: .xz))
                == Array("one\ntwo\n".utf8))
    }

    @Test func xzStreamPaddingMustBeAMultipleOfFour() throws {
        let one = try Compressor.compress(Array("one\n".utf8), as: .xz)
        for padding in [1, 3, 6] {
            let error = try #require(
                ingestError {
                    _ = try readAll(
                        DecompressingSource(MemorySource(one + [UInt8](repeating: 0, count: padding)), format: .xz))
                })
            #expect(
                error.message
                    == "corrupt xz stream: stream padding of \(padding) bytes, not a multiple of four (at compressed byte \(one.count + padding))"
            )
        }
    }

    @Test func zeroBytesAfterTheLastGzipMemberAreIgnoredAsGzipIgnoresThem() throws {
        let compressed = try Compressor.compress(Self.text, as: .gzip) + [UInt8](repeating: 0, count: 1000)
        let source = try DecompressingSource(MemorySource(compressed, chunkSize: 300), format: .gzip)
        #expect(try readAll(source) == Self.text)
    }

    @Test("bytes after the end that start no new member are an error", arguments: CompressionFormat.allCases)
    func trailingGarbage(format: CompressionFormat) throws {
        let compressed = try Compressor.compress(Array("<a/>\n".utf8), as: format)
        let source = try DecompressingSource(MemorySource(compressed + Array("garbage".utf8)), format: format)
        let error = try #require(ingestError { _ = try readAll(source) })
        #expect(error.kind == .data)
        #expect(error.file == "memory.bin")
        #expect(
            error.message
                == "unexpected data after the end of the \(format) stream (at compressed byte \(compressed.count + 1))")
        if format == .gzip || format == .xz {
            // Zero bytes are padding (gzip's tape blocks, xz's stream padding); a byte after them is not.
            let padded = compressed + [0, 0, 0, 0, 7]
            let error = try #require(
                ingestError { _ = try readAll(DecompressingSource(MemorySource(padded), format: format)) })
            #expect(
                error.message
                    == "unexpected data after the end of the \(format) stream (at compressed byte \(compressed.count + 5))"
            )
        }
    }

    @Test("an input cut short is a truncated stream, exit 65", arguments: CompressionFormat.allCases)
    func truncated(format: CompressionFormat) throws {
        let compressed = try Compressor.compress(Self.text, as: format)
        for length in [compressed.count / 2, compressed.count - 1, CompressionFormat.magicByteCount] {
            let cut = Array(compressed.prefix(length))
            let source = try DecompressingSource(
                MemorySource(cut, chunkSize: 1000, displayName: "cut.\(format)"), format: format)
            let error = try #require(ingestError { _ = try readAll(source) })
            #expect(error.kind == .data)
            #expect(error.file == "cut.\(format)")
            #expect(
                error.message
                    == "truncated \(format) stream: the input ends inside the compressed data (after \(length) compressed bytes)"
            )
            #expect(error.description.hasPrefix("cut.\(format): truncated \(format) stream"))
        }
    }

    @Test("damaged data is a corrupt stream naming the compressed byte", arguments: CompressionFormat.allCases)
    func corruptInTheMiddle(format: CompressionFormat) throws {
        var compressed = try Compressor.compress(Self.text, as: format)
        let middle = compressed.count / 2
        for offset in middle..<middle + 16 { compressed[offset] ^= 0x55 }
        let source = try DecompressingSource(MemorySource(compressed, displayName: "bad.\(format)"), format: format)
        let error = try #require(ingestError { _ = try readAll(source) })
        #expect(error.kind == .data)
        #expect(error.file == "bad.\(format)")
        #expect(error.message.hasPrefix("corrupt \(format) stream: "))
        // Found at or after the damage (checksums are checked at the end of a block).
        let byte = try #require(Int(error.message.split(separator: " ").last!.dropLast()))
        #expect(byte > middle && byte <= compressed.count)
    }

    @Test func gzipInvalidBlockTypeIsReportedAtItsByte() throws {
        var compressed = try Compressor.compress(Self.text, as: .gzip)
        // A gzip header without a name is 10 bytes; the first deflate block's header
        // follows: the final bit set and block type 3, which does not exist.
        compressed[10] = 0b111
        let error = try #require(
            ingestError { _ = try readAll(DecompressingSource(MemorySource(compressed), format: .gzip)) })
        #expect(error.description == "memory.bin: corrupt gzip stream: invalid block type (at compressed byte 11)")
    }

    @Test func gzipChecksumMismatchIsCorrupt() throws {
        var compressed = try Compressor.compress(Self.text, as: .gzip)
        compressed[compressed.count - 8] ^= 1  // the trailer's CRC-32
        let error = try #require(
            ingestError { _ = try readAll(DecompressingSource(MemorySource(compressed), format: .gzip)) })
        #expect(
            error.message == "corrupt gzip stream: incorrect data check (at compressed byte \(compressed.count - 4))")
    }

    @Test func bzip2DamagedBlockFailsItsCRC() throws {
        var compressed = try Compressor.compress(Self.text, as: .bzip2)
        compressed[100] ^= 0x01
        let error = try #require(
            ingestError { _ = try readAll(DecompressingSource(MemorySource(compressed), format: .bzip2)) })
        #expect(
            error.message.hasPrefix(
                "corrupt bzip2 stream: data integrity error, a CRC mismatch or an invalid block (at compressed byte "))
    }

    @Test func wrongFormatForTheDataIsCorrupt() throws {
        let gzip = try Compressor.compress(Self.text, as: .gzip)
        for format in [CompressionFormat.bzip2, .xz, .zstd] {
            let error = try #require(
                ingestError { _ = try readAll(DecompressingSource(MemorySource(gzip), format: format)) })
            #expect(error.kind == .data)
            #expect(error.message.hasPrefix("corrupt \(format) stream: "))
        }
    }

    @Test func xzDictionaryLargerThanTheMemoryLimitIsRefused() throws {
        // xz -6 declares an 8 MiB dictionary.
        let compressed = try Compressor.compress(Self.text, as: .xz, arguments: "-6")
        let source = try DecompressingSource(MemorySource(compressed), format: .xz, memoryLimit: 1 << 20)
        let error = try #require(ingestError { _ = try readAll(source) })
        #expect(error.kind == .data)
        #expect(error.message.hasPrefix("xz stream needs 9 MiB of memory to decompress, more than the limit of 1 MiB"))
        // Within the limit it reads.
        #expect(
            try readAll(DecompressingSource(MemorySource(compressed), format: .xz, memoryLimit: 16 << 20)) == Self.text)
    }

    @Test func zstdWindowLargerThanTheMemoryLimitIsRefused() throws {
        // From a pipe the size is unknown, so zstd keeps level 19's 8 MiB window.
        let compressed = try Compressor.compress(Self.text, as: .zstd, arguments: "-19")
        let source = try DecompressingSource(MemorySource(compressed), format: .zstd, memoryLimit: 1 << 20)
        let error = try #require(ingestError { _ = try readAll(source) })
        #expect(error.kind == .data)
        #expect(
            error.message.hasPrefix(
                "zstd stream needs more memory to decompress than the limit of 1 MiB allows (at compressed byte "))
        #expect(
            try readAll(DecompressingSource(MemorySource(compressed), format: .zstd, memoryLimit: 8 << 20)) == Self.text
        )
    }

    @Test(
        "peek shows the first decompressed bytes and reading starts at the beginning",
        arguments: CompressionFormat.allCases)
    func peek(format: CompressionFormat) throws {
        let compressed = try Compressor.compress(Self.text, as: format)
        let source = try DecompressingSource(MemorySource(compressed, chunkSize: 7), format: format)
        let first = try source.peek { Array($0) }
        #expect(first == Array(Self.text.prefix(4096)))
        #expect(try source.peek { Array($0) } == first)
        #expect(try readAll(source, bufferSize: 1000) == Self.text)
    }
}
