import Foundation
import Testing
@testable import IngestCore
@testable import IngestParsers
import IngestTestSupport

/// Both parsers decode a declared legacy encoding by the WHATWG Encoding Standard
/// (issue 27, item 12): a single-byte encoding one code point per byte by the
/// standard's index, with no composition, and a multi-byte label by the superset
/// browsers read — the same characters from Expat and libxml2.
@Suite("Encodings: the WHATWG decoders, the same in both parsers")
struct WHATWGEncodingTests {
    /// The code points each parser gives for the text of `<t>` in `bytes`.
    static func scalars(_ bytes: [UInt8], encoding: String? = nil) throws -> (expat: [UInt32], libxml2: [UInt32]) {
        let expat = EventLog()
        let parser = ExpatPushParser(receiver: expat, encoding: encoding)
        try parser.feed(bytes[...])
        try parser.finish()
        let libxml2 = EventLog()
        try LibXML2Parser(encoding: encoding).parse(bytes: bytes, into: libxml2)
        func text(_ log: EventLog) -> [UInt32] {
            log.events.count == 3 ? log.events[1].unicodeScalars.map(\.value) : []
        }
        return (text(expat), text(libxml2))
    }

    static func isEncName(_ label: String) -> Bool {
        guard let first = label.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic else { return false }
        return label.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "._-".unicodeScalars.contains($0))
        }
    }

    static func document(declaring label: String, _ body: [UInt8]) -> [UInt8] {
        Array("<?xml version=\"1.0\" encoding=\"\(label)\"?><t>".utf8) + body + Array("</t>".utf8)
    }

    /// The bytes 0x80–0xFF the encoding defines as characters XML allows, and what
    /// the index says each is.
    static func definedBytes(_ encoding: WHATWGEncoding) -> (bytes: [UInt8], scalars: [UInt32]) {
        guard case .singleByte(let index) = encoding.decoder else { return ([], []) }
        let defined = (0x80...0xFF).filter { index[$0 - 0x80] != 0 }
        return (defined.map { UInt8($0) }, defined.map { UInt32(index[$0 - 0x80]) })
    }

    @Test("Every single-byte encoding, by every label: each byte the index's code point, in both parsers")
    func everySingleByteEncoding() throws {
        #expect(WHATWGEncoding.singleByte.count == 27)
        #expect(LibXML2Encodings.inputFunctions.count == WHATWGEncoding.singleByte.count)
        var labelsChecked = 0
        for (encoding, labels) in WHATWGEncoding.labels {
            guard case .singleByte = encoding.decoder else { continue }
            let (bytes, expected) = Self.definedBytes(encoding)
            #expect(bytes.count >= 80, "\(encoding.name)")
            // Labels a declaration can carry: XML's EncName (not `866`, nor `iso_8859-2:1987`).
            for label in labels + [encoding.name.uppercased()] where Self.isEncName(label) {
                let read = try Self.scalars(Self.document(declaring: label, bytes))
                #expect(read.expat == expected, "Expat, \(label)")
                #expect(read.libxml2 == expected, "libxml2, \(label)")
                labelsChecked += 1
            }
        }
        #expect(labelsChecked > 150)
    }

    @Test("A byte the index leaves undefined is a data error in both parsers")
    func undefinedBytes() throws {
        var checked = 0
        for encoding in WHATWGEncoding.singleByte {
            guard case .singleByte(let index) = encoding.decoder else { continue }
            for byte in (0x80...0xFF) where index[byte - 0x80] == 0 {
                let bytes = Self.document(declaring: encoding.name, Array("x".utf8) + [UInt8(byte)])
                let expat = #expect(throws: IngestError.self, "\(encoding.name) 0x\(String(byte, radix: 16))") {
                    let parser = ExpatPushParser(receiver: EventLog())
                    try parser.feed(bytes[...])
                    try parser.finish()
                }
                let libxml2 = #expect(throws: IngestError.self, "\(encoding.name) 0x\(String(byte, radix: 16))") {
                    try LibXML2Parser().parse(bytes: bytes, into: EventLog())
                }
                #expect(expat?.kind == .data)
                #expect(libxml2?.kind == .data)
                checked += 1
            }
        }
        #expect(checked > 50)
    }

    @Test("Hebrew with points in windows-1255: one code point per byte, marks in their order, from both parsers")
    func hebrewWithPoints() throws {
        // שָׁלוֹם: shin, qamats, shin dot, lamed, vav, holam, final mem — as written,
        // qamats before the shin dot (glibc's converter swaps them and composes).
        let bytes: [UInt8] = [0xF9, 0xC8, 0xD1, 0xEC, 0xE5, 0xC9, 0xED]
        let expected: [UInt32] = [0x05E9, 0x05B8, 0x05C1, 0x05DC, 0x05D5, 0x05B9, 0x05DD]
        for label in ["windows-1255", "cp1255", "x-cp1255", "WINDOWS-1255"] {
            let read = try Self.scalars(Self.document(declaring: label, bytes))
            #expect(read.expat == expected, "\(label)")
            #expect(read.libxml2 == expected, "\(label)")
        }
        // As an override (an HTTP charset) too.
        let overridden = try Self.scalars(Array("<t>".utf8) + bytes + Array("</t>".utf8), encoding: "windows-1255")
        #expect(overridden.expat == expected)
        #expect(overridden.libxml2 == expected)
        // 0xCA, holam haser for vav: defined by the standard, undefined in glibc's table.
        let holam = try Self.scalars(Self.document(declaring: "windows-1255", [0xE5, 0xCA]))
        #expect(holam.expat == [0x05D5, 0x05BA])
        #expect(holam.libxml2 == [0x05D5, 0x05BA])
    }

    @Test("windows-1252's C1 bytes: 0x81 is U+0081 as the standard says; ISO-8859-1 stays Latin-1")
    func windows1252() throws {
        let read = try Self.scalars(Self.document(declaring: "windows-1252", [0x80, 0x81, 0x92]))
        #expect(read.expat == [0x20AC, 0x81, 0x2019])
        #expect(read.libxml2 == [0x20AC, 0x81, 0x2019])
        // The parsers' own ISO-8859-1 (and its aliases, left to them): 0x92 is U+0092.
        for label in ["ISO-8859-1", "latin1", "l1"] {
            let latin1 = try Self.scalars(Self.document(declaring: label, [0xE9, 0x92]))
            #expect(latin1.expat == [0xE9, 0x92], "\(label)")
            #expect(latin1.libxml2 == [0xE9, 0x92], "\(label)")
        }
        #expect(WHATWGEncoding(label: "latin1") == nil)
        #expect(WHATWGEncoding(label: " Windows-1252\n")?.name == "windows-1252")
        #expect(WHATWGEncoding(label: "tis-620")?.name == "windows-874")
        #expect(WHATWGEncoding(label: "iso-8859-8-i")?.name == "iso-8859-8")
    }

    @Test("Multi-byte labels read as browsers do: Shift_JIS as windows-31j, EUC-KR as windows-949, in both parsers")
    func multiByteSupersets() throws {
        // Shift_JIS: 0x5C is a backslash, not a yen sign; 0x8740 (①) is a NEC extension
        // that only windows-31j has.
        let sjis = try Self.scalars(Self.document(declaring: "Shift_JIS", [0x5C, 0x87, 0x40, 0x93, 0xFA]))
        #expect(sjis.expat == [0x5C, 0x2460, 0x65E5])
        #expect(sjis.libxml2 == [0x5C, 0x2460, 0x65E5])
        // EUC-KR: 0x8141 (갂) is in windows-949's extension, outside KS X 1001.
        let korean = try Self.scalars(Self.document(declaring: "euc-kr", [0x81, 0x41, 0xB0, 0xA1]))
        #expect(korean.expat == [0xAC02, 0xAC00])
        #expect(korean.libxml2 == [0xAC02, 0xAC00])
        // EUC-JP: 0xA1C1 is the fullwidth tilde, as windows and the standard read it.
        let eucJP = try Self.scalars(Self.document(declaring: "EUC-JP", [0xA1, 0xC1]))
        #expect(eucJP.expat == [0xFF5E])
        #expect(eucJP.libxml2 == [0xFF5E])
        // gb2312 is GBK: 0x8140 (丂) is outside GB 2312.
        let chinese = try Self.scalars(Self.document(declaring: "gb2312", [0x81, 0x40, 0xD6, 0xD0]))
        #expect(chinese.expat == [0x4E02, 0x4E2D])
        #expect(chinese.libxml2 == [0x4E02, 0x4E2D])
    }
}
