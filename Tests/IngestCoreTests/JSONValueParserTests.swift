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

    @Test(
        "A byte to escape is escaped at any place in a string, which is scanned eight bytes at a time",
        arguments: [("\"", #"\""#), ("\\", #"\\"#), ("\n", #"\n"#), ("\u{1}", #"\u0001"#), ("\u{1F}", #"\u001f"#)])
    func escapesAtEveryPlace(_ special: String, _ escaped: String) {
        for length in 0..<20 {
            for place in 0...length {
                let before = String(repeating: "a", count: place), after = String(repeating: "é", count: length - place)
                var text = ""
                JSONValue.writeString(before + "\u{7F}~" + after, to: &text)
                #expect(text == "\"" + before + "\u{7F}~" + after + "\"")
                text = ""
                JSONValue.writeString(before + special + after, to: &text)
                #expect(
                    text == "\"" + before + escaped + after + "\"", "\(special.utf8.first!) at \(place) of \(length)")
            }
        }
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
