import Testing
@testable import IngestCore
import IngestTesting
import IngestTestSupport

/// A handler that takes its leaf children whole (``ElementHandler/takesLeafChildren``)
/// and logs everything it and its children hear.
final class LeafTakingHandler: ElementHandler {
    let label: String
    let log: LoggingHandler.Log
    /// Children it declines in `take(scalar:)`, so they go through a handler.
    var declined: Set<String> = []
    /// Children it skips in `handler(forChild:)`.
    var skipped: Set<String> = []
    var receivesText: Bool { true }

    init(_ label: String, log: LoggingHandler.Log) {
        self.label = label
        self.log = log
    }

    var takesLeafChildren: Bool { true }

    func take(scalar element: ElementEnd) throws -> Bool {
        if declined.contains(element.name.qualified) { return false }
        log.lines.append(
            "\(label) took \(element.name) \(element.text.string.debugDescription) kind \(element.kind) depth \(element.depth) at \(element.startPosition.byteOffset)-\(element.position.byteOffset)"
        )
        return true
    }

    func handler(forChild element: ElementStart) throws -> (any ElementHandler)? {
        log.lines.append(
            "\(label) asked for \(element.name) depth \(element.depth) at \(element.position.byteOffset) attributes \(element.attributes.count)"
        )
        if skipped.contains(element.name.qualified) { return nil }
        return LeafTakingHandler(element.name.qualified, log: log)
    }

    func didStart(_ element: ElementStart) throws { log.lines.append("\(label) start") }
    func didReceive(text: UnsafeBufferPointer<UInt8>) throws {
        log.lines.append("\(label) text \(String(decoding: text, as: UTF8.self).debugDescription)")
    }
    func didEnd(_ element: ElementEnd) throws {
        log.lines.append("\(label) end \(element.text.string.debugDescription) children \(element.hadChildElements)")
    }
    func didFinish(child: any ElementHandler, element: ElementEnd) throws {
        log.lines.append("\(label) finished \((child as! LeafTakingHandler).label)")
    }
}

@Suite struct LeafChildrenTests {
    private func run(_ root: LeafTakingHandler, _ events: (HandlerHarness) throws -> Void) throws {
        let harness = HandlerHarness(root: root)
        try events(harness)
    }

    /// The lines of `log` that `keep` keeps, without their byte offsets (" at …").
    private func lines(of log: LoggingHandler.Log, where keep: (String) -> Bool) -> [String] {
        log.lines.filter(keep).map { $0.components(separatedBy: " at ")[0] }
    }

    @Test func leafChildrenArriveWholeWithTheirTextInPieces() throws {
        let log = LoggingHandler.Log()
        try run(LeafTakingHandler("root", log: log)) { harness in
            try harness.start("person")
            try harness.start("first")
            for piece in ["Zo", "ë"] { try harness.text(piece) }
            try harness.end("first")
            try harness.element("empty", text: "")
            try harness.end("person")
        }
        #expect(
            lines(of: log, where: { $0.hasPrefix("root took") }) == [
                "root took first \"Zoë\" kind markup depth 2",
                "root took empty \"\" kind markup depth 2"
            ])
        #expect(!log.lines.contains { $0.contains("asked for") }, "a leaf needs no handler: \(log.lines)")
    }

    @Test func aChildWithAttributesGoesThroughAHandler() throws {
        let log = LoggingHandler.Log()
        try run(LeafTakingHandler("root", log: log)) { harness in
            try harness.start("person")
            try harness.start("name", attributes: ["lang": "en"])
            try harness.text("Ann")
            try harness.end("name")
            try harness.end("person")
        }
        #expect(log.lines.contains { $0.hasPrefix("root asked for name depth 2") && $0.hasSuffix("attributes 1") })
        #expect(log.lines.contains("name text \"Ann\""))
        #expect(log.lines.contains("name end \"Ann\" children false"))
        #expect(log.lines.contains("root finished name"))
        #expect(!log.lines.contains { $0.hasPrefix("root took") })
    }

    @Test func aChildThatTurnsOutToHaveChildrenGetsAHandlerWithItsTextSoFar() throws {
        let log = LoggingHandler.Log()
        try run(LeafTakingHandler("root", log: log)) { harness in
            try harness.start("person")
            try harness.start("address")
            try harness.text("before ")
            try harness.element("city", text: "Oslo")
            try harness.text(" after")
            try harness.end("address")
            try harness.end("person")
        }
        #expect(
            lines(of: log, where: { !$0.hasPrefix("root start") }) == [
                "root asked for address depth 2",
                "address start",
                "address text \"before \"",
                "address took city \"Oslo\" kind markup depth 3",
                "address text \" after\"",
                "address end \"before  after\" children true",
                "root finished address",
                "root end \"\" children true"
            ])
    }

    @Test func aDeclinedLeafGoesThroughAHandlerAfterAll() throws {
        let log = LoggingHandler.Log()
        let root = LeafTakingHandler("root", log: log)
        root.declined = ["note"]
        try run(root) { harness in
            try harness.start("person")
            try harness.element("note", text: "hi")
            try harness.end("person")
        }
        #expect(
            lines(of: log, where: { !$0.hasPrefix("root start") && !$0.hasPrefix("root end") }) == [
                "root asked for note depth 2",
                "note start",
                "note text \"hi\"",
                "note end \"hi\" children false",
                "root finished note"
            ])
    }

    @Test func aSkippedNonLeafTakesItsWholeSubtreeWithIt() throws {
        let log = LoggingHandler.Log()
        let root = LeafTakingHandler("root", log: log)
        root.skipped = ["secret"]
        try run(root) { harness in
            try harness.start("person")
            try harness.start("secret")
            try harness.text("x")
            try harness.start("inner")
            try harness.element("deeper", text: "y")
            try harness.end("inner")
            try harness.end("secret")
            try harness.element("name", text: "Ann")
            try harness.end("person")
        }
        #expect(log.lines.contains { $0.hasPrefix("root asked for secret") })
        #expect(
            !log.lines.contains { $0.contains("inner") || $0.contains("deeper") || $0.hasPrefix("secret") },
            "nothing under a skipped element reaches a handler: \(log.lines)")
        #expect(
            log.lines.contains { $0.hasPrefix("root took name \"Ann\"") },
            "the next sibling is read again: \(log.lines)")
        #expect(log.lines.last == "root end \"\" children true")
    }

    @Test func nestingPastTheStacksFirstCapacityKeepsEveryHandler() throws {
        // 64 frames are allocated at first; 200 levels make the stack grow twice, both
        // on a pending leaf that turns out to have a child and on a handler's own push.
        let log = LoggingHandler.Log()
        let depth = 200
        try run(LeafTakingHandler("root", log: log)) { harness in
            for level in 0..<depth { try harness.start("e\(level)") }
            try harness.text("deep")
            for level in (0..<depth).reversed() { try harness.end("e\(level)") }
        }
        #expect(
            log.lines.contains { $0.hasPrefix("e197 took e199 \"deep\"") || $0.hasPrefix("e198 took e199 \"deep\"") })
        #expect(
            log.lines.filter { $0.hasSuffix(" start") }.count == depth - 1, "every element but the leaf got a handler")
        #expect(log.lines.last == "root end \"\" children true")
    }

    @Test(arguments: [3, 7, defaultChunkSize])
    func theAutomaticMappingReadsEachKindOfChildTheSameInAnyChunking(chunkSize: Int) throws {
        // A leaf, a repeated leaf, a child with an attribute, a child with children and
        // text around them: each takes a different path through the stack, and tiny
        // chunks split their text into pieces.
        let xml =
            #"<people><person id="1"><first>Ann Zoë</first><tag>a</tag><tag>b</tag>"#
            + #"<name lang="en">Ann Lee</name><address>at <city>Oslo</city><zip>0150</zip></address>"#
            + #"<empty/></person></people>"#
        let sink = try mapXML(xml, chunkSize: chunkSize)
        let row = try #require(sink.records.first)
        #expect(sink.records.count == 1)
        #expect(row.order == ["id", "first", "tag", "name", "address", "empty"])
        #expect(row.fields["first"] == .text("Ann Zoë"))
        #expect(row.fields["tag"] == .json(#"["a","b"]"#, .array))
        #expect(row.fields["name"] == .json(##"{"@lang":"en","#text":"Ann Lee"}"##, .object))
        #expect(row.fields["address"] == .json(##"{"city":"Oslo","zip":"0150","#text":"at "}"##, .object))
        #expect(row.fields["empty"] == .text(""))
    }
}
