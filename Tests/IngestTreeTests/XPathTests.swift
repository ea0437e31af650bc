import Testing
@testable import IngestTree
@testable import IngestCore
import IngestTesting
import IngestTestSupport

@Suite struct XPathTests {
    static let atom = """
        <feed xmlns="http://www.w3.org/2005/Atom" xmlns:dc="http://purl.org/dc/elements/1.1/">
          <entry id="1"><title>One</title><dc:creator>Ann</dc:creator></entry>
          <entry id="2"><title>Two</title></entry>
        </feed>
        """
    static let atomURI = "http://www.w3.org/2005/Atom"

    @Test func selectsOnePersonByPredicate() throws {
        let tree = try XMLTree(contentsOf: folksURL.path)
        let found = try tree.select("//person[lastName='Doright']")
        #expect(found.count == 1)
        #expect(found.first?.children.map(\.text) == ["Dudley", "Doright"])
        #expect(try tree.select("//person").count == 3)
        #expect(try tree.select("//nobody") == [])
    }

    @Test func evaluatesNumbersStringsAndBooleans() throws {
        let tree = try XMLTree(contentsOf: folksURL.path)
        #expect(try tree.evaluate("count(//person)") == .number(3))
        #expect(try tree.evaluate("string(//person[2]/lastName)") == .string("Whiplash"))
        #expect(try tree.evaluate("count(//person) > 2") == .boolean(true))
        #expect(XMLTree.XPathValue.number(3).kindDescription == "a number (3)")
    }

    @Test func relativeExpressionsStartAtTheElement() throws {
        let tree = try XMLTree(contentsOf: folksURL.path)
        let matt = try #require(tree.root.children.first)
        #expect(try matt.select("lastName").map(\.text) == ["Neuburg"])
        #expect(try matt.evaluate("string(firstName)") == .string("Matt"))
        #expect(try tree.select("people/person").count == 3, "the document is the context of a tree's expression")
    }

    @Test func prefixesAreBoundByTheCaller() throws {
        let tree = try XMLTree(bytes: Array(Self.atom.utf8))
        #expect(try tree.select("//entry") == [], "XPath 1.0 has no default namespace")
        let entries = try tree.select("//a:entry", namespaces: ["a": Self.atomURI])
        #expect(entries.map { $0.attribute("id") } == ["1", "2"])
        let creators = try tree.select(
            "//a:entry[dc:creator]/a:title",
            namespaces: ["a": Self.atomURI, "dc": "http://purl.org/dc/elements/1.1/"])
        #expect(creators.map(\.text) == ["One"])
    }

    @Test func anUnboundPrefixIsAUsageErrorNamingIt() throws {
        let tree = try XMLTree(bytes: Array(Self.atom.utf8))
        let error = #expect(throws: IngestError.self) {
            try tree.select("//a:entry[dc:creator]", namespaces: ["a": Self.atomURI])
        }
        #expect(error?.kind == .usage)
        #expect(error?.message.contains("namespace prefix dc") == true, "\(String(describing: error))")
    }

    @Test func anInvalidExpressionIsAUsageErrorSayingWhere() throws {
        let tree = try XMLTree(contentsOf: folksURL.path)
        let error = #expect(throws: IngestError.self) { try tree.select("//person[") }
        #expect(error?.kind == .usage)
        #expect(
            error?.message.hasPrefix("invalid XPath expression \"//person[\"") == true, "\(String(describing: error))")
        #expect(error?.message.contains("at character") == true)
    }

    @Test func anUnknownFunctionIsAUsageErrorAtEvaluation() throws {
        let tree = try XMLTree(contentsOf: folksURL.path)
        let error = #expect(throws: IngestError.self) { try tree.select("//person[shout(lastName)]") }
        #expect(error?.kind == .usage)
        #expect(
            error?.message
                == "XPath expression \"//person[shout(lastName)]\" cannot be evaluated: Unregistered function",
            "\(String(describing: error))")
    }

    @Test func selectingNonElementsSaysWhatCameBack() throws {
        let tree = try XMLTree(bytes: Array(#"<r><e id="1">t</e></r>"#.utf8))
        guard case .nodes(let nodes) = try tree.evaluate("//@id") else {
            Issue.record("//@id is a node set")
            return
        }
        #expect(nodes.map(\.kindDescription) == ["an attribute (id)"])
        let attribute = #expect(throws: IngestError.self) { try tree.select("//@id") }
        #expect(
            attribute?.message.contains("gives an attribute (id), not elements") == true,
            "\(String(describing: attribute))")
        let number = #expect(throws: IngestError.self) { try tree.select("count(//e)") }
        #expect(number?.message.contains("gives a number (1)") == true, "\(String(describing: number))")
        #expect(try tree.evaluate("//text()") == .nodes([.text("t")]))
        #expect(try tree.evaluate("/") == .nodes([.document]))
        guard case .nodes(let namespaces) = try tree.evaluate("/r/namespace::*") else {
            Issue.record("namespace::* is a node set")
            return
        }
        #expect(namespaces == [.namespace(prefix: "xml", uri: "http://www.w3.org/XML/1998/namespace")])
    }

    @Test func prefixesAreFoundOutsideLiteralsAndAxes() {
        #expect(XMLTree.prefixes(in: "//a:b[c:d='x:y']/child::e/f:*") == ["a", "c", "f"])
        #expect(XMLTree.prefixes(in: "//person[lastName='Doright']") == [])
    }
}
