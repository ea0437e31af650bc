/// Tells XML from JSON by the first bytes of an input — a byte order mark, then
/// the first character that is not white space — and finds where an XML
/// declaration preceded by white space starts (PHP-made feeds often begin with
/// a blank line, which XML does not allow before `<?xml`).
enum FeedSniffer {
    enum Syntax: Equatable {
        case xml
        case json
        /// Not a feed: the first character is neither `<` nor `{`.
        case other(UInt8)
    }

    struct Verdict {
        var syntax: Syntax
        /// The input begins with a byte order mark.
        var hasByteOrderMark: Bool
        /// How many bytes of leading white space to drop before an XML declaration
        /// (after the byte order mark, if any).
        var whiteSpaceBeforeDeclaration: Range<Int>?
    }

    /// The verdict on `bytes`, or `nil` when more bytes are needed to tell (they
    /// are all white space so far, or an XML declaration may be cut) and `final` is
    /// false. With `final`, `nil` means the input is empty or white space.
    static func sniff(_ bytes: UnsafeBufferPointer<UInt8>, final: Bool) -> Verdict? {
        if bytes.count < 4, !final { return nil }
        var index = 0
        var bom = false
        if bytes.count >= 2, (bytes[0] == 0xFE && bytes[1] == 0xFF) || (bytes[0] == 0xFF && bytes[1] == 0xFE) {
            return Verdict(syntax: .xml, hasByteOrderMark: true)
        }
        if bytes.count >= 2, (bytes[0] == 0 && bytes[1] == UInt8(ascii: "<")) || (bytes[0] == UInt8(ascii: "<") && bytes[1] == 0) {
            return Verdict(syntax: .xml, hasByteOrderMark: false)
        }
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            bom = true
            index = 3
        }
        let start = index
        while index < bytes.count, isSpace(bytes[index]) { index += 1 }
        guard index < bytes.count else { return nil }
        switch bytes[index] {
        case UInt8(ascii: "<"):
            if index > start, index + 5 > bytes.count, !final { return nil }
            var verdict = Verdict(syntax: .xml, hasByteOrderMark: bom)
            if index > start, index + 5 <= bytes.count,
               bytes[index + 1] == UInt8(ascii: "?"), bytes[index + 2] == UInt8(ascii: "x"),
               bytes[index + 3] == UInt8(ascii: "m"), bytes[index + 4] == UInt8(ascii: "l") {
                verdict.whiteSpaceBeforeDeclaration = start..<index
            }
            return verdict
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            return Verdict(syntax: .json, hasByteOrderMark: bom)
        case let byte:
            return Verdict(syntax: .other(byte), hasByteOrderMark: bom)
        }
    }
}
