import Foundation
import Testing

/// Documents in encodings other than UTF-8 give the same, correct UTF-8 values
/// whichever parser reads them. The documents are made here with the system's
/// `iconv` command from UTF-8 text, so the bytes do not come from ingest's code.
@Suite("Encodings")
struct EncodingTests {
    static let parsers = ["expat", "libxml2"]

    /// An encoding, as a document declares it, and text that uses its repertoire.
    struct Case: CustomStringConvertible, Sendable {
        var encoding: String
        var text: String
        var description: String { encoding }
    }

    static let cases: [Case] = [
        Case(encoding: "ISO-8859-2", text: "Żółć gęślą jaźń, Łódź"),
        Case(encoding: "windows-1251", text: "Привет, мир — ёж"),
        Case(encoding: "KOI8-R", text: "Съешь же ещё этих булок"),
        Case(encoding: "Shift_JIS", text: "日本語のテキスト、ｶﾀｶﾅ"),
        Case(encoding: "EUC-JP", text: "日本語のテキスト、丂ｶﾀｶﾅ"),
        Case(encoding: "Big5", text: "中文資料與測試"),
        Case(encoding: "windows-1252", text: "Café “quoted” – €5"),
        Case(encoding: "ISO-8859-1", text: "Ærø, façade, naïve"),
        // glibc composes these two (issue 15, items 16 and 19); values compare as
        // Swift strings do, by canonical equivalence.
        Case(encoding: "windows-1255", text: "שָׁלוֹם עולם, ₪5"),
        Case(encoding: "windows-1258", text: "Tiếng Việt có dấu, ₫")
    ]

    /// The document: the text in an element and in an attribute, declared in `encoding`.
    static func document(_ text: String, declaring encoding: String) -> String {
        """
        <?xml version="1.0" encoding="\(encoding)"?>
        <people><person note="\(text)"><name>\(text)</name><n>1</n></person></people>

        """
    }

    /// `text` converted by the system's iconv.
    static func encode(_ text: String, to encoding: String) throws -> Data {
        let iconv = Process()
        iconv.executableURL = URL(fileURLWithPath: "/usr/bin/iconv")
        iconv.arguments = ["-f", "UTF-8", "-t", encoding]
        let input = Pipe(), output = Pipe()
        iconv.standardInput = input
        iconv.standardOutput = output
        try iconv.run()
        input.fileHandleForWriting.write(Data(text.utf8))
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        iconv.waitUntilExit()
        try #require(iconv.terminationStatus == 0, "iconv cannot write \(encoding)")
        return data
    }

    static func records(_ result: RunResult) throws -> [[String: Any]] {
        try String(decoding: result.stdout, as: UTF8.self).split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    @Test("Declared encodings give the right UTF-8 values", arguments: cases, parsers)
    func declaredEncoding(_ testCase: Case, parser: String) throws {
        let box = try Sandbox()
        let bytes = try Self.encode(Self.document(testCase.text, declaring: testCase.encoding), to: testCase.encoding)
        #expect(
            !bytes.elementsEqual(Data(Self.document(testCase.text, declaring: testCase.encoding).utf8)),
            "the \(testCase.encoding) bytes must differ from UTF-8, or the case tests nothing")
        try box.write("doc.xml", bytes)

        let result = try box.run(["doc.xml", "--parser", parser, "--to", "ndjson", "--out", "-", "-q"])
        #expect(result.status == 0, "\(result)")
        let records = try Self.records(result)
        #expect(records.count == 1)
        #expect(records.first?["name"] as? String == testCase.text)
        #expect(records.first?["note"] as? String == testCase.text)
        #expect(records.first?["n"] as? Int == 1)

        // The same values reach SQLite.
        let db = try box.run(["doc.xml", "--parser", parser, "--out", "doc.db", "-q"])
        #expect(db.status == 0, "\(db)")
        #expect(try box.rows("doc.db", "SELECT note, name FROM people") == [[testCase.text, testCase.text]])
    }

    /// glibc's converter composes these and reorders the marks (issue 27, item 12:
    /// libxml2 stored other code points than Expat and every browser).
    @Test(
        "Both parsers read windows-1255 and windows-1258 byte by byte: each byte its own character",
        arguments: [("windows-1255", "שָׁלוֹם"), ("windows-1258", "Việt")], parsers)
    func composingEncodings(_ encoding: (String, String), parser: String) throws {
        let (encoding, text) = encoding
        let box = try Sandbox()
        let bytes = try Self.encode(Self.document(text, declaring: encoding), to: encoding)
        try box.write("doc.xml", bytes)

        let result = try box.run(["doc.xml", "--parser", parser, "--to", "ndjson", "--out", "-", "-q"])

        #expect(result.status == 0, "\(result)")
        let value = try #require(try Self.records(result).first?["name"] as? String)
        // What each byte of the text stands for alone, by the command-line iconv.
        let textBytes = try Self.encode(text, to: encoding)
        var expected = String.UnicodeScalarView()
        for byte in textBytes {
            let one = try Self.decode(Data([byte]), from: encoding)
            expected.append(contentsOf: one.unicodeScalars)
        }
        #expect(
            Array(value.unicodeScalars) == Array(expected),
            "\(value.unicodeScalars.map { String($0.value, radix: 16) })")
        #expect(value == text, "canonically equivalent to the text")
    }

    /// `data` converted from `encoding` by the system's iconv.
    static func decode(_ data: Data, from encoding: String) throws -> String {
        let iconv = Process()
        iconv.executableURL = URL(fileURLWithPath: "/usr/bin/iconv")
        iconv.arguments = ["-f", encoding, "-t", "UTF-8"]
        let input = Pipe(), output = Pipe()
        iconv.standardInput = input
        iconv.standardOutput = output
        try iconv.run()
        input.fileHandleForWriting.write(data)
        try input.fileHandleForWriting.close()
        let result = output.fileHandleForReading.readDataToEndOfFile()
        iconv.waitUntilExit()
        try #require(iconv.terminationStatus == 0, "iconv cannot read \(encoding)")
        return String(decoding: result, as: UTF8.self)
    }

    @Test("UTF-16 with a byte order mark, either byte order", arguments: ["UTF-16LE", "UTF-16BE"], parsers)
    func utf16(_ encoding: String, parser: String) throws {
        let box = try Sandbox()
        let text = "Ünïcødé 日本 😀"
        let bom: [UInt8] = encoding == "UTF-16LE" ? [0xFF, 0xFE] : [0xFE, 0xFF]
        try box.write("doc.xml", Data(bom) + (try Self.encode(Self.document(text, declaring: "UTF-16"), to: encoding)))

        let result = try box.run(["doc.xml", "--parser", parser, "--to", "ndjson", "--out", "-", "-q"])
        #expect(result.status == 0, "\(result)")
        #expect(try Self.records(result).first?["name"] as? String == text)
    }

    @Test("An encoding nobody knows exits 65 and names the encoding", arguments: parsers)
    func unknownEncoding(parser: String) throws {
        let box = try Sandbox()
        try box.write("doc.xml", #"<?xml version="1.0" encoding="x-no-such-charset"?><a>b</a>"#)
        let result = try box.run(["doc.xml", "--parser", parser, "--out", "doc.db"])
        #expect(result.status == 65, "\(result)")
        #expect(result.stderr.contains("x-no-such-charset"), "\(result)")
        #expect(result.stderr.contains("doc.xml:1:"), "\(result)")
        #expect(!box.exists("doc.db"))
    }

    @Test("Expat refuses what its byte table cannot express, and libxml2 reads it")
    func expatRefusesStatefulEncodings() throws {
        let box = try Sandbox()
        for encoding in ["ISO-2022-JP", "GB18030"] {
            try box.write("doc.xml", try Self.encode(Self.document("日本語", declaring: encoding), to: encoding))
            let result = try box.run(["doc.xml", "--parser", "expat", "--to", "ndjson", "--out", "-"])
            #expect(result.status == 65, "\(result)")
            #expect(result.stderr.contains("\"\(encoding)\""), "\(result)")
            #expect(result.stderr.contains("--parser libxml2"), "\(result)")

            let libxml2 = try box.run(["doc.xml", "--parser", "libxml2", "--to", "ndjson", "--out", "-", "-q"])
            #expect(libxml2.status == 0, "\(libxml2)")
            #expect(try Self.records(libxml2).first?["name"] as? String == "日本語")
        }
    }

    @Test("A byte the declared encoding does not define is an error, not a guess")
    func undefinedByte() throws {
        let box = try Sandbox()
        // 0xAA is undefined in windows-1253 (0x81 in windows-1252 is U+0081).
        let head = Data(#"<?xml version="1.0" encoding="windows-1253"?><a>x"#.utf8)
        try box.write("doc.xml", head + Data([0xAA]) + Data("</a>".utf8))
        let result = try box.run(["doc.xml", "--to", "ndjson", "--out", "-"])
        #expect(result.status == 65, "\(result)")
        #expect(result.stderr.contains("doc.xml:1:"), "\(result)")
    }
}
