import IngestCore
import IngestParsers

/// Repairs, on the bytes, the faults of real feeds that libxml2's recovering mode
/// handles badly, before it reads them:
/// - a bare `&` (`Fish & Chips`, `?a=1&b=2`) becomes `&amp;`, and a bare `<`
///   (`a < b`) `&lt;` — libxml2 would drop them and what follows;
/// - an HTML character reference XML does not define (`&nbsp;`, `&eacute;`)
///   becomes the numeric reference (`&#160;`) — libxml2 would drop it;
/// - nesting: HTML's empty elements left open (`<br>`, `<hr>`, `<img …>`, `<wbr>`)
///   are closed on the spot; an end tag that closes an element further out closes
///   the ones inside it first; an end tag nothing opened is dropped; the elements
///   still open at the end are closed — where libxml2 would close the wrong
///   element and nest the rest of the feed inside it.
///
/// Comments, CDATA sections, processing instructions and the DOCTYPE pass through
/// untouched, and references XML knows (`&amp;`, `&#233;`, entities the document
/// may declare) are left alone. It runs only when a feed has already failed to
/// parse as well-formed XML. Chunks may end anywhere: what cannot be decided yet
/// is held for the next one — a few bytes, or a tag whose `>` has not come, which
/// is scanned once (the scan resumes in the next chunk). A tag, comment, CDATA
/// section, processing instruction or DOCTYPE is bounded by `maxTokenBytes`.
struct XMLRepairFilter {
    private enum State { case text, comment, cdata, instruction, declaration }

    private var state = State.text
    private var quote: UInt8 = 0
    private var declarationDepth = 0
    private var held: [UInt8] = []
    /// While `held` is a tag whose end has not come: the quote its scan stands in
    /// (0 outside attribute values).
    private var heldTagQuote: UInt8?
    /// The most bytes one tag (attributes included), comment, CDATA section,
    /// processing instruction or DOCTYPE may have.
    let maxTokenBytes: Int
    /// Bytes of the comment, CDATA section, processing instruction or DOCTYPE
    /// being passed through, and whether it has passed ``maxTokenBytes``.
    private var markupBytes = 0, markupTooLong = false
    /// Bytes processed for good, before `held`.
    private var processed = 0
    /// Bytes looked at in search of tag ends, counted for the tests: each once.
    private(set) var tagBytesExamined = 0
    /// The names of the open elements, outermost first.
    private var open: [[UInt8]] = []
    /// Lines ended, and bytes since the last line end, before the bytes being processed.
    private var lines = 0, column = 0
    /// Where the first repair was made (1-based line and column), and what it was.
    private(set) var firstRepair: FeedParseError?
    /// The DOCTYPE's text outside its internal subset, to tell a well-known DTD by.
    private var doctype: [UInt8] = []
    /// The DOCTYPE names a DTD that declares HTML's entities (``IngestCore/KnownDTD``):
    /// `&nbsp;` is then declared, not a repair, and passes through for the parser.
    private(set) var declaresHTMLEntities = false

    /// HTML's elements that have no content, which HTML lets a feed leave open.
    private static let emptyHTMLElements: [[UInt8]] = ["br", "hr", "img", "wbr"].map { Array($0.utf8) }

    /// A filter that refuses a token longer than `maxTokenBytes`
    /// (``IngestCore/ParseLimits/maxTextBytes``).
    init(maxTokenBytes: Int) {
        self.maxTokenBytes = maxTokenBytes
    }

    /// Appends the repaired form of `chunk` to `output`; `final` when it is the last.
    /// Throws `.data` when a token passes ``maxTokenBytes``.
    mutating func repair(_ chunk: UnsafeRawBufferPointer, final: Bool, into output: inout [UInt8]) throws {
        var bytes = UnsafeBufferPointer(
            start: chunk.baseAddress?.assumingMemoryBound(to: UInt8.self), count: chunk.count)
        if var quote = heldTagQuote {
            // A tag is held: its end is looked for in the new bytes alone.
            let end = HTMLScanner.tagEnd(bytes, from: 0, quote: &quote)
            tagBytesExamined += end.map { $0 + 1 } ?? bytes.count
            guard let end else {
                held.append(contentsOf: bytes)
                heldTagQuote = quote
                try checkHeldTag()
                if final {
                    endHeldTag(complete: false, into: &output)
                    closeAll(into: &output)
                }
                return
            }
            held.append(contentsOf: bytes[...end])
            try checkHeldTag()
            endHeldTag(complete: true, into: &output)
            bytes = UnsafeBufferPointer(rebasing: bytes[(end + 1)...])
        }
        if held.isEmpty {
            process(bytes, final: final, into: &output)
        } else {
            var work = held
            held = []
            work.append(contentsOf: bytes)
            work.withUnsafeBufferPointer { process($0, final: final, into: &output) }
        }
        if heldTagQuote != nil { try checkHeldTag() }
        if markupTooLong {
            throw IngestError.tokenLimit(
                maxTokenBytes, "a comment, CDATA section, processing instruction or DOCTYPE",
                position: SourcePosition(line: lines + 1, column: column + 1, byteOffset: processed))
        }
        if final { closeAll(into: &output) }
    }

    /// Writes the held tag: repaired when `complete`, else (the input ended in it) as it is.
    private mutating func endHeldTag(complete: Bool, into output: inout [UInt8]) {
        let tagBytes = held
        held = []
        heldTagQuote = nil
        tagBytes.withUnsafeBufferPointer { bytes in
            if complete { tag(bytes, 0...(bytes.count - 1), into: &output) } else { output.append(contentsOf: bytes) }
            advance(bytes, to: bytes.count)
        }
    }

    private func checkHeldTag() throws {
        guard held.count > maxTokenBytes else { return }
        throw IngestError.tokenLimit(
            maxTokenBytes, "a tag with its attributes",
            position: SourcePosition(line: lines + 1, column: column + 1, byteOffset: processed))
    }

    private mutating func process(_ bytes: UnsafeBufferPointer<UInt8>, final: Bool, into output: inout [UInt8]) {
        var index = 0
        let count = bytes.count
        output.reserveCapacity(output.count + count + 64)
        defer { advance(bytes, to: count - held.count) }
        func starts(_ literal: StaticString, at position: Int) -> Bool? {
            for offset in 0..<literal.utf8CodeUnitCount {
                guard position + offset < count else { return nil }
                if bytes[position + offset] != literal.utf8Start[offset] { return false }
            }
            return true
        }
        while index < count {
            let byte = bytes[index]
            if state == .text {
                markupBytes = 0
            } else {
                markupBytes += 1
                if markupBytes > maxTokenBytes {
                    markupTooLong = true
                    return
                }
            }
            switch state {
            case .text:
                if byte == UInt8(ascii: "<") {
                    guard let comment = starts("<!--", at: index), let cdata = starts("<![CDATA[", at: index),
                        index + 1 < count
                    else {
                        if !final {
                            held = Array(bytes[index...])
                            return
                        }
                        output.append(contentsOf: bytes[index...])
                        return
                    }
                    let next = bytes[index + 1]
                    if comment {
                        state = .comment
                        output.append(contentsOf: "<!--".utf8)
                        index += 4
                        continue
                    }
                    if cdata {
                        state = .cdata
                        output.append(contentsOf: "<![CDATA[".utf8)
                        index += 9
                        continue
                    }
                    if next == UInt8(ascii: "?") || next == UInt8(ascii: "!") {
                        state = next == UInt8(ascii: "?") ? .instruction : .declaration
                        declarationDepth = 0
                        quote = 0
                        doctype.removeAll()
                        output.append(byte)
                        index += 1
                        continue
                    }
                    guard next == UInt8(ascii: "/") || isNameStart(next) else {
                        note(bytes, index, "a bare \"<\" (not a tag)")
                        output.append(contentsOf: "&lt;".utf8)
                        index += 1
                        continue
                    }
                    var tagQuote: UInt8 = 0
                    let tagEnd = HTMLScanner.tagEnd(bytes, from: index + 1, quote: &tagQuote)
                    tagBytesExamined += (tagEnd ?? count - 1) - index
                    guard let end = tagEnd else {
                        if !final {
                            held = Array(bytes[index...])
                            heldTagQuote = tagQuote
                            return
                        }
                        output.append(contentsOf: bytes[index...])
                        return
                    }
                    tag(bytes, index...end, into: &output)
                    index = end + 1
                } else if byte == UInt8(ascii: "&") {
                    guard let next = reference(bytes, at: index, final: final, into: &output) else {
                        held = Array(bytes[index...])
                        return
                    }
                    index = next
                } else {
                    output.append(byte)
                    index += 1
                }
            case .comment, .cdata, .instruction:
                let end: StaticString = state == .comment ? "-->" : state == .cdata ? "]]>" : "?>"
                guard let matched = starts(end, at: index) else {
                    if !final {
                        held = Array(bytes[index...])
                        return
                    }
                    output.append(contentsOf: bytes[index...])
                    return
                }
                if matched {
                    output.append(contentsOf: bytes[index..<index + end.utf8CodeUnitCount])
                    index += end.utf8CodeUnitCount
                    state = .text
                } else {
                    output.append(byte)
                    index += 1
                }
            case .declaration:
                if quote != 0 {
                    if byte == quote { quote = 0 }
                } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                    quote = byte
                } else if byte == UInt8(ascii: "[") {
                    declarationDepth += 1
                } else if byte == UInt8(ascii: "]") {
                    declarationDepth = max(0, declarationDepth - 1)
                } else if byte == UInt8(ascii: ">"), declarationDepth == 0 {
                    state = .text
                    if !declaresHTMLEntities { declaresHTMLEntities = Self.namesKnownDTD(doctype) }
                }
                if declarationDepth == 0, doctype.count < 1024 { doctype.append(byte) }
                output.append(byte)
                index += 1
            }
        }
    }

    /// A whole start or end tag, `<` to `>`.
    private mutating func tag(
        _ bytes: UnsafeBufferPointer<UInt8>, _ range: ClosedRange<Int>, into output: inout [UInt8]
    ) {
        let isEnd = bytes[range.lowerBound + 1] == UInt8(ascii: "/")
        let nameStart = range.lowerBound + (isEnd ? 2 : 1)
        var nameEnd = nameStart
        while nameEnd < range.upperBound, !isSpace(bytes[nameEnd]), bytes[nameEnd] != UInt8(ascii: "/"),
            bytes[nameEnd] != UInt8(ascii: ">")
        { nameEnd += 1 }
        let name = Array(bytes[nameStart..<nameEnd])
        if isEnd {
            guard let depth = open.lastIndex(of: name) else {
                note(
                    bytes, range.lowerBound,
                    "an end tag </\(String(decoding: name, as: UTF8.self))> that closes nothing")
                return
            }
            if depth < open.count - 1 {
                note(
                    bytes, range.lowerBound, "<\(String(decoding: open[open.count - 1], as: UTF8.self))> is not closed")
                while open.count > depth + 1 { writeEndTag(open.removeLast(), into: &output) }
            }
            open.removeLast()
            output.append(contentsOf: bytes[range])
            return
        }
        var last = range.upperBound - 1
        while last > nameEnd, isSpace(bytes[last]) { last -= 1 }
        let selfClosing = bytes[last] == UInt8(ascii: "/")
        // The tag, its attribute values repaired.
        var index = range.lowerBound
        var quote: UInt8 = 0
        while index < range.upperBound {
            let byte = bytes[index]
            if quote != 0, byte == UInt8(ascii: "&") {
                index = reference(bytes, at: index, final: true, into: &output) ?? index + 1
                continue
            }
            if quote != 0 {
                if byte == quote { quote = 0 }
                if byte == UInt8(ascii: "<") {
                    output.append(contentsOf: "&lt;".utf8)
                    index += 1
                    continue
                }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            }
            output.append(byte)
            index += 1
        }
        if selfClosing {
            output.append(UInt8(ascii: ">"))
        } else if Self.emptyHTMLElements.contains(where: { $0.elementsEqual(name.lazy.map(lower)) }) {
            output.append(contentsOf: "/>".utf8)
        } else {
            output.append(UInt8(ascii: ">"))
            open.append(name)
        }
    }

    private func writeEndTag(_ name: [UInt8], into output: inout [UInt8]) {
        output.append(contentsOf: "</".utf8)
        output.append(contentsOf: name)
        output.append(UInt8(ascii: ">"))
    }

    /// The input has ended: closes what is still open.
    private mutating func closeAll(into output: inout [UInt8]) {
        guard !open.isEmpty else { return }
        if firstRepair == nil {
            firstRepair = FeedParseError(
                message: "the input ends inside <\(String(decoding: open[open.count - 1], as: UTF8.self))>",
                line: lines + 1, column: column + 1)
        }
        while let name = open.popLast() { writeEndTag(name, into: &output) }
    }

    /// Writes the reference at `index` (a `&`), repaired if need be, and returns
    /// where it ends; `nil` when the input ends before that can be told.
    private mutating func reference(
        _ bytes: UnsafeBufferPointer<UInt8>, at index: Int, final: Bool,
        into output: inout [UInt8]
    ) -> Int? {
        let count = bytes.count
        var end = index + 1
        guard end < count else { return final ? bare(bytes, index, &output) : nil }
        if bytes[end] == UInt8(ascii: "#") {
            end += 1
            let hex = end < count && (bytes[end] | 0x20) == UInt8(ascii: "x")
            if hex { end += 1 }
            let digitsStart = end
            while end < count, end - digitsStart < 10,
                isDigit(bytes[end]) || (hex && (bytes[end] | 0x20) &- 97 < 6)
            { end += 1 }
            if end == count, !final { return nil }
            guard end > digitsStart, end < count, bytes[end] == UInt8(ascii: ";") else {
                return bare(bytes, index, &output)
            }
            output.append(contentsOf: bytes[index...end])
            return end + 1
        }
        guard isNameStart(bytes[end]) else { return bare(bytes, index, &output) }
        while end < count, end - index <= 32, isNameByte(bytes[end]) { end += 1 }
        if end == count, !final { return nil }
        guard end < count, bytes[end] == UInt8(ascii: ";") else { return bare(bytes, index, &output) }
        let name = UnsafeBufferPointer(rebasing: bytes[(index + 1)..<end])
        if !Self.isPredefined(name), !declaresHTMLEntities, let code = HTMLEntities.codePoint(named: name) {
            note(bytes, index, "the entity \"\(String(decoding: name, as: UTF8.self))\" is HTML's, not XML's")
            output.append(contentsOf: "&#\(code);".utf8)
        } else {
            output.append(contentsOf: bytes[index...end])
        }
        return end + 1
    }

    private mutating func bare(_ bytes: UnsafeBufferPointer<UInt8>, _ index: Int, _ output: inout [UInt8]) -> Int {
        note(bytes, index, "a bare \"&\" (not a reference)")
        output.append(contentsOf: "&amp;".utf8)
        return index + 1
    }

    /// Keeps the first repair's position and description.
    private mutating func note(_ bytes: UnsafeBufferPointer<UInt8>, _ index: Int, _ what: String) {
        guard firstRepair == nil else { return }
        var line = lines, lineStart = -column
        for offset in 0..<index where bytes[offset] == 0x0A {
            line += 1
            lineStart = offset + 1
        }
        firstRepair = FeedParseError(message: what, line: line + 1, column: index - lineStart + 1)
    }

    /// Counts the line ends of `bytes[..<end]`, the part processed for good.
    private mutating func advance(_ bytes: UnsafeBufferPointer<UInt8>, to end: Int) {
        processed += max(0, end)
        for offset in 0..<max(0, end) {
            if bytes[offset] == 0x0A {
                lines += 1
                column = 0
            } else {
                column += 1
            }
        }
    }

    private func isNameStart(_ byte: UInt8) -> Bool { isLetter(byte) || byte == UInt8(ascii: "_") || byte >= 0x80 }
    private func isNameByte(_ byte: UInt8) -> Bool {
        isNameStart(byte) || isDigit(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
            || byte == UInt8(ascii: ":")
    }

    /// Whether `declaration` (`!DOCTYPE rss PUBLIC "…" "…"`, without its internal
    /// subset) names a well-known DTD, as the parsers tell it.
    private static func namesKnownDTD(_ declaration: [UInt8]) -> Bool {
        let text = String(decoding: declaration, as: UTF8.self)
        guard text.hasPrefix("!DOCTYPE") else { return false }
        let parts = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\"" || $0 == "'" })
        // Outside quotes, inside, outside…: the literals are the odd parts.
        let literals = stride(from: 1, to: parts.count, by: 2).map { String(parts[$0]) }
        let isPublic = parts.first.map { $0.split(whereSeparator: \.isWhitespace).contains("PUBLIC") } ?? false
        return KnownDTD.recognises(
            publicID: isPublic ? literals.first : nil,
            systemID: isPublic ? literals.dropFirst().first : literals.first)
    }

    private static func isPredefined(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        switch String(decoding: name, as: UTF8.self) {
        case "amp", "lt", "gt", "quot", "apos": true
        default: false
        }
    }
}
