import Testing
import IngestCompression

@Suite struct CompressionFormatTests {
    func detect(_ bytes: [UInt8]) -> CompressionFormat? {
        bytes.withUnsafeBytes { CompressionFormat.detect($0) }
    }

    @Test(
        "each tool's output is recognised by its first bytes",
        .enabled(if: Compressor.allAvailable, Compressor.absentMessage),
        arguments: CompressionFormat.allCases)
    func recognisesEachToolsOutput(format: CompressionFormat) throws {
        let compressed = try Compressor.compress(generatedText(lines: 10), as: format)
        #expect(detect(Array(compressed.prefix(CompressionFormat.magicByteCount))) == format)
        #expect(detect(compressed) == format)
    }

    @Test func plainXMLAndJSONAreNotCompressed() {
        #expect(detect(Array(#"<?xml version="1.0"?><a/>"#.utf8)) == nil)
        #expect(detect(Array(#"{"people": []}"#.utf8)) == nil)
        #expect(detect(Array("\u{FEFF}<a/>".utf8)) == nil)  // UTF-8 byte order mark
        #expect(detect([0xFF, 0xFE, 0x3C, 0x00]) == nil)  // UTF-16LE "<"
    }

    @Test func tooFewBytesAreNotAFormat() {
        #expect(detect([]) == nil)
        #expect(detect([0x1F]) == nil)
        #expect(detect(Array("BZh".utf8)) == nil)
        #expect(detect([0xFD, 0x37, 0x7A, 0x58, 0x5A]) == nil)
        #expect(detect([0x28, 0xB5, 0x2F]) == nil)
    }

    @Test func magicNumbersNeedEveryByte() {
        #expect(detect([0x1F, 0x8B]) == .gzip)
        #expect(detect(Array("BZh9".utf8)) == .bzip2)
        #expect(detect(Array("BZh0".utf8)) == nil)  // block sizes are 1-9
        #expect(detect(Array("BZip".utf8)) == nil)
        #expect(detect([0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00]) == .xz)
        #expect(detect([0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x01]) == nil)
        #expect(detect([0x28, 0xB5, 0x2F, 0xFD]) == .zstd)
        #expect(detect([0x5E, 0x2A, 0x4D, 0x18]) == .zstd)  // a skippable frame
        #expect(detect([0x6E, 0x2A, 0x4D, 0x18]) == nil)
    }

    @Test func namesAreTheTools() {
        #expect(CompressionFormat.allCases.map(\.description) == ["gzip", "bzip2", "xz", "zstd"])
    }
}
