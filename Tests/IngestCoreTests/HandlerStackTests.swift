import Testing
@testable import IngestCore
import IngestTesting
import IngestTestSupport

/// Logs what a handler hears, and hands out children that log into the same list.
final class LoggingHandler: ElementHandler {
    let label: String
    let log: Log
    var childrenToSkip: Set<String> = []
    var failOn: String?

    final class Log { var lines: [String] = [] }

    init(_ label: String, log: Log) {
        self.label = label
        self.log = log
    }

    func didStart(_ element: ElementStart) throws {
        log.lines.append("\(label) start \(element.name) depth \(element.depth)")
        if element.name.qualified == failOn { throw IngestError(.data, "refusing <\(element.name)>") }
    }

    func handler(forChild element: ElementStart) throws -> (any ElementHandler)? {
        if childrenToSkip.contains(element.name.qualified) { return nil }
        let child = LoggingHandler(element.name.qualified, log: log)
        child.failOn = failOn
        return child
    }

    func didFinish(child: any ElementHandler, element: ElementEnd) throws {
        log.lines.append(
            "\(label) finished \((child as! LoggingHandler).label) text \(element.text.string.debugDescription)")
    }

    func didEnd(_ element: ElementEnd) throws {
        log.lines.append("\(label) end \(element.name) children \(element.hadChildElements)")
    }
}

@Suite struct HandlerStackTests {
    @Test func swapsToTheChildAndBackToTheParent() throws {
        let log = LoggingHandler.Log()
        let harness = HandlerHarness(root: LoggingHandler("root", log: log))
        try harness.start("a")
        try harness.start("b")
        try harness.element("c", text: "x")
        try harness.end("b")
        try harness.end("a")
        #expect(
            log.lines == [
                "root start a depth 1",
                "b start b depth 2",
                "c start c depth 3",
                "c end c children false",
                "b finished c text \"x\"",
                "b end b children true",
                "root finished b text \"\"",
                "root end a children true"
            ])
    }

    @Test func textInPiecesIsAccumulatedForTheElement() throws {
        let log = LoggingHandler.Log()
        let harness = HandlerHarness(root: LoggingHandler("root", log: log))
        try harness.start("a")
        try harness.start("b")
        for piece in ["Zo", "ë", " & ", "co"] { try harness.text(piece) }
        try harness.end("b")
        try harness.end("a")
        #expect(log.lines.contains("root finished b text \"Zoë & co\""))
    }

    @Test func textBufferIsFreshForEachElement() throws {
        let log = LoggingHandler.Log()
        let harness = HandlerHarness(root: LoggingHandler("root", log: log))
        try harness.start("a")
        try harness.element("b", text: "first, longer")
        try harness.element("b", text: "2nd")
        try harness.end("a")
        #expect(
            log.lines.filter { $0.hasPrefix("root finished") } == [
                "root finished b text \"first, longer\"",
                "root finished b text \"2nd\""
            ])
    }

    @Test func aSkippedChildAndItsSubtreeReachNoHandler() throws {
        let log = LoggingHandler.Log()
        let root = LoggingHandler("root", log: log)
        root.childrenToSkip = ["skip"]
        let harness = HandlerHarness(root: root)
        try harness.start("a")
        try harness.start("skip")
        try harness.element("inner", text: "hidden")
        try harness.end("skip")
        try harness.element("kept", text: "v")
        try harness.end("a")
        #expect(!log.lines.contains { $0.contains("inner") || $0.contains("hidden") })
        #expect(log.lines.contains("root finished kept text \"v\""))
    }

    @Test func aHandlerErrorStopsWithThePositionOfItsEvent() throws {
        let log = LoggingHandler.Log()
        let root = LoggingHandler("root", log: log)
        root.failOn = "bad"
        let harness = HandlerHarness(root: root)
        try harness.start("a")  // line 2
        try harness.start("ok")  // line 3
        try harness.end("ok")  // line 4
        let error = #expect(throws: IngestError.self) { try harness.start("bad") }  // line 5
        #expect(error?.position?.line == 5)
        #expect(error?.kind == .data)
        #expect(error?.description == "5:1: refusing <bad>")
    }

    @Test func nestingDeeperThanTheLimitIsAnError() throws {
        let harness = HandlerHarness(root: LoggingHandler("root", log: .init()), limits: ParseLimits(maxDepth: 3))
        try harness.start("a")
        try harness.start("b")
        try harness.start("c")
        let error = #expect(throws: IngestError.self) { try harness.start("d") }
        #expect(error?.message.contains("deeper than 3") == true)
    }

    @Test func textLongerThanTheLimitIsAnError() throws {
        let harness = HandlerHarness(root: LoggingHandler("root", log: .init()), limits: ParseLimits(maxTextBytes: 10))
        try harness.start("a")
        try harness.text("12345")
        try harness.text("67890")
        let error = #expect(throws: IngestError.self) { try harness.text("!") }
        #expect(error?.message.contains("exceeds 10 bytes") == true)
    }

    @Test func aSecondDocumentElementIsAnError() throws {
        let harness = HandlerHarness(root: LoggingHandler("root", log: .init()))
        try harness.start("a")
        try harness.end("a")
        #expect(throws: IngestError.self) { try harness.start("b") }
    }
}
