import Foundation
import Testing
@testable import IngestKit

/// `Importer.runTree`: XPath-selected elements through the automatic mapping.
@Suite struct TreeImportTests {
    func importTree(_ xml: String, _ expression: String, namespaces: [String: String] = [:],
                    options: Importer.Options = .init()) throws -> CollectingSink {
        let directory = try TemporaryDirectory()
        let path = directory.path("input.xml")
        try Data(xml.utf8).write(to: URL(fileURLWithPath: path))
        let sink = CollectingSink()
        try Importer(options: options).runTree(InputFile(path: path), selecting: XPathSelection(expression, namespaces: namespaces),
                                               into: sink)
        return sink
    }

    @Test func everyPersonMatchesTheStreamedRecords() throws {
        let folks = try String(contentsOfFile: folksURL.path, encoding: .utf8)
        let tree = try importTree(folks, "//person")
        let stream = try mapXML(folks, records: "people/person")
        #expect(tree.rows == stream.rows)
        #expect(tree.rows.map(\.table) == ["people", "people", "people"])
    }

    @Test func aPredicateSelectsExactlyOneRecord() throws {
        let folks = try String(contentsOfFile: folksURL.path, encoding: .utf8)
        let sink = try importTree(folks, "//person[lastName='Doright']")
        #expect(sink.rows.count == 1)
        #expect(sink.rows.first?.table == "people")
        #expect(sink.rows.first?.fields == ["firstName": .text("Dudley"), "lastName": .text("Doright")])
    }

    @Test func recordsInAnImpureParentAreNamedAfterThemselves() throws {
        let rss = """
            <rss><channel><title>News</title>
            <item><title>One</title><guid isPermaLink="false">1</guid></item>
            <item><title>Two</title><guid isPermaLink="false">2</guid></item>
            </channel></rss>
            """
        let tree = try importTree(rss, "//item")
        #expect(tree.rows == (try mapXML(rss, records: "rss/channel/item")).rows)
        #expect(tree.rows.map(\.table) == ["item", "item"])
    }

    @Test func recordsUnderParentsOfSeveralNamesAreNamedAfterThemselves() throws {
        let sink = try importTree("<r><staff><person n=\"1\"/></staff><people><person n=\"2\"/></people></r>", "//person")
        #expect(sink.rows.map(\.table) == ["person", "person"])
        #expect(sink.rows.map { $0.fields["n"] } == [.number(.init(text: "1", kind: .integer)), .number(.init(text: "2", kind: .integer))])
    }

    @Test func recordsOfSeveralNamesGetATableEach() throws {
        let sink = try importTree("<zoo><cat name=\"Tom\"/><dog name=\"Rex\"/><cat name=\"Kit\"/></zoo>", "//cat | //dog")
        #expect(sink.rows.map(\.table) == ["cat", "dog", "cat"])
    }

    @Test func namespacedRecordsKeepTheirQualifiedNames() throws {
        let xml = """
            <feed xmlns="urn:atom" xmlns:dc="urn:dc"><entry><title>One</title><dc:creator>Ann</dc:creator></entry>
            <entry><title>Two</title><dc:creator>Bo</dc:creator></entry></feed>
            """
        let sink = try importTree(xml, "//a:entry", namespaces: ["a": "urn:atom"])
        #expect(sink.rows.map(\.table) == ["feed", "feed"])
        #expect(sink.rows.first?.order == ["title", "dc:creator"])
        #expect(sink.rows == (try mapXML(xml)).rows)
    }

    @Test func theDocumentElementCanBeTheOneRecord() throws {
        let folks = try String(contentsOfFile: folksURL.path, encoding: .utf8)
        let sink = try importTree(folks, "/people")
        #expect(sink.rows.count == 1)
        #expect(sink.rows.first?.table == "people")
        #expect(sink.rows.first?.order == ["person"])
    }

    @Test func nothingSelectedIsADataErrorNamingTheFile() throws {
        let error = #expect(throws: IngestError.self) { try importTree("<r><a/></r>", "//b") }
        #expect(error?.kind == .data)
        #expect(error?.message == "no element matches --xpath //b")
        #expect(error?.file?.hasSuffix("input.xml") == true)
    }

    @Test func recordPathsAndJSONAreRefused() throws {
        let both = #expect(throws: IngestError.self) {
            try importTree("<r><a/></r>", "//a", options: .init(recordPath: try RecordPath("r/a")))
        }
        #expect(both?.kind == .usage)
        let json = #expect(throws: IngestError.self) { try importTree("<r/>", "//r", options: .init(format: .json)) }
        #expect(json?.kind == .usage)
        #expect(json?.file == nil, "a usage error is not the input's fault")
    }

    @Test func theCheckCatchesSyntaxPrefixesAndValuesBeforeReading() throws {
        try XPathSelection("//person[lastName='Doright']").check()
        try XPathSelection("//a:entry", namespaces: ["a": "urn:atom"]).check()
        for (expression, words) in [("//person[", "not a valid XPath expression"),
                                    ("//a:entry", "bind it with --ns a=URI"),
                                    ("count(//x)", "gives a number (0)")] {
            let error = #expect(throws: IngestError.self) { try XPathSelection(expression).check() }
            #expect(error?.kind == .usage)
            #expect(error?.message.contains(words) == true, "\(String(describing: error))")
        }
    }
}
