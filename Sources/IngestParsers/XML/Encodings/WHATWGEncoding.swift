/// A legacy encoding as the WHATWG Encoding Standard reads it, found by one of
/// its labels: what both XML parsers decode a document's bytes with, so that
/// Expat and libxml2 give the same characters for the same file.
///
/// The system's converters are not the standard's. glibc's windows-1255,
/// windows-1258 and TCVN converters compose a letter with the marks after it and
/// reorder the marks, so Hebrew with points comes out as different code points
/// than every browser reads; its tables leave bytes undefined that the standard
/// maps (0x81 in windows-1252, 0xCA in windows-1255); and Debian's libxml2 may
/// convert through ICU where Expat goes through iconv. So:
///
/// - a **single-byte** encoding is decoded by the standard's index: one code point
///   per byte, no composition, the same table for both parsers;
/// - a **multi-byte** encoding is decoded by the iconv converter that implements
///   what the standard's decoder reads — the Windows supersets browsers use
///   (`Shift_JIS` is read as windows-31j, `EUC-KR` as windows-949, `Big5` as
///   Big5-HKSCS, `EUC-JP` with the Microsoft extensions), and GBK's labels as
///   GB18030 with libxml2 (Expat's byte table cannot follow GB18030's four-byte
///   sequences, so it reads their two-byte subset, GBK).
///
/// Labels the XML parsers know themselves are left to them: UTF-8 and UTF-16,
/// and ISO-8859-1 and US-ASCII (with their aliases), which both read as those
/// standards define them rather than as windows-1252. Any other name goes to
/// iconv, as before.
package struct WHATWGEncoding: Sendable, Equatable {
    /// How the bytes become characters.
    package enum Decoder: Sendable, Equatable {
        /// The code point of each byte 0x80–0xFF; 0 where the byte is undefined.
        /// Bytes below 0x80 are ASCII.
        case singleByte(index: [UInt16])
        /// The system's iconv converter of this name (and, for Expat, the one its
        /// byte table can follow, when that differs).
        case converter(String, expat: String)
    }

    /// The standard's name for the encoding (`windows-1255`, `Shift_JIS`).
    package let name: String
    package let decoder: Decoder

    /// The encoding `label` names, matched as the standard says (ASCII case and
    /// surrounding whitespace ignored); `nil` for labels the parsers read
    /// themselves, labels of encodings decoded otherwise, and unknown names.
    package init?(label: String) {
        guard let found = Self.byLabel[Self.normalized(label)] else { return nil }
        self = found
    }

    /// The standard's single-byte encodings, in the order of
    /// ``singleByteListing``.
    package static let singleByte: [WHATWGEncoding] = singleByteListing.map {
        WHATWGEncoding(name: $0.name, decoder: .singleByte(index: $0.index))
    }

    /// The labels by which each encoding is found, the standard's own, but those
    /// of ISO-8859-1 and US-ASCII (see the type's documentation).
    package static let labels: [(encoding: WHATWGEncoding, labels: [String])] =
        zip(singleByte, singleByteListing).map { encoding, listing in
            (encoding, listing.labels.filter { !readByTheParsers.contains($0) })
        }
        + multiByteListing.map { listing in
            (
                WHATWGEncoding(name: listing.name, decoder: .converter(listing.converter, expat: listing.expat)),
                listing.labels
            )
        }

    private init(name: String, decoder: Decoder) {
        self.name = name
        self.decoder = decoder
    }

    private static let byLabel: [String: WHATWGEncoding] = {
        var table: [String: WHATWGEncoding] = [:]
        for (encoding, labels) in labels {
            for label in labels { table[label] = encoding }
        }
        return table
    }()

    /// Whether `label` names ISO-8859-1 or US-ASCII, which the parsers decode
    /// themselves, by the letter of those standards — and which a browser reads as
    /// windows-1252 (see ``readByTheParsers``).
    package static func isLatin1OrASCII(_ label: String) -> Bool {
        readByTheParsers.contains(normalized(label))
    }

    /// windows-1252's labels that name ISO-8859-1 or US-ASCII, which Expat and
    /// libxml2 both decode themselves, as those standards define them.
    static let readByTheParsers: Set<String> = [
        "ansi_x3.4-1968", "ascii", "cp819", "csisolatin1", "ibm819", "iso-8859-1", "iso-ir-100", "iso8859-1",
        "iso88591", "iso_8859-1", "iso_8859-1:1987", "l1", "latin1", "us-ascii"
    ]

    /// The multi-byte encodings of the standard that iconv implements, with the
    /// standard's labels. ISO-2022-JP is left to iconv under its own name.
    static let multiByteListing: [(name: String, converter: String, expat: String, labels: [String])] = [
        (
            "Shift_JIS", "CP932", "CP932",
            ["csshiftjis", "ms932", "ms_kanji", "shift-jis", "shift_jis", "sjis", "windows-31j", "x-sjis"]
        ),
        (
            "EUC-KR", "CP949", "CP949",
            [
                "cseuckr", "csksc56011987", "euc-kr", "iso-ir-149", "korean", "ks_c_5601-1987", "ks_c_5601-1989",
                "ksc5601", "ksc_5601", "windows-949"
            ]
        ),
        ("Big5", "BIG5-HKSCS", "BIG5-HKSCS", ["big5", "big5-hkscs", "cn-big5", "csbig5", "x-x-big5"]),
        ("EUC-JP", "EUC-JP-MS", "EUC-JP-MS", ["cseucpkdfmtjapanese", "euc-jp", "x-euc-jp"]),
        (
            "GBK", "GB18030", "GBK",
            ["chinese", "csgb2312", "csiso58gb231280", "gb2312", "gb_2312", "gb_2312-80", "gbk", "iso-ir-58", "x-gbk"]
        )
    ]

    /// A label as the standard compares it: without leading and trailing ASCII
    /// whitespace, in ASCII lower case.
    static func normalized(_ label: String) -> String {
        let whitespace: Set<UInt8> = [0x09, 0x0A, 0x0C, 0x0D, 0x20]
        let bytes = Array(label.utf8)
        guard let first = bytes.firstIndex(where: { !whitespace.contains($0) }),
            let last = bytes.lastIndex(where: { !whitespace.contains($0) })
        else { return "" }
        return String(decoding: bytes[first...last].map { $0 &- 0x41 < 26 ? $0 | 0x20 : $0 }, as: UTF8.self)
    }
}
