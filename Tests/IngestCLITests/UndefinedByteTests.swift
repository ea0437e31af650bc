import Foundation
import Testing

/// A byte the declared encoding does not define stops the run with 65 and the
/// position of that byte, whichever parser reads the document, and nothing of
/// libxml2's own printing reaches standard error (issue 15, item 3: libxml2 used to
/// print its messages and exit 0 with the records before the byte).
@Suite("Bytes the declared encoding does not define")
struct UndefinedByteTests {
    /// An encoding, a character it defines (its bytes), and bytes it does not.
    struct Case: CustomStringConvertible, Sendable {
        var encoding: String
        var defined: [UInt8]
        var undefined: [UInt8]
        /// Whether Expat reads the encoding at all (GB18030 it refuses by name).
        var expat = true
        var description: String { encoding }
    }

    static let cases: [Case] = [
        Case(encoding: "CP932", defined: [0x82, 0xA0], undefined: [0xA0, 0x80]),  // あ, then an unassigned byte pair
        Case(encoding: "Shift_JIS", defined: [0x82, 0xA0], undefined: [0x85, 0x40]),
        Case(encoding: "CP949", defined: [0xB0, 0xA1], undefined: [0xFF, 0xFF]),  // 가
        Case(encoding: "EUC-KR", defined: [0xB0, 0xA1], undefined: [0xFF, 0xFE]),
        Case(encoding: "TIS-620", defined: [0xA1], undefined: [0xDB]),  // ก, then a hole in the table
        Case(encoding: "GB18030", defined: [0xB0, 0xA1], undefined: [0x80], expat: false),  // 啊, then a lone 0x80
        Case(encoding: "windows-1253", defined: [0xE1], undefined: [0xAA])  // α; 0x81 is U+0081 in windows-1252
    ]

    /// Four records; the third holds the undefined bytes after a defined character.
    static func document(_ testCase: Case) -> Data {
        var bytes = Data("<?xml version=\"1.0\" encoding=\"\(testCase.encoding)\"?>\n".utf8)
        bytes += Data("<r><a><v>one</v></a><a><v>two</v></a><a><v>".utf8)
        bytes += Data(testCase.defined) + Data(" ".utf8) + Data(testCase.undefined)
        bytes += Data(" x</v></a><a><v>four</v></a></r>\n".utf8)
        return bytes
    }

    /// Line 2, after `<r><a><v>one</v></a><a><v>two</v></a><a><v>`, one character and a space.
    static let column = "<r><a><v>one</v></a><a><v>two</v></a><a><v>".count + 2 + 1

    static var runs: [(Case, String)] {
        cases.flatMap { testCase in (testCase.expat ? ["expat", "libxml2"] : ["libxml2"]).map { (testCase, $0) } }
    }

    @Test("65 at the byte's line and column; the previous output untouched; no raw libxml2 output", arguments: runs)
    func undefinedByte(_ testCase: Case, parser: String) throws {
        let box = try Sandbox()
        try box.write("doc.xml", Self.document(testCase))
        try box.write("doc.ndjson", "previous\n")

        let result = try box.run(["doc.xml", "--parser", parser, "--to", "ndjson", "--replace"])

        #expect(result.status == 65, "\(result)")
        #expect(result.stderrLines.count == 1, "one message, nothing else: \(result)")
        #expect(result.stderr.hasPrefix("ingest: doc.xml:2:\(Self.column): "), "\(result)")
        for raw in ["encoding error", "I/O error", "xmlParseChunk", "input conversion failed"] {
            #expect(!result.stderr.contains(raw), "libxml2's own printing leaked: \(result)")
        }
        if parser == "libxml2" {
            #expect(result.stderr.contains("\"\(testCase.encoding)\" does not define"), "\(result)")
        }
        #expect(try box.contents("doc.ndjson") == Data("previous\n".utf8))
        #expect(try box.temporaryLeftovers().isEmpty)
    }

    @Test("The same document without the undefined bytes imports all four records", arguments: runs)
    func controlWithoutTheByte(_ testCase: Case, parser: String) throws {
        let box = try Sandbox()
        var good = testCase
        good.undefined = []
        try box.write("doc.xml", Self.document(good))

        let result = try box.run(["doc.xml", "--parser", parser, "--to", "ndjson", "--out", "-", "-q"])

        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.split(separator: UInt8(ascii: "\n")).count == 4, "\(result)")
        #expect(result.stderr.isEmpty, "\(result)")
    }
}
