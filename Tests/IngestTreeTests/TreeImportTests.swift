import Foundation
import Testing
@testable import IngestTree
@testable import IngestCore
@testable import IngestParsers
import IngestTesting
import IngestTestSupport

/// `XPathReader`: XPath-selected elements through the automatic mapping.
@Suite struct TreeImportTests {
    func importTree(
        _ xml: String, _ expression: String, namespaces: [String: String] = [:],
        options: Importer.Options = .init()
    ) throws -> CollectingSink {
        let directory = try TemporaryDirectory()
        let path = directory.path("input.xml")
        try Data(xml.utf8).write(to: URL(fileURLWithPath: path))
        let sink = CollectingSink()
        try XPathReader(
            selection: XPathSelection(expression, namespaces: namespaces), limits: options.limits,
            format: options.format
        )
        .read(InputFile(path: path), into: sink)
        return sink
    }

    @Test func everyPersonMatchesTheStreamedRecords() throws {
        let folks = try String(contentsOfFile: folksURL.path, encoding: .utf8)
        let tree = try importTree(folks, "//person")
        let stream = try mapXML(folks, records: "people/person")
        #expect(tree.records == stream.records)
        #expect(tree.records.map(\.table) == ["people", "people", "people"])
    }

    @Test func aPredicateSelectsExactlyOneRecord() throws {
        let folks = try String(contentsOfFile: folksURL.path, encoding: .utf8)
        let sink = try importTree(folks, "//person[lastName='Doright']")
        #expect(sink.records.count == 1)
        #expect(sink.records.first?.table == "people")
        #expect(sink.records.first?.fields == ["firstName": .text("Dudley"), "lastName": .text("Doright")])
    }

    @Test func recordsInAnImpureParentAreNamedAfterThemselves() throws {
        let rss = """
            <rss><channel><title>News</title>
            <item><title>One</title><guid isPermaLink="false">1</guid></item>
            <item><title>Two</title><guid isPermaLink="false">2</guid></item>
            </channel></rss>
            """
        let tree = try importTree(rss, "//item")
        #expect(tree.records == (try mapXML(rss, records: "rss/channel/item")).records)
        #expect(tree.records.map(\.table) == ["item", "item"])
    }

    @Test func recordsUnderParentsOfSeveralNamesAreNamedAfterThemselves() throws {
        let sink = try importTree(
            "<r><staff><person n=\"1\"/></staff><people><person n=\"2\"/></people></r>", "//person")
        #expect(sink.records.map(\.table) == ["person", "person"])
        #expect(
            sink.records.map { $0.fields["n"] } == [
                .number(.init(text: "1", kind: .integer)), .number(.init(text: "2", kind: .integer))
            ])
    }

    @Test func recordsOfSeveralNamesGetATableEach() throws {
        let sink = try importTree(
            "<zoo><cat name=\"Tom\"/><dog name=\"Rex\"/><cat name=\"Kit\"/></zoo>", "//cat | //dog")
        #expect(sink.records.map(\.table) == ["cat", "dog", "cat"])
    }

    @Test func namespacedRecordsKeepTheirQualifiedNames() throws {
        let xml = """
            <feed xmlns="urn:atom" xmlns:dc="urn:dc"><entry><title>One</title><dc:creator>Ann</dc:creator></entry>
            <entry><title>Two</title><dc:creator>Bo</dc:creator></entry></feed>
            """
        let sink = try importTree(xml, "//a:entry", namespaces: ["a": "urn:atom"])
        #expect(sink.records.map(\.table) == ["feed", "feed"])
        #expect(sink.records.first?.order == ["title", "dc:creator"])
        #expect(sink.records == (try mapXML(xml)).records)
    }

    @Test func theDocumentElementCanBeTheOneRecord() throws {
        let folks = try String(contentsOfFile: folksURL.path, encoding: .utf8)
        let sink = try importTree(folks, "/people")
        #expect(sink.records.count == 1)
        #expect(sink.records.first?.table == "people")
        #expect(sink.records.first?.order == ["person"])
    }

    @Test func nothingSelectedIsADataErrorNamingTheFile() throws {
        let error = #expect(throws: IngestError.self) { try importTree("<r><a/></r>", "//b") }
        #expect(error?.kind == .data)
        #expect(error?.message == "no element matches the XPath expression //b")
        #expect(error?.reason == .expressionMatchedNothing("//b"))
        #expect(error?.file?.hasSuffix("input.xml") == true)
    }

    @Test func jsonIsRefused() throws {
        let json = #expect(throws: IngestError.self) { try importTree("<r/>", "//r", options: .init(format: .json)) }
        #expect(json?.kind == .usage)
        #expect(json?.file == nil, "a usage error is not the input's fault")
    }

    @Test func theCheckCatchesSyntaxPrefixesAndValuesBeforeReading() throws {
        try XPathSelection("//person[lastName='Doright']").check()
        try XPathSelection("//a:entry", namespaces: ["a": "urn:atom"]).check()
        for (expression, words) in [
            ("//person[", "not a valid XPath expression"),
            ("//a:entry", "namespace prefix a, which is not bound"),
            ("count(//x)", "gives a number (0)")
        ] {
            let error = #expect(throws: IngestError.self) { try XPathSelection(expression).check() }
            #expect(error?.kind == .usage)
            #expect(error?.message.contains(words) == true, "\(String(describing: error))")
        }
    }
}
