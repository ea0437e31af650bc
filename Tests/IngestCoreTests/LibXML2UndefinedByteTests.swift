import Testing
@testable import IngestCore
@testable import IngestParsers
import IngestTestSupport

/// libxml2's push parser stops at a byte the declared encoding does not define with
/// an error at that byte — wherever the chunks split the input, and also when the
/// byte comes long after the XML declaration — as Expat does (issue 15, item 3).
@Suite struct LibXML2UndefinedByteTests {
    /// `count` records of CP932 text, then one with 0xA0 0x80 (undefined), then more.
    static func document(records count: Int) -> [UInt8] {
        var bytes = Array("<?xml version=\"1.0\" encoding=\"CP932\"?>\n<r>\n".utf8)
        for _ in 0..<count { bytes += Array("<a><v>".utf8) + [0x82, 0xA0] + Array(" ok</v></a>\n".utf8) }
        bytes += Array("<a><v>x".utf8) + [0xA0, 0x80] + Array("y</v></a>\n".utf8)
        bytes += Array("<a><v>after</v></a>\n</r>\n".utf8)
        return bytes
    }

    func failure(_ bytes: [UInt8], parser: some StreamingParser) -> IngestError? {
        #expect(throws: IngestError.self) { try parser.parse(bytes: bytes, into: EventLog()) }
    }

    @Test("The error is at the byte, whatever the chunk size", arguments: [1, 2, 3, 7, 64, 4096, defaultChunkSize])
    func positionIndependentOfChunks(chunkSize: Int) throws {
        let bytes = Self.document(records: 3)
        let error = try #require(failure(bytes, parser: LibXML2Parser(chunkSize: chunkSize)))
        #expect(error.kind == .data)
        // Line 3 + 3 records; `<a><v>x` is 7 characters.
        #expect(error.position?.line == 6, "\(error)")
        #expect(error.position?.column == 8, "\(error)")
        #expect(error.message.contains("\"CP932\" does not define"), "\(error)")
        let expat = try #require(failure(bytes, parser: ExpatParser(chunkSize: chunkSize)))
        #expect(
            expat.position?.line == error.position?.line && expat.position?.column == error.position?.column,
            "both parsers place it alike: \(expat) / \(error)")
    }

    @Test("An undefined byte far into the input, past the first chunks")
    func farIntoTheInput() throws {
        let bytes = Self.document(records: 30_000)
        #expect(bytes.count > 2 * defaultChunkSize)
        let error = try #require(failure(bytes, parser: LibXML2Parser()))
        #expect(error.position?.line == 30_003, "\(error)")
        #expect(error.position?.column == 8, "\(error)")
    }

    @Test("Records before the byte are delivered, none after it")
    func nothingAfterTheByte() throws {
        let log = EventLog()
        #expect(throws: IngestError.self) {
            try LibXML2Parser(chunkSize: 5).parse(bytes: Self.document(records: 2), into: log)
        }
        #expect(!log.events.contains("after"), "\(log.events)")
        #expect(!log.events.contains("y"), "\(log.events)")
    }

    @Test("A push parser fed after the error throws the same error again")
    func stickyFailure() throws {
        let parser = try LibXML2Parser().makePushParser(receiver: EventLog(), displayName: "doc.xml")
        let first = #expect(throws: IngestError.self) { try parser.feed(Self.document(records: 1)) }
        let again = #expect(throws: IngestError.self) { try parser.finish() }
        #expect(first?.message == again?.message)
        #expect(again?.file == "doc.xml")
    }
}
