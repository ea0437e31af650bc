import Foundation
import Testing
@testable import IngestCore
@testable import IngestParsers
import IngestTesting
import IngestTestSupport

/// Every event with every part a receiver is given, positions included.
final class FullLog: ParseEventReceiver {
    var events: [String] = []
    /// Throws `error` at the event of this index (counted from 0), if set.
    var failAt: Int?
    var error: any Error = IngestError(.data, "the receiver refused")
    /// Sleeps a millisecond every this many events, to make the parser wait for it.
    var pauseEvery: Int?

    private func log(_ event: String) throws {
        if events.count == failAt { throw error }
        if let pauseEvery, events.count % pauseEvery == 0 { usleep(1000) }
        events.append(event)
    }

    private static func describe(_ position: SourcePosition) -> String {
        "@\(position.line):\(position.column)+\(position.byteOffset)"
    }

    private static func describe(_ name: Name) -> String {
        "\(name.qualified){\(name.namespaceURI ?? "")}#\(name.id)"
    }

    func startElement(_ name: Name, attributes: Attributes, at position: SourcePosition) throws {
        let attributes = attributes.map { " \(Self.describe($0.name))=\($0.string)" }.joined()
        try log("<\(Self.describe(name))\(attributes)> \(Self.describe(position))")
    }

    func startElement(_ name: Name, kind: ContentKind, at position: SourcePosition) throws {
        try log("<\(Self.describe(name)) \(kind)> \(Self.describe(position))")
    }

    func text(_ bytes: UnsafeBufferPointer<UInt8>, at position: SourcePosition) throws {
        try log("'\(String(decoding: bytes, as: UTF8.self))' \(Self.describe(position))")
    }

    func endElement(_ name: Name, at position: SourcePosition) throws {
        try log("</\(Self.describe(name))> \(Self.describe(position))")
    }

    func scalar(_ name: Name, kind: ContentKind, text: UnsafeBufferPointer<UInt8>, at position: SourcePosition) throws {
        try log(
            "\(Self.describe(name)) \(kind) '\(String(decoding: text, as: UTF8.self))' \(Self.describe(position))"
        )
    }
}

@Suite struct EventRelayTests {
    /// A document of `people` records, with namespaces, attributes, entities, CDATA and
    /// long text: several tapes of events.
    static func document(people: Int, tail: String = "") -> [UInt8] {
        var xml = #"<?xml version="1.0"?><people xmlns="urn:p" xmlns:x="urn:x">"# + "\n"
        for index in 0..<people {
            xml += #"  <person id="\#(index)" x:kind="k\#(index % 7)"><name>Ann &amp; Bo \#(index)</name>"#
            xml += "<note><![CDATA[<raw> \(index)]]></note><empty/>"
            if index % 500 == 0 { xml += "<long>" + String(repeating: "é", count: 70_000) + "</long>" }
            xml += "</person>\n"
        }
        return Array((xml + tail + "</people>\n").utf8)
    }

    /// The events `parser` sends straight to a log, and what it threw.
    static func direct(_ bytes: [UInt8], _ parser: any StreamingParser, into log: FullLog = FullLog()) -> (
        [String], (any Error)?
    ) {
        do { try parser.parse(bytes: bytes, into: log) } catch { return (log.events, error) }
        return (log.events, nil)
    }

    /// The same through an ``EventRelay``.
    static func relayed(_ bytes: [UInt8], _ parser: any StreamingParser, into log: FullLog = FullLog()) -> (
        [String], (any Error)?
    ) {
        do {
            try EventRelay.overlap(into: log) { relay, _ in try parser.parse(bytes: bytes, into: relay) }
        } catch { return (log.events, error) }
        return (log.events, nil)
    }

    @Test(arguments: [XMLParserKind.expat, .libxml2])
    func theReceiverGetsTheParsersEventsInOrderWithTheirPositions(_ kind: XMLParserKind) throws {
        let bytes = Self.document(people: 5_000)
        let parser: any StreamingParser = kind == .expat ? ExpatParser() : LibXML2Parser()
        let (expected, directError) = Self.direct(bytes, parser)
        let (events, error) = Self.relayed(bytes, parser)
        #expect(directError == nil && error == nil)
        // More than `depth` tapes' worth, so the parser waited for the receiver.
        #expect(bytes.count > EventRelay.tapeBytes * (EventRelay.depth + 2))
        #expect(events.count == expected.count)
        #expect(events == expected)
    }

    @Test func jsonKindsAndScalarsArriveAsSent() throws {
        var json = "["
        for index in 0..<20_000 {
            json += #"{"n": \#(index), "s": "a\nb \#(index)", "t": true, "z": null, "l": [1, 2.5, {"d": []}]},"#
        }
        json += "{}]"
        let parser = JSONParser(documentName: "items")
        let (expected, _) = Self.direct(Array(json.utf8), parser)
        let (events, error) = Self.relayed(Array(json.utf8), parser)
        #expect(error == nil)
        #expect(expected.contains { $0.contains(" number '2.5'") })
        #expect(events == expected)
    }

    @Test func aSlowReceiverMakesTheParserWaitNotGrow() throws {
        let bytes = Self.document(people: 2_000)
        let log = FullLog()
        log.pauseEvery = 2_000
        let (expected, _) = Self.direct(bytes, ExpatParser())
        let (events, error) = Self.relayed(bytes, ExpatParser(), into: log)
        #expect(error == nil)
        #expect(events == expected)
    }

    @Test func theReceiversErrorStopsTheParseAndCarriesItsEventsPosition() throws {
        let bytes = Self.document(people: 3_000)
        let (expected, _) = Self.direct(bytes, ExpatParser())
        let failAt = expected.count * 2 / 3
        let log = FullLog()
        log.failAt = failAt
        let (events, error) = Self.relayed(bytes, ExpatParser(), into: log)
        #expect(events == Array(expected.prefix(failAt)))
        let failure = try #require(error as? IngestError)
        #expect(failure.message == "the receiver refused")
        // The position of the event refused: its log line ends with `@line:column+offset`.
        let position = try #require(failure.position)
        #expect(expected[failAt].hasSuffix("@\(position.line):\(position.column)+\(position.byteOffset)"))
    }

    @Test func anErrorThatIsNotIngestsIsThrownAsItIs() throws {
        struct Refusal: Error {}
        let log = FullLog()
        log.failAt = 10
        log.error = Refusal()
        let (events, error) = Self.relayed(Self.document(people: 100), ExpatParser(), into: log)
        #expect(events.count == 10)
        #expect(error is Refusal)
    }

    @Test func aParseErrorComesAfterEveryEventBeforeIt() throws {
        let bytes = Self.document(people: 2_000, tail: "<broken a='1' a='2'/>")
        let (expected, directError) = Self.direct(bytes, ExpatParser())
        let (events, error) = Self.relayed(bytes, ExpatParser())
        #expect(events == expected)
        let expectedFailure = try #require(directError as? IngestError)
        let failure = try #require(error as? IngestError)
        #expect(failure.description == expectedFailure.description)
        #expect(failure.position != nil)
    }

    @Test func theReceiversErrorWinsOverALaterParseError() throws {
        let bytes = Self.document(people: 2_000, tail: "<broken")
        let log = FullLog()
        log.failAt = 5_000
        let (events, error) = Self.relayed(bytes, ExpatParser(), into: log)
        #expect(events.count == 5_000)
        #expect((error as? IngestError)?.message == "the receiver refused")
    }

    @Test func theImportMapsTheSameRecordsOnAThreadOfItsOwn() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("people.xml")
        try Data(Self.document(people: 3_000)).write(to: URL(fileURLWithPath: path))
        func records(threshold: Int?) throws -> [CollectedRecord] {
            var options = Importer.Options(recordPath: try RecordPath("people/person"))
            options.mappingThreadThreshold = threshold
            let collector = RecordCollector()
            try Importer(options: options).read(try InputFile(path: path), into: collector)
            return collector.records
        }
        let alone = try records(threshold: nil)
        #expect(alone.count == 3_000)
        #expect(try records(threshold: 0) == alone)
    }

    @Test func theImportsLimitErrorIsTheSameOnAThreadOfItsOwn() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("people.xml")
        try Data(Self.document(people: 1_200)).write(to: URL(fileURLWithPath: path))
        func failure(threshold: Int?) throws -> String {
            var options = Importer.Options(
                recordPath: try RecordPath("people/person"), limits: ParseLimits(maxTextBytes: 100_000))
            options.mappingThreadThreshold = threshold
            do {
                try Importer(options: options).read(try InputFile(path: path), into: RecordCollector())
            } catch let error as IngestError {
                return error.description
            }
            return "no error"
        }
        let alone = try failure(threshold: nil)
        #expect(alone.contains("exceeds 100000 bytes"))
        #expect(alone.contains("people.xml:"))
        #expect(try failure(threshold: 0) == alone)
    }

    @Test func progressIsToldOnTheMappingsThreadAfterTheRecordsBeforeIt() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("people.xml")
        let bytes = Self.document(people: 3_000)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        var options = Importer.Options(recordPath: try RecordPath("people/person"))
        options.mappingThreadThreshold = 0
        options.chunkSize = 64 << 10
        let counter = CountingSink()
        let input = try InputFile(path: path)
        var reports: [(bytes: Int, stored: Int, records: Int)] = []
        try Importer(options: options).read(input, into: counter) { consumed in
            // Read on the thread that counts the records (ThreadSanitizer would tell).
            reports.append((consumed, input.bytesRead, counter.recordCount))
        }
        #expect(reports.count > 10)
        #expect(reports.map(\.bytes) == reports.map(\.bytes).sorted())
        #expect(reports.map(\.records) == reports.map(\.records).sorted())
        #expect(reports.last?.bytes == bytes.count)
        #expect(reports.last?.stored == bytes.count)
        // The mapping passes records on in batches, the last when the input ends.
        #expect(counter.recordCount == 3_000)
        // Told as the records come, not all at the end.
        #expect(reports.contains { $0.records > 0 && $0.records < 3_000 })
    }
}
