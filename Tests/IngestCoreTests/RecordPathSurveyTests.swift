import Foundation
import Testing
@testable import IngestCore
@testable import IngestParsers
import IngestTestSupport

/// The error a mapping of `xml` (or JSON) at `records` ends with, or nil.
private func failure(_ run: () throws -> Any) -> IngestError? {
    do {
        _ = try run()
        return nil
    } catch {
        return error as? IngestError
    }
}

/// A record path that matches no record fails, naming the paths the document's
/// records are at (issue 15, item 1).
@Suite("Record paths that match nothing")
struct RecordPathSurveyTests {
    static let rss = """
        <rss><channel><title>T</title><link>L</link>
        <item><title>1</title><category>a</category><category>b</category></item>
        <item><title>2</title></item><item><title>3</title></item></channel></rss>
        """

    @Test(
        "A typo in the record step: .data, suggesting the path to the records",
        arguments: [
            ("people/persn", "no record matches the record path people/persn: <people> holds no <persn>"),
            ("peple/person", "the document element is <people>, but the record path peple/person starts at <peple>"),
            ("people/x/person", "no element matches the record path people/x/person")
        ])
    func typo(path: String, message: String) throws {
        let xml = try String(contentsOf: folksURL, encoding: .utf8)
        let error = try #require(failure { try mapXML(xml, records: path) })
        #expect(error.kind == .data)
        #expect(error.message == message)
        #expect(error.reason == .recordPathMatchedNothing(path, suggestions: ["people/person"]))
    }

    @Test("The records' parent is there but holds no record: .data (the check once looked for the parent only)")
    func parentWithoutRecords() throws {
        let error = try #require(
            failure { try mapXML("<people><title>none today</title></people>", records: "people/person") })
        #expect(error.kind == .data)
        #expect(error.reason == .recordPathMatchedNothing("people/person", suggestions: ["people/title"]))
        let empty = try #require(failure { try mapXML("<people/>", records: "people/person") })
        #expect(empty.reason == .recordPathMatchedNothing("people/person", suggestions: []))
    }

    @Test("RSS: the closest path first, then the most frequent")
    func rssRanking() throws {
        let error = try #require(failure { try mapXML(Self.rss, records: "rss/channel/itme") })
        let reason = try #require(error.reason)
        #expect(reason.code == .recordPathMatchedNothing)
        #expect(reason.paths == ["rss/channel/itme"])
        #expect(reason.suggestions == ["rss/channel/item", "rss/channel", "rss/channel/item/category"])
    }

    @Test("At equal distance the more frequent path comes first")
    func frequencyBreaksTies() throws {
        let xml = "<r>" + String(repeating: "<x/>", count: 3) + String(repeating: "<y/>", count: 10) + "</r>"
        let error = try #require(failure { try mapXML(xml, records: "r/z") })
        #expect(error.reason == .recordPathMatchedNothing("r/z", suggestions: ["r/y", "r/x"]))
        let closer = try #require(failure { try mapXML(xml, records: "r/xx") })
        #expect(closer.reason == .recordPathMatchedNothing("r/xx", suggestions: ["r/x", "r/y"]))
    }

    @Test("Repeats that are not next to each other count too")
    func interleavedRepeats() throws {
        let xml = "<a><b><c/><d/><c/></b></a>"
        let error = try #require(failure { try mapXML(xml, records: "a/b/e") })
        #expect(error.reason == .recordPathMatchedNothing("a/b/e", suggestions: ["a/b/c", "a/b"]))
    }

    @Test("JSON: paths below the top-level value, array items as item")
    func json() throws {
        let folks = try String(contentsOf: packageRoot.appendingPathComponent("Samples/folks.json"), encoding: .utf8)
        let error = try #require(failure { try mapJSON(folks, name: "folks", records: "people/persn") })
        #expect(error.kind == .data)
        #expect(error.reason == .recordPathMatchedNothing("people/persn", suggestions: ["people/item"]))
        let array = try #require(failure { try mapJSON(#"[{"a": 1}, {"a": 2}]"#, records: "items/item") })
        #expect(array.reason == .recordPathMatchedNothing("items/item", suggestions: ["item"]))
    }

    @Test("A path that matches stops the survey at the first record: nothing is held")
    func matchStopsSurvey() throws {
        let sink = CollectingSink()
        let mapping = AutomaticDocumentMapping(recordPath: try RecordPath("people/person"), sink: sink)
        let stack = try HandlerStack(mapping: mapping)
        try ExpatParser().parse(bytes: Array(try String(contentsOf: folksURL, encoding: .utf8).utf8), into: stack)
        try mapping.checkMatched()
        #expect(sink.records.count == 3)
        #expect(mapping.survey?.isFinished == true)
        #expect(mapping.survey?.notedPathCount == 0)
        #expect(stack.survey == nil, "the stack lets go of a finished survey")
    }

    @Test("Memory stays bounded: at most maxPaths distinct paths, none deeper than maxDepth")
    func bounded() throws {
        let survey = RecordPathSurvey(maxPaths: 50, maxDepth: 6)
        let names = NameTable()
        // 10 000 distinct children, each repeated: only the first 49 (and the root) are noted.
        try survey.didStart(names.intern("r"), depth: 1)
        for index in 0..<10_000 {
            for _ in 0..<2 {
                try survey.didStart(names.intern("e\(index)"), depth: 2)
                survey.didEnd(depth: 2)
            }
        }
        survey.didEnd(depth: 1)
        #expect(survey.notedPathCount == 50)
        #expect(survey.suggestions(for: ["r/e1"], format: .xml, limit: 3) == ["r/e0", "r/e10", "r/e11"])

        // A chain 40 deep with a repetition at 30: nothing below depth 6 is noted.
        let deep = RecordPathSurvey(maxPaths: 100, maxDepth: 6)
        for depth in 1...30 { try deep.didStart(names.intern("d"), depth: depth) }
        for _ in 0..<2 {
            try deep.didStart(names.intern("leaf"), depth: 31)
            deep.didEnd(depth: 31)
        }
        for depth in (1...30).reversed() { deep.didEnd(depth: depth) }
        #expect(deep.notedPathCount == 6)
        #expect(deep.suggestions(for: ["d/leaf"], format: .xml) == ["d/d"])
    }

    @Test("A document element that rules the path out: the parse stops after a bounded look, with suggestions")
    func mismatchStopsEarly() throws {
        var xml = "<people>\n"
        for _ in 0..<(RecordPathSurvey.elementsNotedAfterMismatch + 50_000) { xml += "<person/>\n" }
        xml += "</people>\n"
        let error = try #require(failure { try mapXML(xml, records: "peple/person") })
        #expect(error.reason == .recordPathMatchedNothing("peple/person", suggestions: ["people/person"]))
        let line = try #require(error.position?.line)
        #expect(line > 1 && line < RecordPathSurvey.elementsNotedAfterMismatch + 10, "stopped at line \(line)")
    }

    @Test(
        "Edit distance",
        arguments: [
            ("", "", 0), ("a", "", 1), ("people/persn", "people/person", 1), ("itme", "item", 2), ("Zoë", "Zoe", 1)
        ])
    func editDistance(a: String, b: String, expected: Int) {
        #expect(RecordPathSurvey.editDistance(a, b) == expected)
        #expect(RecordPathSurvey.editDistance(b, a) == expected)
    }
}
