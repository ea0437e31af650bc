import Foundation
import IngestTestSupport
import Testing
import IngestCompression
import IngestCore
import IngestParsers

/// `decompressingIfCompressed()`: files, pipes and other sources, compressed or not.
@Suite(.enabled(if: Compressor.allAvailable, Compressor.absentMessage))
struct DetectionTests {
    static let xml =
        Array(#"<?xml version="1.0"?><people><person name="Zoë"/></people>"#.utf8) + generatedText(lines: 3000)

    @Test("a compressed file is decompressed, whatever its name", arguments: CompressionFormat.allCases)
    func compressedFile(format: CompressionFormat) throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("people.xml")  // no .gz: the bytes decide
        try Data(Compressor.compress(Self.xml, as: format)).write(to: URL(fileURLWithPath: path))
        let source = try InputFile(path: path).decompressingIfCompressed()
        let decompressing = try #require(source as? DecompressingSource)
        #expect(decompressing.format == format)
        #expect(source.displayName == path)
        #expect(try readAll(source) == Self.xml)
        #expect(
            decompressing.compressedBytesRead == (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        )
    }

    @Test func aPlainFileIsTheFileItself() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("people.xml.gz")  // a misleading name changes nothing
        try Data(Self.xml).write(to: URL(fileURLWithPath: path))
        let file = try InputFile(path: path)
        let source = try file.decompressingIfCompressed()
        #expect(source === file)
        #expect(try readAll(source, bufferSize: 100) == Self.xml)
    }

    @Test(
        "short and empty plain inputs pass through unchanged",
        arguments: [
            [], [0x1F], Array("{}".utf8), Array("BZh".utf8), [0xFD, 0x37, 0x7A, 0x58, 0x5A], Array("<a/>\n".utf8)
        ])
    func shortPlainInputs(bytes: [UInt8]) throws {
        for chunkSize in [1, 100] {
            let source = try MemorySource(bytes, chunkSize: chunkSize).decompressingIfCompressed()
            #expect(!(source is DecompressingSource))
            #expect(try readAll(source, bufferSize: 2) == bytes)
        }
        let directory = try TemporaryDirectory()
        try Data(bytes).write(to: URL(fileURLWithPath: directory.path("short")))
        #expect(try readAll(InputFile(path: directory.path("short")).decompressingIfCompressed()) == bytes)
    }

    @Test("a source that cannot seek, one byte at a time", arguments: CompressionFormat.allCases)
    func byteAtATimeSource(format: CompressionFormat) throws {
        let compressed = try Compressor.compress(Self.xml, as: format)
        let memory = MemorySource(compressed, chunkSize: 1, displayName: "<socket>")
        let source = try memory.decompressingIfCompressed()
        #expect((source as? DecompressingSource)?.format == format)
        #expect(source.displayName == "<socket>")
        #expect(try readAll(source) == Self.xml)
        #expect((source as? DecompressingSource)?.compressedBytesRead == compressed.count)
        // Plain bytes the same way come back whole, the sniffed ones first.
        #expect(
            try readAll(MemorySource(Self.xml, chunkSize: 1).decompressingIfCompressed(), bufferSize: 3) == Self.xml)
    }

    @Test("a pipe, as standard input is, through InputFile", arguments: CompressionFormat.allCases)
    func pipe(format: CompressionFormat) throws {
        let compressed = try Compressor.compress(Self.xml, as: format)
        let pipe = Pipe()
        let writer = Thread {
            // Small writes with pauses between, as a slow producer gives them.
            for start in stride(from: 0, to: compressed.count, by: 1000) {
                pipe.fileHandleForWriting.write(Data(compressed[start..<min(start + 1000, compressed.count)]))
                if start % 10_000 == 0 { usleep(1000) }
            }
            try? pipe.fileHandleForWriting.close()
        }
        writer.start()
        let file = try InputFile(path: "/dev/fd/\(pipe.fileHandleForReading.fileDescriptor)")
        #expect(file.size == nil)  // not a regular file: no seeking, no size
        let source = try file.decompressingIfCompressed()
        #expect((source as? DecompressingSource)?.format == format)
        #expect(try readAll(source) == Self.xml)
    }
}
