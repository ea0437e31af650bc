import Testing

@testable import IngestCore

@Suite("JSONValue.prettyText: indented for people, bounded for deep values")
struct JSONValuePrettyTests {
    @Test("shallow values are indented two spaces a level, flat ones kept on a line")
    func indented() {
        let value = JSONValue.object([
            ("a", .array([.number("1"), .number("2")])),
            ("b", .object([("c", .array([.object([("d", .string("e"))])]))]))
        ])
        #expect(
            value.prettyText() == """
                {
                  "a": [1, 2],
                  "b": {
                    "c": [
                      {"d": "e"}
                    ]
                  }
                }
                """)
    }

    @Test("what is nested deeper than the deepest indent is written compact: output linear in depth, same value")
    func deep() throws {
        func nested(_ depth: Int) -> JSONValue {
            var value = JSONValue.array([.string("x"), .number("1")])
            for _ in 0..<depth { value = .array([value, .string("y")]) }
            return value
        }
        let levels = JSONValue.deepestPrettyIndent / 2
        let shallow = nested(levels - 2).prettyText()
        #expect(!shallow.contains("[["))
        #expect(Self.indents(shallow).max()! > JSONValue.deepestPrettyIndent - 8)

        let small = nested(200).prettyText()
        let large = nested(800).prettyText()
        #expect(try JSONValue(parsing: large) == nested(800))
        // An item's line is indented two more than its array before it is written compact.
        #expect(Self.indents(large).allSatisfy { $0 <= JSONValue.deepestPrettyIndent + 2 })
        #expect(large.contains("[[[\""))
        // Four times the depth: about four times the text, not sixteen.
        #expect(large.utf8.count < 5 * small.utf8.count, "\(small.utf8.count) -> \(large.utf8.count)")
    }

    /// The spaces each line of `text` starts with.
    private static func indents(_ text: String) -> [Int] {
        Array(text.utf8).split(separator: 0x0A).map { line in line.prefix { $0 == 0x20 }.count }
    }
}
