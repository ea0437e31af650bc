import IngestCore

/// Recognises HTML that ``SafeHTML/sanitize(_:base:)`` would give back byte for
/// byte, so that the common description — paragraphs of text with a little
/// emphasis — is not run through libxml2's HTML parser at all.
///
/// The subset is small enough to see that nothing in it can run or load anything,
/// and it is exactly what the sanitizer writes unchanged:
///
/// - text of printable characters, tabs and line feeds (no carriage return, which
///   the parser turns into a line feed, and not U+FFFE or U+FFFF, which it refuses),
///   without `<`, `>` or `&` except the references `&amp;`, `&lt;` and `&gt;` that
///   the sanitizer writes back as they are;
/// - `<p>…</p>` at the top level only (the parser closes a paragraph that another
///   block would open, so a nested one would come out rearranged);
/// - the inline elements in ``inline`` anywhere, each closed by its own end tag in
///   order, and `<br>`; tags in lowercase, without attributes or white space.
///
/// Anything else — an attribute, another element, a comment, an unclosed tag — is
/// not recognised and goes to the sanitizer; being wrong here can only cost time.
/// A test holds the promise: every fragment this accepts, the sanitizer returns
/// unchanged.
enum AlreadySafeHTML {
    /// Inline elements whose content the parser leaves where it is.
    static let inline: [[UInt8]] = ["em", "strong", "b", "i", "code", "u", "s", "small", "sub", "sup", "q", "span"]
        .map { Array($0.utf8) }
    /// Open elements at most; deeper nesting goes to the sanitizer.
    static let maxOpen = 16

    /// Whether sanitizing `bytes` gives them back unchanged (see above).
    static func holds(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        // Indices into `inline`, or `paragraph`, of the elements open.
        var open: [Int] = []
        open.reserveCapacity(maxOpen)
        let paragraph = -1
        var index = 0
        while index < bytes.count {
            index = firstCandidate(bytes, from: index)
            guard index < bytes.count else { break }
            switch bytes[index] {
            case UInt8(ascii: "<"):
                guard let close = tagEnd(bytes, from: index) else { return false }
                let isEnd = bytes[index + 1] == UInt8(ascii: "/")
                let name = UnsafeBufferPointer(rebasing: bytes[(index + (isEnd ? 2 : 1))..<close])
                let element: Int
                if name.elementsEqual("p".utf8) {
                    element = paragraph
                } else if let found = inline.firstIndex(where: { name.elementsEqual($0) }) {
                    element = found
                } else if !isEnd, name.elementsEqual("br".utf8) {
                    index = close + 1
                    continue
                } else {
                    return false
                }
                if isEnd {
                    guard open.popLast() == element else { return false }
                } else {
                    guard open.count < maxOpen, element != paragraph || open.isEmpty else { return false }
                    open.append(element)
                }
                index = close + 1
            case UInt8(ascii: "&"):
                guard let length = referenceLength(bytes, from: index) else { return false }
                index += length
            case UInt8(ascii: ">"), UInt8(ascii: "\r"):
                return false
            case let byte where byte < 0x20 && byte != UInt8(ascii: "\t") && byte != UInt8(ascii: "\n"):
                return false
            case 0x7F:
                return false
            case 0xEF where index + 2 < bytes.count && bytes[index + 1] == 0xBF && bytes[index + 2] >= 0xBE:
                return false
            default:
                index += 1
            }
        }
        return open.isEmpty
    }

    /// The index of the first byte from `start` that the loop above must look at
    /// (markup, a reference, a control character, DEL, or 0xEF, which may start a
    /// noncharacter), eight bytes at a time; near the end, where fewer than eight are
    /// left, `start` or past it, which the loop reads byte by byte.
    @inline(__always)
    private static func firstCandidate(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        guard let base = bytes.baseAddress else { return start }
        var index = start
        while index &+ 8 <= bytes.count {
            let word = ByteWord.load(base + index)
            let candidates =
                ByteWord.equal(word, UInt8(ascii: "<")) | ByteWord.equal(word, UInt8(ascii: "&"))
                | ByteWord.equal(word, UInt8(ascii: ">")) | ByteWord.below(word, 0x20) | ByteWord.equal(word, 0x7F)
                | ByteWord.equal(word, 0xEF)
            if candidates != 0 { return index &+ ByteWord.first(in: candidates) }
            index &+= 8
        }
        return index
    }

    /// The index of the `>` ending a tag named in lowercase letters at `start`, `/`
    /// allowed right after `<`; `nil` for any other tag.
    private static func tagEnd(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        var index = start + 1
        if index < bytes.count, bytes[index] == UInt8(ascii: "/") { index += 1 }
        let nameStart = index
        while index < bytes.count, index - nameStart <= 8 {
            let byte = bytes[index]
            if byte == UInt8(ascii: ">") { return index > nameStart ? index : nil }
            guard (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) else { return nil }
            index += 1
        }
        return nil
    }

    /// The length of `&amp;`, `&lt;` or `&gt;` at `start`; `nil` for any other `&`.
    private static func referenceLength(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        for reference in ["&amp;", "&lt;", "&gt;"] as [StaticString] {
            let length = reference.utf8CodeUnitCount
            guard start + length <= bytes.count else { continue }
            let candidate = UnsafeBufferPointer(rebasing: bytes[start..<(start + length)])
            if reference.withUTF8Buffer({ candidate.elementsEqual($0) }) { return length }
        }
        return nil
    }
}
