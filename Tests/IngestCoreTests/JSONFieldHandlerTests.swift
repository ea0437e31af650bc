import Foundation
import Testing
@testable import IngestCore
@testable import IngestParsers
import IngestTesting
import IngestTestSupport

/// The automatic mapping writes nested fields as JSON bytes directly
/// (`JSONFieldHandler`); ``ElementTreeHandler`` builds the same values as trees.
/// Both must give the same JSON, byte for byte, on every shape.
@Suite struct JSONFieldHandlerTests {
    /// The JSON ElementTreeHandler gives for the first child of the first record.
    func treeJSON(_ xml: String) throws -> String {
        final class FirstField: ElementHandler {
            let tree = ElementTreeHandler()
            var json: String?
            func handler(forChild element: ElementStart) throws -> (any ElementHandler)? { Record() }
            final class Record: ElementHandler {
                let tree = ElementTreeHandler()
                var json: String?
                func handler(forChild element: ElementStart) throws -> (any ElementHandler)? {
                    json == nil ? tree : nil
                }
                func didFinish(child: any ElementHandler, element: ElementEnd) throws {
                    json = tree.value(of: element).serialized
                }
            }
            func didFinish(child: any ElementHandler, element: ElementEnd) throws {
                if json == nil { json = (child as! Record).json }
            }
        }
        let root = FirstField()
        try ExpatParser().parse(bytes: Array(xml.utf8), into: HandlerStack(root: root))
        return try #require(root.json)
    }

    static let shapes: [String] = [
        "<v><a>1</a><a>2</a></v>",  // a list
        "<v><a>1</a></v>",  // a one-item list
        "<v><a>1</a><b>2</b><a>3</a></v>",  // repeats grouped where first met
        #"<v kind="home"><city>Zürich</city></v>"#,  // attributes as @name
        #"<v unit="USD">39.99</v>"#,  // attributes and #text
        "<v>before<b>x</b>after</v>",  // mixed text
        // nesting, escapes, empty elements
        #"<v><p q="1"><r>deep "quoted" \ text</r><r/></p><s>&#9;tab&#10;line</s></v>"#,
        "<v><a><b><c><d>deep</d></c></b></a></v>",
        "<v><x:y xmlns:x='urn:x'>n</x:y><x:y xmlns:x='urn:x'>m</x:y></v>",
        "<v><a>&#x7f;&#x1F600;</a></v>"
    ]

    @Test(arguments: shapes)
    func sameJSONAsTheTree(_ field: String) throws {
        let xml = "<r><rec>\(field)</rec></r>"
        let mapped = try mapXML(xml)
        let value = try #require(mapped.records.first?.fields["v"])
        guard case .json(let json, _) = value else {
            Issue.record("not nested: \(value)")
            return
        }
        #expect(json == (try treeJSON(xml)))
    }

    @Test("JSON input keeps its shape and types")
    func jsonInput() throws {
        let sink = CollectingSink()
        let mapping = AutomaticDocumentMapping(sink: sink)
        try JSONParser(documentName: "d", chunkSize: 3).parse(
            bytes: Array(#"[{"v":{"a":[1,"x",true,null,{"b":[]}],"c":{}}}]"#.utf8),
            into: HandlerStack(root: try mapping.makeRootHandler()))
        try mapping.checkMatched()
        #expect(sink.records.first?.fields["v"] == .json(#"{"a":[1,"x",true,null,{"b":[]}],"c":{}}"#, .object))
    }

    @Test("A record with many different nested children stays linear")
    func manyChildren() throws {
        let children = (0..<5_000).map { "<c\($0)>\($0)</c\($0)>" }.joined()
        let mapped = try mapXML("<r><rec><v a='1'>\(children)</v></rec></r>")
        guard case .json(let json, .object)? = mapped.records.first?.fields["v"] else {
            Issue.record("not an object")
            return
        }
        #expect(json.hasPrefix(#"{"@a":"1","c0":"0","c1":"1""#))
        #expect(json.hasSuffix(#""c4999":"4999"}"#))
    }
}
