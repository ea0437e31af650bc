import IngestCore

/// Tells XML from JSON by the first bytes of an input — a byte order mark, then
/// the first character that is not white space — and finds where an XML
/// declaration preceded by white space starts (PHP-made feeds often begin with
/// a blank line, which XML does not allow before `<?xml`).
///
/// Bytes are added as they come and held until the syntax can be told; each is
/// looked at once (the scan resumes where it stopped), and white space before the
/// document is bounded by ``IngestCore/ParseLimits/maxTextBytes``, as a token is.
struct FeedSniffer {
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

    /// The most white space held before the document: beyond, the input is refused.
    let maxWhiteSpace: Int
    /// The bytes added so far, held until the verdict.
    private(set) var pending: [UInt8] = []
    /// Where the white space after the byte order mark starts, once the first bytes
    /// are known.
    private var start: Int?
    /// Where the scan for the first character that is not white space resumes.
    private var index = 0
    /// Bytes looked at so far, counted for the tests: each byte of white space once.
    private(set) var bytesExamined = 0

    init(maxWhiteSpace: Int) {
        self.maxWhiteSpace = maxWhiteSpace
    }

    /// Adds `bytes` and returns the verdict, or `nil` when more bytes are needed
    /// to tell (they are all white space so far, or an XML declaration may be cut)
    /// and `final` is false. With `final`, `nil` means the input is empty or white
    /// space. Throws `.data` when the white space before the document passes
    /// ``maxWhiteSpace``.
    mutating func add(_ bytes: UnsafeRawBufferPointer, final: Bool) throws -> Verdict? {
        pending.append(contentsOf: bytes)
        let verdict = pending.withUnsafeBufferPointer { scan($0, final: final) }
        if verdict == nil, let start, pending.count - start > maxWhiteSpace {
            throw IngestError.tokenLimit(maxWhiteSpace, "white space before the document", position: .start)
        }
        return verdict
    }

    private mutating func scan(_ bytes: UnsafeBufferPointer<UInt8>, final: Bool) -> Verdict? {
        if bytes.count < 4, !final { return nil }
        if start == nil {
            if bytes.count >= 2, (bytes[0] == 0xFE && bytes[1] == 0xFF) || (bytes[0] == 0xFF && bytes[1] == 0xFE) {
                return Verdict(syntax: .xml, hasByteOrderMark: true)
            }
            if bytes.count >= 2,
                (bytes[0] == 0 && bytes[1] == UInt8(ascii: "<")) || (bytes[0] == UInt8(ascii: "<") && bytes[1] == 0)
            {
                return Verdict(syntax: .xml, hasByteOrderMark: false)
            }
            start = bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF ? 3 : 0
            index = start!
        }
        let start = start!
        let bom = start == 3
        let scanFrom = index
        while index < bytes.count, isSpace(bytes[index]) { index += 1 }
        bytesExamined += index - scanFrom
        guard index < bytes.count else { return nil }
        switch bytes[index] {
        case UInt8(ascii: "<"):
            if index > start, index + 5 > bytes.count, !final { return nil }
            // The declaration names the encoding the reader decodes with: wait for
            // all of it (a few hundred bytes at most) when a chunk cuts it.
            if !final, Self.declarationMayBeCut(UnsafeBufferPointer(rebasing: bytes[index...])) { return nil }
            var verdict = Verdict(syntax: .xml, hasByteOrderMark: bom)
            if index > start, index + 5 <= bytes.count,
                bytes[index + 1] == UInt8(ascii: "?"), bytes[index + 2] == UInt8(ascii: "x"),
                bytes[index + 3] == UInt8(ascii: "m"), bytes[index + 4] == UInt8(ascii: "l")
            {
                verdict.whiteSpaceBeforeDeclaration = start..<index
            }
            return verdict
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            return Verdict(syntax: .json, hasByteOrderMark: bom)
        case let byte:
            return Verdict(syntax: .other(byte), hasByteOrderMark: bom)
        }
    }

    /// Whether `bytes`, which start at the document's first `<`, are an XML
    /// declaration (or the start of one) that has not ended yet, within
    /// ``XMLDeclaration/maxLength``.
    static func declarationMayBeCut(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let head = "<?xml".utf8
        guard bytes.count > head.count else { return head.starts(with: bytes) }
        guard bytes.starts(with: head) else { return false }
        let limit = min(bytes.count, XMLDeclaration.maxLength)
        guard limit < XMLDeclaration.maxLength else { return false }
        for index in head.count..<(limit - 1)
        where bytes[index] == UInt8(ascii: "?") && bytes[index + 1] == UInt8(ascii: ">") {
            return false
        }
        return true
    }
}
