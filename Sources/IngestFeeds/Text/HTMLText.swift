import IngestCore
import IngestParsers

/// Plain text from HTML and from text, for ``FeedText/plainText``: tags removed
/// (the bodies of `script` and `style` too), character references decoded, white
/// space collapsed to single spaces and trimmed. A tag that breaks a line in a
/// browser (`p`, `br`, `li`, `div`, headings…) counts as white space, so
/// `<p>a</p><p>b</p>` reads `a b`; an inline one (`b`, `a`, `span`…) does not, so
/// `Hello <b>w</b>orld` reads `Hello world`.
enum HTMLText {
    /// The plain text of an HTML fragment.
    static func plainText(ofHTML html: String) -> String {
        var html = html
        return html.withUTF8 { bytes in
            var output = CollapsingWriter()
            output.reserve(bytes.count)
            HTMLScanner(bytes: bytes).scan(
                text: { range in
                    decodeReferences(UnsafeBufferPointer(rebasing: bytes[range]), into: &output)
                },
                tag: { tag in
                    if !tag.isEnd, tag.isNamed("script") || tag.isNamed("style") {
                        let close: StaticString = tag.isNamed("script") ? "</script" : "</style"
                        guard let end = HTMLScanner.find(close, in: bytes, from: tag.range.upperBound) else {
                            return bytes.count
                        }
                        return HTMLScanner.find(">", in: bytes, from: end).map { $0 + 1 } ?? bytes.count
                    }
                    if isBlock(tag) { output.space() }
                    return nil
                })
            return output.string
        }
    }

    /// `text` as HTML that shows it as written: `&`, `<`, `>`, `"` and `'` as
    /// references, so it is safe as element content and in a quoted attribute.
    static func escaping(_ text: String) -> String {
        var text = text
        return text.withUTF8 { bytes in
            var output: [UInt8] = []
            output.reserveCapacity(bytes.count + 16)
            appendEscaped(bytes, quotes: true, to: &output)
            return String(decoding: output, as: UTF8.self)
        }
    }

    /// Appends `bytes` to `output` with `&`, `<` and `>` escaped, and `"` and `'`
    /// too when `quotes` (an attribute value).
    static func appendEscaped(_ bytes: UnsafeBufferPointer<UInt8>, quotes: Bool, to output: inout [UInt8]) {
        var copied = 0
        for index in bytes.indices {
            let escape: StaticString
            switch bytes[index] {
            case UInt8(ascii: "&"): escape = "&amp;"
            case UInt8(ascii: "<"): escape = "&lt;"
            case UInt8(ascii: ">"): escape = "&gt;"
            case UInt8(ascii: "\"") where quotes: escape = "&quot;"
            case UInt8(ascii: "'") where quotes: escape = "&#39;"
            default: continue
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied..<index]))
            escape.withUTF8Buffer { output.append(contentsOf: $0) }
            copied = index + 1
        }
        output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied...]))
    }

    /// `text` with its white space collapsed and trimmed.
    static func collapsingWhiteSpace(_ text: String) -> String {
        var text = text
        return text.withUTF8 { bytes in
            var output = CollapsingWriter()
            output.reserve(bytes.count)
            output.append(bytes)
            return output.string
        }
    }

    /// HTML's character references in `text` decoded (`&amp;`, `&eacute;`, `&#233;`,
    /// `&#xE9;`); a `&` that starts none stays as it is.
    static func decodingReferences(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "&")) else { return text }
        var text = text
        return text.withUTF8 { bytes in
            var output = RawWriter()
            decodeReferences(bytes, into: &output)
            return String(decoding: output.bytes, as: UTF8.self)
        }
    }

    /// Whether `text` looks like HTML rather than plain text: a tag (`<b>`, `</p>`,
    /// `<br/>`) or a character reference (`&amp;`, `&#8217;`).
    static func looksLikeHTML(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            guard !bytes.isEmpty else { return false }
            for index in bytes.indices {
                let byte = bytes[index]
                if byte == UInt8(ascii: "<"), index + 1 < bytes.count {
                    let next = bytes[index + 1]
                    if isLetter(next) || next == UInt8(ascii: "/") || next == UInt8(ascii: "!") { return true }
                } else if byte == UInt8(ascii: "&") {
                    var end = index + 1
                    while end < bytes.count, end - index <= 10,
                        isLetter(bytes[end]) || isDigit(bytes[end]) || bytes[end] == UInt8(ascii: "#")
                    { end += 1 }
                    if end < bytes.count, end > index + 1, bytes[end] == UInt8(ascii: ";") { return true }
                }
            }
            return false
        }
    }

    // MARK: - Pieces

    /// Tags after which a browser starts a new line.
    private static func isBlock(_ tag: HTMLScanner.Tag) -> Bool {
        let names: [StaticString] = [
            "p", "br", "div", "li", "ul", "ol", "dl", "dt", "dd", "tr", "td", "th", "table",
            "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "pre", "hr", "section",
            "article", "header", "footer", "figure", "figcaption", "aside", "nav", "main",
            "img", "caption", "address"
        ]
        return names.contains { tag.isNamed($0) }
    }

    /// Decodes the character references in `bytes` into `output`.
    static func decodeReferences(_ bytes: UnsafeBufferPointer<UInt8>, into output: inout some ByteWriter) {
        var index = 0, copied = 0
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "&") else {
                index += 1
                continue
            }
            guard let (scalar, end) = reference(in: bytes, at: index) else {
                index += 1
                continue
            }
            output.append(UnsafeBufferPointer(rebasing: bytes[copied..<index]))
            output.append(scalar)
            index = end
            copied = end
        }
        output.append(UnsafeBufferPointer(rebasing: bytes[copied...]))
    }

    /// The character a reference at `index` (a `&`) stands for, and where it ends.
    static func reference(in bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> (Unicode.Scalar, Int)? {
        var end = index + 1
        guard end < bytes.count else { return nil }
        if bytes[end] == UInt8(ascii: "#") {
            end += 1
            let hex = end < bytes.count && (bytes[end] | 0x20) == UInt8(ascii: "x")
            if hex { end += 1 }
            var value: UInt32 = 0, digits = 0
            while end < bytes.count, digits < 8 {
                let byte = bytes[end]
                let digit: UInt32
                if byte &- 48 < 10 {
                    digit = UInt32(byte &- 48)
                } else if hex, (byte | 0x20) &- 97 < 6 {
                    digit = UInt32((byte | 0x20) &- 87)
                } else {
                    break
                }
                value = value * (hex ? 16 : 10) + digit
                digits += 1
                end += 1
            }
            guard digits > 0, end < bytes.count, bytes[end] == UInt8(ascii: ";") else { return nil }
            // Windows-1252's C1 range, as browsers read &#150; and friends.
            let scalar = (128...159).contains(value) ? Self.windows1252[Int(value - 128)] : value
            return Unicode.Scalar(scalar).map { ($0, end + 1) } ?? ("\u{FFFD}", end + 1)
        }
        while end < bytes.count, end - index <= 9, isLetter(bytes[end]) || bytes[end] &- 48 < 10 { end += 1 }
        guard end < bytes.count, bytes[end] == UInt8(ascii: ";"), end > index + 1,
            let value = HTMLEntities.codePoint(named: UnsafeBufferPointer(rebasing: bytes[index + 1..<end])),
            let scalar = Unicode.Scalar(value)
        else { return nil }
        return (scalar, end + 1)
    }

    private static let windows1252: [UInt32] = [
        0x20AC, 0x81, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x8D,
        0x017D, 0x8F,
        0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x9D,
        0x017E, 0x0178
    ]
}

/// Where decoded text goes.
protocol ByteWriter {
    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>)
    mutating func append(_ scalar: Unicode.Scalar)
}

/// Bytes as they come.
struct RawWriter: ByteWriter {
    var bytes: [UInt8] = []
    mutating func append(_ more: UnsafeBufferPointer<UInt8>) { bytes.append(contentsOf: more) }
    mutating func append(_ scalar: Unicode.Scalar) { bytes.append(contentsOf: String(scalar).utf8) }
}

/// Bytes with runs of white space (ASCII, and U+00A0 no-break space) written as one
/// space, none at the start or the end.
struct CollapsingWriter: ByteWriter {
    private(set) var bytes: [UInt8] = []
    private var pendingSpace = false

    mutating func reserve(_ count: Int) { bytes.reserveCapacity(count) }

    mutating func space() { pendingSpace = !bytes.isEmpty }

    mutating func append(_ more: UnsafeBufferPointer<UInt8>) {
        var index = 0
        while index < more.count {
            let byte = more[index]
            if isSpace(byte) || byte == 0x0B {
                space()
            } else if byte == 0xC2, index + 1 < more.count, more[index + 1] == 0xA0 {
                space()
                index += 1
            } else {
                if pendingSpace {
                    bytes.append(0x20)
                    pendingSpace = false
                }
                bytes.append(byte)
            }
            index += 1
        }
    }

    mutating func append(_ scalar: Unicode.Scalar) {
        if scalar.properties.isWhitespace {
            space()
            return
        }
        if pendingSpace {
            bytes.append(0x20)
            pendingSpace = false
        }
        bytes.append(contentsOf: String(scalar).utf8)
    }

    var string: String { String(decoding: bytes, as: UTF8.self) }
}
