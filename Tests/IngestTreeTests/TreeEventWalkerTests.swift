import Testing
@testable import IngestTree
@testable import IngestCore
@testable import IngestParsers
import IngestTesting
import IngestTestSupport

@Suite struct TreeEventWalkerTests {
    static let mixed = """
        <?xml version="1.0"?>
        <!DOCTYPE catalog [<!ENTITY pub "Smith &amp; <b>Sons</b>">
          <!ATTLIST book status CDATA "new" x:flag CDATA "y" status CDATA "ignored">]>
        <catalog xmlns="urn:default" xmlns:dc="urn:dc" xmlns:x="urn:x">
          <!-- a comment --><?pi skipped?>
          <book id="1" x:kind="paper" xml:lang="en" status="old"><dc:title>One &amp; only</dc:title><note xmlns="">&pub;</note></book>
          <book id="2"><dc:title><![CDATA[<Two>]]></dc:title><empty/></book>
        </catalog>
        """

    func walk(_ xml: String) throws -> EventLog {
        let tree = try XMLTree(bytes: Array(xml.utf8))
        let log = EventLog()
        try TreeEventWalker(receiver: log).send(tree.root)
        return log
    }

    @Test func eventsAreThoseExpatSends() throws {
        let expat = EventLog()
        try ExpatParser().parse(bytes: Array(Self.mixed.utf8), into: expat)
        let tree = try walk(Self.mixed)
        #expect(tree.events == expat.events)
        #expect(tree.events.contains("<x:kind>") == false)
        #expect(tree.events[0] == "<catalog{urn:default}>")
        #expect(
            tree.events.contains("<book{urn:default} id=2 status=new x:flag=y>"),
            "DTD defaults, as Expat adds them: \(tree.events)")
    }

    @Test func namesAreInternedFromTheSameTriplets() throws {
        let tree = try XMLTree(bytes: Array(Self.mixed.utf8))
        let walker = TreeEventWalker(receiver: DiscardingReceiver())
        let title = try #require(tree.select("//dc:title", namespaces: ["dc": "urn:dc"]).first)
        let name = walker.name(of: title)
        #expect(name.qualified == "dc:title" && name.local == "title" && name.namespaceURI == "urn:dc")
        #expect(walker.name(of: tree.root).qualified == "catalog")
        #expect(walker.name(of: tree.root).namespaceURI == "urn:default")
        #expect(walker.name(of: title) === name, "interned: the same object every time")
        let note = try #require(tree.select("//note").first)
        #expect(walker.name(of: note).namespaceURI == nil)
    }

    @Test func positionsCarryTheElementsLineAndNoColumn() throws {
        let tree = try walk("<r>\n<a/>\n\n<b>x</b></r>")
        #expect(tree.positions.map(\.line) == [1, 2, 4])
        #expect(tree.positions.allSatisfy { $0.column == 0 })
        #expect(tree.positions[1].description == "2")
    }

    @Test func anExternalEntityStopsTheWalk() throws {
        let error = #expect(throws: IngestError.self) {
            try walk(#"<!DOCTYPE r [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><r><a>&xxe;</a></r>"#)
        }
        #expect(error?.kind == .data)
        #expect(
            error?.message == "external entity \"file:///etc/passwd\" refused: ingest never loads external entities")
        #expect(error?.position?.line == 1)
    }

    @Test func entityExpansionIsBounded() throws {
        // 300 references to a 100 KB entity: 30 MB of text from a 100 KB document.
        let big = String(repeating: "x", count: 100_000)
        let xml = "<!DOCTYPE r [<!ENTITY e \"\(big)\">]><r>" + String(repeating: "<a>&e;</a>", count: 300) + "</r>"
        let error = #expect(throws: IngestError.self) { try walk(xml) }
        #expect(error?.message.contains("entity expansion exceeds 100 times") == true, "\(String(describing: error))")
        // The same entity a few times is fine.
        let small = "<!DOCTYPE r [<!ENTITY e \"\(big)\">]><r><a>&e;</a><a>&e;</a></r>"
        #expect(try walk(small).events.count == 8)
    }
}
