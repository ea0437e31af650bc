import Foundation
import Testing
@testable import IngestCore
import IngestTesting
import IngestTestSupport

/// Records JSON events with their kinds: `{folks`, `[people`, `firstName:string=Matt`, `}`.
final class KindLog: ParseEventReceiver {
    var events: [String] = []
    var positions: [SourcePosition] = []

    func startElement(_ name: Name, attributes: Attributes, at position: SourcePosition) throws {
        Issue.record("JSON never sends XML start events (got <\(name)>)")
    }

    func text(_ bytes: UnsafeBufferPointer<UInt8>, at position: SourcePosition) throws {
        Issue.record("JSON sends text only with scalars")
    }

    func endElement(_ name: Name, at position: SourcePosition) throws {
        events.append("/\(name.qualified)")
    }

    func startElement(_ name: Name, kind: ContentKind, at position: SourcePosition) throws {
        events.append("\(kind == .object ? "{" : "[")\(name.qualified)")
        positions.append(position)
    }

    func scalar(_ name: Name, kind: ContentKind, text: UnsafeBufferPointer<UInt8>, at position: SourcePosition) throws {
        events.append("\(name.qualified):\(kind)=\(String(decoding: text, as: UTF8.self))")
        positions.append(position)
    }
}

func jsonEvents(
    _ json: String, lines: Bool = false, chunkSize: Int = defaultChunkSize,
    limits: ParseLimits = .default
) throws -> [String] {
    try jsonEvents(bytes: Array(json.utf8), lines: lines, chunkSize: chunkSize, limits: limits)
}

func jsonEvents(
    bytes: [UInt8], lines: Bool = false, chunkSize: Int = defaultChunkSize,
    limits: ParseLimits = .default
) throws -> [String] {
    let log = KindLog()
    try JSONParser(documentName: "doc", lines: lines, limits: limits, chunkSize: chunkSize)
        .parse(bytes: bytes, into: log)
    return log.events
}

/// The error a malformed document gives.
func jsonError(_ json: String, lines: Bool = false, limits: ParseLimits = .default) -> IngestError? {
    jsonError(bytes: Array(json.utf8), lines: lines, limits: limits)
}

func jsonError(bytes: [UInt8], lines: Bool = false, limits: ParseLimits = .default) -> IngestError? {
    do {
        _ = try jsonEvents(bytes: bytes, lines: lines, limits: limits)
        return nil
    } catch let error as IngestError {
        return error
    } catch {
        Issue.record("unexpected error type: \(error)")
        return nil
    }
}

@Suite("JSON tokenizer")
struct JSONTokenizerTests {
    @Test("Objects, arrays and scalars become named elements with their kinds")
    func eventModel() throws {
        let events = try jsonEvents(#"{"people":[{"name":"Matt","age":42,"ok":true,"x":null}],"n":-1.5e3}"#)
        #expect(
            events == [
                "{doc", "[people", "{item",
                "name:string=Matt", "age:number=42", "ok:boolean=true", "x:null=",
                "/item", "/people", "n:number=-1.5e3", "/doc"
            ])
    }

    @Test("A top-level scalar is the document element")
    func topLevelScalar() throws {
        #expect(try jsonEvents(" \"hi\" ") == ["doc:string=hi"])
        #expect(try jsonEvents("0") == ["doc:number=0"])
        #expect(try jsonEvents("[]") == ["[doc", "/doc"])
    }

    @Test("Escapes, surrogate pairs and multi-byte UTF-8 decode exactly")
    func escapes() throws {
        let events = try jsonEvents(#"["a\"b\\c\/d\b\f\n\r\t", "\u00e9\u4e2d\ud83d\ude00", "é中😀", "\u0000"]"#)
        #expect(
            events == [
                "[doc", "item:string=a\"b\\c/d\u{8}\u{c}\n\r\t", "item:string=é中😀", "item:string=é中😀",
                "item:string=\u{0}", "/doc"
            ])
    }

    @Test("Any key is a name, even an empty one or one that looks like SQL")
    func keysAreData() throws {
        let events = try jsonEvents(#"{"":1,"x\"); DROP TABLE people; --":2,"A":3,"a":4}"#)
        #expect(
            events == ["{doc", ":number=1", "x\"); DROP TABLE people; --:number=2", "A:number=3", "a:number=4", "/doc"])
    }

    @Test("Split anywhere, a document gives the same events", arguments: [1, 2, 3, 5, 7, 64])
    func splitAnywhere(chunkSize: Int) throws {
        let json =
            #"{"k\u00e9y": ["str\ud83d\ude00ing", "é中😀 plain", -12.5e-3, 123456789012345678901234567890, true, false, null, {"": []}], "last": "x\\y"}"#
        let whole = try jsonEvents(json)
        #expect(try jsonEvents(json, chunkSize: chunkSize) == whole)
        #expect(whole.contains("item:number=123456789012345678901234567890"))
        #expect(whole.contains("item:string=str😀ing"))
    }

    @Test("Numbers keep their exact text")
    func numbersAsWritten() throws {
        let events = try jsonEvents(
            "[0, -0, 1.50, 1E+2, 9223372036854775808, 0.1e-400, 3.141592653589793238462643383279]")
        #expect(
            events.dropFirst().dropLast() == [
                "item:number=0", "item:number=-0", "item:number=1.50", "item:number=1E+2",
                "item:number=9223372036854775808", "item:number=0.1e-400",
                "item:number=3.141592653589793238462643383279"
            ])
    }

    @Test("Errors name line and column and say what is wrong")
    func errorPositions() throws {
        let error = try #require(jsonError("{\n  \"a\": 1,\n  \"b\": tru\n}"))
        #expect(error.kind == .data)
        #expect(error.position?.line == 3)
        #expect(error.position?.column == 11)
        #expect(error.message.contains("true"), "\(error)")

        let comma = try #require(jsonError("[1,\n2,]"))
        #expect(comma.position?.line == 2 && comma.position?.column == 3, "\(comma)")
        #expect(comma.message.contains("expected a value"), "\(comma)")

        #expect(jsonError("")?.message.contains("empty") == true)
        #expect(jsonError("[1] [2]")?.reason == .moreThanOneJSONDocument)
        #expect(jsonError("\"abc")?.message.contains("ends inside a string") == true)
        #expect(jsonError("[\"a\nb\"]")?.message.contains("control character U+000A") == true)
        #expect(jsonError("[01]")?.message.contains("leading zero") == true)
        #expect(jsonError(#"["\ud800"]"#)?.message.contains("lone surrogate") == true)
        #expect(jsonError(#"["\x"]"#)?.message.contains("invalid escape") == true)
    }

    @Test("Invalid UTF-8 is refused, whatever the chunking")
    func invalidUTF8() throws {
        for bad: [UInt8] in [[0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82], [0x80]] {
            let bytes = Array("[\"ok".utf8) + bad + Array("\"]".utf8)
            let error = jsonError(bytes: bytes)
            #expect(error?.message.contains("UTF-8") == true, "\(bad): \(String(describing: error))")
        }
    }

    @Test("A UTF-8 byte order mark is skipped; UTF-16 is refused with a hint")
    func byteOrderMarks() throws {
        #expect(try jsonEvents(bytes: [0xEF, 0xBB, 0xBF] + Array("[1]".utf8)) == ["[doc", "item:number=1", "/doc"])
        let utf16 = jsonError(bytes: [0xFF, 0xFE, 0x5B, 0x00, 0x5D, 0x00])
        #expect(utf16?.message.contains("UTF-16") == true, "\(String(describing: utf16))")
    }

    @Test("Nesting and string size are bounded")
    func limits() throws {
        let limits = ParseLimits(maxDepth: 10, maxTextBytes: 16)
        #expect(
            try jsonEvents(String(repeating: "[", count: 10) + String(repeating: "]", count: 10), limits: limits).count
                == 20)
        let deep = jsonError(String(repeating: "[", count: 11) + String(repeating: "]", count: 11), limits: limits)
        #expect(deep?.message.contains("nested deeper than 10") == true)
        let deepScalar = jsonError(
            String(repeating: "[", count: 10) + "1" + String(repeating: "]", count: 10), limits: limits)
        #expect(deepScalar?.message.contains("nested deeper than 10") == true)
        #expect(
            jsonError("[\"\(String(repeating: "x", count: 17))\"]", limits: limits)?.message.contains("longer than 16")
                == true)
        #expect(
            jsonError("[\"\(String(repeating: "\\n", count: 17))\"]", limits: limits)?.message.contains(
                "longer than 16") == true)
        // The default limit stops a hundred thousand open brackets without exhausting the stack.
        #expect(jsonError(String(repeating: "[", count: 100_000))?.message.contains("nested deeper") == true)
    }

    @Test("JSON Lines: every value is an item of one array, blank lines and concatenation allowed")
    func jsonLines() throws {
        #expect(
            try jsonEvents("{\"a\":1}\n\n{\"a\":2}{\"a\":3} 4\n", lines: true) == [
                "[doc", "{item", "a:number=1", "/item", "{item", "a:number=2", "/item",
                "{item", "a:number=3", "/item", "item:number=4", "/doc"
            ])
        #expect(try jsonEvents("", lines: true) == ["[doc", "/doc"])
        #expect(try jsonEvents("\n\n", lines: true) == ["[doc", "/doc"])
        let cut = jsonError("{\"a\":1}\n{\"a\":", lines: true)
        #expect(cut?.position?.line == 2, "\(String(describing: cut))")
    }

    @Test("Huge strings spanning many chunks are read whole")
    func hugeString() throws {
        let big = String(repeating: "abcdefghé", count: 100_000)
        let events = try jsonEvents("{\"big\":\"\(big)\\n\"}", chunkSize: 4096)
        #expect(events == ["{doc", "big:string=\(big)\n", "/doc"])
    }
}
