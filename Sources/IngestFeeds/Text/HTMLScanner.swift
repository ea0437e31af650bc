/// A forgiving walk over HTML as bytes: stretches of text and tags, in order. Not a
/// parser — no tree, no implied tags — just what the feed layer needs: the text
/// between tags (``HTMLText/plainText(ofHTML:)``), the first image, and the URI
/// attributes to resolve. Comments, `<!…>` and `<?…>` are skipped; a `<` that
/// starts no tag is text.
struct HTMLScanner {
    /// One tag: its bytes are `bytes[range]`, its name `bytes[name]`.
    struct Tag {
        let bytes: UnsafeBufferPointer<UInt8>
        let range: Range<Int>
        let name: Range<Int>
        let isEnd: Bool

        /// Whether the tag's name is `lowercaseName`, in any case.
        func isNamed(_ lowercaseName: StaticString) -> Bool {
            guard name.count == lowercaseName.utf8CodeUnitCount else { return false }
            for offset in 0..<name.count where lower(bytes[name.lowerBound + offset]) != lowercaseName.utf8Start[offset]
            {
                return false
            }
            return true
        }

        /// Calls `body` with each attribute's name and value ranges (quotes excluded;
        /// `nil` for an attribute without a value), in order.
        func forEachAttribute(_ body: (_ name: Range<Int>, _ value: Range<Int>?) -> Void) {
            var index = name.upperBound
            let end = range.upperBound - 1  // the ">"
            while index < end {
                while index < end, isSpace(bytes[index]) || bytes[index] == UInt8(ascii: "/") { index += 1 }
                let nameStart = index
                while index < end, !isSpace(bytes[index]), bytes[index] != UInt8(ascii: "="),
                    bytes[index] != UInt8(ascii: "/")
                { index += 1 }
                guard index > nameStart else { break }
                let attributeName = nameStart..<index
                while index < end, isSpace(bytes[index]) { index += 1 }
                guard index < end, bytes[index] == UInt8(ascii: "=") else {
                    body(attributeName, nil)
                    continue
                }
                index += 1
                while index < end, isSpace(bytes[index]) { index += 1 }
                if index < end, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") {
                    let quote = bytes[index]
                    let valueStart = index + 1
                    index = valueStart
                    while index < end, bytes[index] != quote { index += 1 }
                    body(attributeName, valueStart..<index)
                    index += 1
                } else {
                    let valueStart = index
                    while index < end, !isSpace(bytes[index]) { index += 1 }
                    body(attributeName, valueStart..<index)
                }
            }
        }

        /// The value range of the attribute `lowercaseName`, if present with a value.
        func attribute(_ lowercaseName: StaticString) -> Range<Int>? {
            var found: Range<Int>?
            forEachAttribute { name, value in
                guard found == nil, let value, name.count == lowercaseName.utf8CodeUnitCount else { return }
                for offset in 0..<name.count
                where lower(bytes[name.lowerBound + offset]) != lowercaseName.utf8Start[offset] {
                    return
                }
                found = value
            }
            return found
        }
    }

    let bytes: UnsafeBufferPointer<UInt8>

    /// Walks the bytes: `text` for each stretch of text, `tag` for each tag; a tag
    /// handler returning a position moves the walk there (to skip a script's body).
    func scan(text: (Range<Int>) -> Void, tag: (Tag) -> Int?) {
        var index = 0, textStart = 0
        let count = bytes.count
        while index < count {
            guard bytes[index] == UInt8(ascii: "<"), index + 1 < count else {
                index += 1
                continue
            }
            let next = bytes[index + 1]
            if next == UInt8(ascii: "!") || next == UInt8(ascii: "?") {
                if textStart < index { text(textStart..<index) }
                let isComment =
                    index + 3 < count && bytes[index + 2] == UInt8(ascii: "-") && bytes[index + 3] == UInt8(ascii: "-")
                index =
                    isComment
                    ? Self.find("-->", in: bytes, from: index + 4).map { $0 + 3 } ?? count
                    : (Self.find(">", in: bytes, from: index + 2).map { $0 + 1 } ?? count)
                textStart = index
                continue
            }
            let isEnd = next == UInt8(ascii: "/")
            let nameStart = index + (isEnd ? 2 : 1)
            guard nameStart < count, isLetter(bytes[nameStart]) else {
                index += 1
                continue
            }
            var nameEnd = nameStart
            while nameEnd < count,
                isLetter(bytes[nameEnd]) || bytes[nameEnd] &- 48 < 10 || bytes[nameEnd] == UInt8(ascii: "-")
                    || bytes[nameEnd] == UInt8(ascii: ":")
            { nameEnd += 1 }
            guard let end = Self.tagEnd(bytes, from: nameEnd) else { break }  // an unfinished tag at the end is text
            if textStart < index { text(textStart..<index) }
            let found = Tag(bytes: bytes, range: index..<end + 1, name: nameStart..<nameEnd, isEnd: isEnd)
            index = tag(found) ?? end + 1
            textStart = index
        }
        if textStart < count { text(textStart..<count) }
    }

    /// The `>` that ends a tag, searched from `from` (inside the tag), outside
    /// quoted attribute values; `nil` when the bytes end first.
    static func tagEnd(_ bytes: UnsafeBufferPointer<UInt8>, from: Int) -> Int? {
        var quote: UInt8 = 0
        return tagEnd(bytes, from: from, quote: &quote)
    }

    /// ``tagEnd(_:from:)`` resumed inside a quoted value when `quote` is its quote
    /// character; when the bytes end first, `quote` says where the scan stood.
    static func tagEnd(_ bytes: UnsafeBufferPointer<UInt8>, from: Int, quote: inout UInt8) -> Int? {
        var index = from
        while index < bytes.count {
            let byte = bytes[index]
            if quote != 0 {
                if byte == quote { quote = 0 }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: ">") {
                return index
            }
            index += 1
        }
        return nil
    }

    /// Where `literal` next occurs at or after `from`, ASCII case-insensitively.
    static func find(_ literal: StaticString, in bytes: UnsafeBufferPointer<UInt8>, from: Int) -> Int? {
        let length = literal.utf8CodeUnitCount
        guard length > 0, from + length <= bytes.count else { return nil }
        var index = from
        outer: while index + length <= bytes.count {
            for offset in 0..<length where lower(bytes[index + offset]) != literal.utf8Start[offset] {
                index += 1
                continue outer
            }
            return index
        }
        return nil
    }
}
