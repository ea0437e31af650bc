import Foundation
import IngestTestSupport
import Testing
import IngestCompression
import IngestCore
import IngestParsers

/// A compressed document parsed by Expat straight from a ``DecompressingSource``:
/// decompression composes with the push parsers, chunk by chunk.
@Suite(.enabled(if: Compressor.allAvailable, Compressor.absentMessage))
struct ExpatCompositionTests {
    /// Element paths and their text, as the parser reported them.
    final class TextCollector: ParseEventReceiver {
        var path: [String] = []
        var texts: [(path: String, text: String)] = []
        private var pending = ""

        func startElement(_ name: Name, attributes: Attributes, at position: SourcePosition) throws {
            path.append(name.qualified)
            pending = ""
        }

        func text(_ bytes: UnsafeBufferPointer<UInt8>, at position: SourcePosition) throws {
            pending += String(decoding: bytes, as: UTF8.self)
        }

        func endElement(_ name: Name, at position: SourcePosition) throws {
            let trimmed = pending.trimmingCharacters(in: .whitespacesAndNewlines)
            if !trimmed.isEmpty { texts.append((path.joined(separator: "/"), trimmed)) }
            pending = ""
            path.removeLast()
        }
    }

    /// Reads `source` in `chunkSize` pieces into Expat's push interface.
    func parse(_ source: any ByteSource, chunkSize: Int = defaultChunkSize) throws -> TextCollector {
        let collector = TextCollector()
        let parser = ExpatParser().makePushParser(receiver: collector, displayName: source.displayName)
        var buffer = [UInt8](repeating: 0, count: chunkSize)
        while true {
            let count = try buffer.withUnsafeMutableBytes { try source.read(into: $0) }
            if count == 0 { break }
            try buffer.withUnsafeBytes { try parser.feed(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
        }
        try parser.finish()
        return collector
    }

    @Test("Samples/folks.xml compressed by each tool parses to its three people", arguments: CompressionFormat.allCases)
    func folks(format: CompressionFormat) throws {
        let directory = try TemporaryDirectory()
        let compressed = directory.path("folks.xml.\(format)")
        try Compressor.compress(
            file: packageRoot.appendingPathComponent("Samples/folks.xml").path, as: format, into: compressed)
        for chunkSize in [1, defaultChunkSize] {
            let collector = try parse(InputFile(path: compressed).decompressingIfCompressed(), chunkSize: chunkSize)
            #expect(collector.texts.map(\.text) == ["Matt", "Neuburg", "Snidely", "Whiplash", "Dudley", "Doright"])
            #expect(collector.texts.first?.path == "people/person/firstName")
        }
    }

    @Test func unicodeTextSurvivesDecompressionAndParsing() throws {
        let xml = #"<?xml version="1.0" encoding="UTF-8"?><names><n>Zoë</n><n>日本語</n><n>🎉</n></names>"#
        let compressed = try Compressor.compress(Array(xml.utf8), as: .zstd)
        let collector = try parse(MemorySource(compressed, chunkSize: 1).decompressingIfCompressed(), chunkSize: 1)
        #expect(collector.texts.map(\.text) == ["Zoë", "日本語", "🎉"])
    }

    @Test func aDocumentCutInsideTheCompressedDataFailsAsCompressedData() throws {
        let xml =
            Array("<people>".utf8) + Array(repeating: Array("<person>Ann</person>".utf8), count: 5000).flatMap { $0 }
            + Array("</people>".utf8)
        let compressed = try Compressor.compress(xml, as: .gzip)
        let cut = MemorySource(Array(compressed.prefix(compressed.count - 20)), displayName: "people.xml.gz")
        let error = try #require(ingestError { _ = try parse(cut.decompressingIfCompressed()) })
        #expect(error.kind == .data)
        #expect(error.description.hasPrefix("people.xml.gz: truncated gzip stream: "))
    }
}
