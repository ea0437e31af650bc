import Testing
@testable import IngestCore
import IngestTesting
import IngestTestSupport

@Suite struct JSONValueParserTests {
    @Test func roundTripsWhatTheMappingWrites() throws {
        let values: [JSONValue] = [
            .array([.string("a"), .string("b")]),
            .object([("@kind", .string("home")), ("city", .string("Zürich")), ("list", .array([]))]),
            .object([("q", .string("\"\\/\n\r\t\u{1}😀"))]),
            .array([.number("-1.5e3"), .bool(true), .bool(false), .null, .object([])])
        ]
        for value in values {
            #expect(try JSONValue(parsing: value.serialized) == value)
        }
    }

    @Test func serialisesCompactlyWithOnlyTheNecessaryEscapes() {
        let value = JSONValue.object([("q\"", .array([.string("\"\\/\n\r\t\u{1}\u{1F}é😀"), .number("1.50"), .null]))])
        #expect(value.serialized == #"{"q\"":["\"\\/\n\r\t\u0001\u001fé😀",1.50,null]}"#)
        var text = "x"
        JSONValue.writeString("a\"b", to: &text)
        #expect(text == #"x"a\"b""#)
    }

    @Test func unescapesSurrogatePairs() throws {
        #expect(try JSONValue(parsing: #"["\ud83d\ude00","\u00e9"]"#) == .array([.string("😀"), .string("é")]))
    }

    /// Nested text is read by the input's own JSON reader: what one refuses, the other does.
    @Test(arguments: ["", "[", "[1,]x", "{\"a\" 1}", "\"open", "tru", "[1] 2", #"["\ud800x"]"#, "[\"a\u{1}\"]"])
    func rejectsMalformedText(text: String) {
        #expect(throws: IngestError.self) { try JSONValue(parsing: text) }
    }
}
