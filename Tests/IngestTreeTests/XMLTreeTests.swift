import Foundation
import Testing
@testable import IngestTree
@testable import IngestCore
@testable import IngestParsers
import IngestTesting
import IngestTestSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite struct XMLTreeTests {
    func tree(_ xml: String, name: String = "test.xml") throws -> XMLTree {
        try XMLTree(bytes: Array(xml.utf8), displayName: name)
    }

    @Test func folksHasThreePeopleWithTheirNames() throws {
        let tree = try XMLTree(contentsOf: folksURL.path)
        #expect(tree.root.name == "people")
        #expect(tree.root.children.count == 3)
        let people = tree.root.children.map { person in person.children.map(\.text) }
        #expect(people == [["Matt", "Neuburg"], ["Snidely", "Whiplash"], ["Dudley", "Doright"]])
        #expect(tree.root.children[0].children.map(\.name) == ["firstName", "lastName"])
        #expect(tree.root.children[2].line == 11)
        #expect(tree.byteCount == (try Data(contentsOf: folksURL)).count)
    }

    @Test func namesCarryPrefixAndNamespace() throws {
        let tree = try tree(
            """
            <feed xmlns="urn:atom" xmlns:dc="urn:dc"><entry><dc:creator>Ann</dc:creator><plain xmlns="">x</plain></entry></feed>
            """)
        let entry = tree.root.children[0]
        #expect(tree.root.localName == "feed" && tree.root.prefix == nil && tree.root.namespaceURI == "urn:atom")
        let creator = entry.children[0]
        #expect(creator.name == "dc:creator")
        #expect(creator.localName == "creator")
        #expect(creator.prefix == "dc")
        #expect(creator.namespaceURI == "urn:dc")
        let plain = entry.children[1]
        #expect(plain.name == "plain" && plain.namespaceURI == nil, "xmlns=\"\" leaves the default namespace")
        #expect(entry.children(named: "dc:creator") == [creator])
        #expect(creator.parent == entry)
        #expect(tree.root.parent == nil)
    }

    @Test func attributesLeaveOutNamespaceDeclarations() throws {
        let tree = try tree(
            #"<r xmlns:x="urn:x" xmlns="urn:d" id="7" x:kind="a&amp;b" xml:lang="en" note="one&#10;two"/>"#)
        let attributes = tree.root.attributes
        #expect(attributes.map(\.name) == ["id", "x:kind", "xml:lang", "note"])
        #expect(attributes[0].namespaceURI == nil, "an unprefixed attribute is in no namespace")
        #expect(
            attributes[1]
                == XMLTree.TreeAttribute(
                    name: "x:kind", localName: "kind", prefix: "x",
                    namespaceURI: "urn:x", value: "a&b"))
        #expect(attributes[2].namespaceURI == "http://www.w3.org/XML/1998/namespace")
        #expect(tree.root.attribute("id") == "7")
        #expect(tree.root.attribute("kind", namespaceURI: "urn:x") == "a&b")
        #expect(tree.root.attribute("kind") == nil)
        #expect(tree.root.attribute("note") == "one\ntwo")
    }

    @Test func textExpandsInternalEntitiesAndCDATA() throws {
        let tree = try tree(
            """
            <!DOCTYPE r [<!ENTITY who "Smith &amp; <i>Sons</i>">]>
            <r><a>&who;!</a><b><![CDATA[<not markup>]]></b><c>x<!-- note --><?pi data?>y</c></r>
            """)
        let (a, b, c) = (tree.root.children[0], tree.root.children[1], tree.root.children[2])
        #expect(a.text == "Smith & Sons!")
        #expect(a.children.map(\.name) == ["i"], "elements from an internal entity are children")
        #expect(a.childNodes == [.entityReference(name: "who"), .text("!")])
        #expect(b.text == "<not markup>")
        #expect(
            c.childNodes == [
                .text("x"), .comment(" note "), .processingInstruction(target: "pi", data: "data"), .text("y")
            ])
        #expect(c.text == "xy")
    }

    @Test func anExternalEntityIsNeverLoaded() throws {
        let tree = try tree(
            """
            <!DOCTYPE r [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><r><a>&xxe;</a></r>
            """)
        let a = tree.root.children[0]
        #expect(a.text == "")
        #expect(a.childNodes == [.entityReference(name: "xxe")])
    }

    @Test func malformedInputIsADataErrorWithLineAndColumn() throws {
        let error = #expect(throws: IngestError.self) {
            try tree("<people>\n  <person>\n    <firstName>Matt</lastName>\n", name: "bad.xml")
        }
        #expect(error?.kind == .data)
        #expect(error?.file == "bad.xml")
        #expect(error?.position?.line == 3)
        #expect(error?.position?.column == 31)
        #expect(error?.message.contains("mismatch") == true, "\(String(describing: error))")
        #expect(error?.description.hasPrefix("bad.xml:3:31: ") == true, "\(String(describing: error))")
    }

    @Test func anUnboundPrefixIsAnErrorAsInExpat() {
        let error = #expect(throws: IngestError.self) { try tree("<r><x:a/></r>") }
        #expect(error?.kind == .data)
        #expect(error?.position?.line == 1)
    }

    @Test func emptyInputIsAnError() {
        let error = #expect(throws: IngestError.self) { try tree("") }
        #expect(error?.kind == .data)
    }

    @Test func aMissingFileIsAnInputError() {
        let error = #expect(throws: IngestError.self) { try XMLTree(contentsOf: "/nonexistent/folks.xml") }
        #expect(error?.kind == .input)
    }

    @Test func aFileOverTheLimitIsRefusedBeforeParsing() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("big.xml")
        // Malformed past the limit: a refusal that parsed would complain about the tag.
        try Data(("<r>" + String(repeating: "<a>x</a>", count: 100) + "</oops>").utf8).write(
            to: URL(fileURLWithPath: path))
        let error = #expect(throws: IngestError.self) { try XMLTree(contentsOf: path, maxBytes: 100) }
        #expect(error?.kind == .data)
        #expect(error?.message.contains("over the limit of 100 bytes") == true, "\(String(describing: error))")
        #expect(error?.position == nil)
        #expect(
            try XMLTree(contentsOf: folksURL.path, maxBytes: 364).root.children.count == 3, "the limit is inclusive")
    }

    @Test func aStreamOverTheLimitIsRefusedAsItPassesIt() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        let document = Array(("<r>" + String(repeating: "<a>x</a>", count: 200) + "</r>").utf8)
        #expect(document.count < 4096, "fits the pipe's buffer")
        #expect(document.withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count) } == document.count)
        close(ends[1])
        let input = InputFile(descriptor: ends[0], displayName: "<stdin>")
        #expect(input.size == nil)
        let error = #expect(throws: IngestError.self) { try XMLTree(reading: input, maxBytes: 1000) }
        #expect(error?.message.contains("larger than 1000 bytes") == true, "\(String(describing: error))")
    }

    @Test func elementsKeepTheirTreeAliveAndTheTreeGoesWithTheLast() throws {
        weak var weakTree: XMLTree?
        var person: XMLTree.Element?
        do {
            let tree = try XMLTree(contentsOf: folksURL.path)
            weakTree = tree
            person = try tree.select("//person").last
        }
        #expect(weakTree != nil, "an element holds its tree")
        #expect(person?.children.map(\.text) == ["Dudley", "Doright"], "and can still be read")
        person = nil
        #expect(weakTree == nil, "the tree (and its xmlDoc) is freed with its last element")
    }

    /// The tree reads a legacy encoding by the same WHATWG decoder as the streaming
    /// parsers: windows-1255's points one per byte, in order, not composed by glibc.
    @Test func aLegacyEncodingIsReadByTheStandardsIndex() throws {
        let bytes =
            Array(#"<?xml version="1.0" encoding="windows-1255"?><t>"#.utf8)
            + [0xF9, 0xC8, 0xD1, 0xE5, 0xC9, 0xE5, 0xCA] + Array("</t>".utf8)
        let tree = try XMLTree(bytes: bytes)
        #expect(tree.root.text.unicodeScalars.map(\.value) == [0x05E9, 0x05B8, 0x05C1, 0x05D5, 0x05B9, 0x05D5, 0x05BA])
    }
}
