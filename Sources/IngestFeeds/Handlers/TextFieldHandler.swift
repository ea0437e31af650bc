import IngestCore

/// Reads one text element of a feed: its text, and — when it holds elements, as
/// HTML written without escaping or Atom XHTML content do — their markup too, in
/// document order (`Hello <b>world</b>.` stays that, not `Hello .` plus `world`).
///
/// A container handler keeps one and hands it every text child; the value is read
/// in the container's ``ElementHandler/didFinish(child:element:)``.
final class TextFieldHandler: ElementHandler {
    // Safety: the session outlives its handlers (FeedParseSession says why); the
    // buffers are used by one thread, and no call on them calls back into this handler.
    unowned(unsafe) let session: FeedParseSession
    /// The text, and markup of child elements, read so far.
    @exclusivity(unchecked) private(set) var buffer: [UInt8] = []
    /// Write text escaped (`&lt;`), for XHTML, whose markup is kept as markup.
    var escapesText = false
    /// XHTML's wrapping `<div>` (RFC 4287 section 3.1.1.3), and a lone wrapping
    /// `<div>` of naked HTML (gofeed strips both): dropped, its content kept.
    var stripsWrappingDiv = false

    private var depth = 0
    @exclusivity(unchecked) private var markupHandlers: [MarkupHandler] = []
    @exclusivity(unchecked) private var startTagEnds: [Int] = []
    private var topLevelElements = 0
    private var topLevelText = false
    private var firstIsDiv = false
    private var divContent = 0..<0

    init(session: FeedParseSession) {
        self.session = session
        buffer.reserveCapacity(256)
    }

    var accumulatesText: Bool { false }

    /// Itself, set to read its next element as plain text or HTML (`markup: false`)
    /// or as XHTML (`markup: true`): call from ``ElementHandler/handler(forChild:)``.
    func reading(xhtml: Bool = false, stripsWrappingDiv strips: Bool = false) -> TextFieldHandler {
        escapesText = xhtml
        stripsWrappingDiv = strips
        return self
    }

    /// Whether child elements were read (as markup).
    var hadMarkup: Bool { topLevelElements > 0 }

    func didStart(_ element: ElementStart) throws {
        buffer.removeAll(keepingCapacity: true)
        depth = element.depth
        topLevelElements = 0
        topLevelText = false
        firstIsDiv = false
        try session.enter(element)
    }

    func didReceive(text: UnsafeBufferPointer<UInt8>) throws {
        if stripsWrappingDiv, !topLevelText, text.contains(where: { !isSpace($0) }) { topLevelText = true }
        try appendText(text)
    }

    func handler(forChild element: ElementStart) -> (any ElementHandler)? {
        markupHandler(level: 1)
    }

    func didEnd(_ element: ElementEnd) {
        base = session.base
        session.leave(depth: element.depth)
    }

    /// The base in scope inside the element (its own xml:base included), kept for
    /// the parent, which reads the value after the element has ended.
    private(set) var base: URIReference?

    /// `reference` resolved against the element's base.
    func resolve(_ reference: String) throws -> String {
        try session.resolve(reference, against: base)
    }

    /// HTML with its relative links resolved against the element's base.
    func resolveLinks(inHTML html: String) throws -> String {
        try session.resolveLinks(inHTML: html, against: base)
    }

    /// The value: trimmed, `nil` when empty; XHTML's wrapping `<div>` dropped.
    var value: String? {
        var range = 0..<buffer.count
        if stripsWrappingDiv, topLevelElements == 1, firstIsDiv, !topLevelText { range = divContent }
        return buffer.withUnsafeBufferPointer { bytes in
            var start = range.lowerBound, end = range.upperBound
            while start < end, isSpace(bytes[start]) { start += 1 }
            while end > start, isSpace(bytes[end - 1]) { end -= 1 }
            guard start < end else { return nil }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
        }
    }

    // MARK: - Markup

    func markupHandler(level: Int) -> MarkupHandler {
        while markupHandlers.count < level {
            markupHandlers.append(MarkupHandler(field: self, level: markupHandlers.count + 1))
        }
        return markupHandlers[level - 1]
    }

    func appendText(_ text: UnsafeBufferPointer<UInt8>) throws {
        // The handler stack bounds the text it keeps; this handler keeps its own.
        let limit = session.options.limits.maxTextBytes
        guard buffer.count + text.count <= limit else {
            let error = IngestError(.data, "a text element holds more than \(limit) bytes (ParseLimits.maxTextBytes)")
            session.handlerError = error
            throw error
        }
        guard escapesText else {
            buffer.append(contentsOf: text)
            return
        }
        for byte in text {
            switch byte {
            case UInt8(ascii: "&"): buffer.append(contentsOf: "&amp;".utf8)
            case UInt8(ascii: "<"): buffer.append(contentsOf: "&lt;".utf8)
            case UInt8(ascii: ">"): buffer.append(contentsOf: "&gt;".utf8)
            default: buffer.append(byte)
            }
        }
    }

    func openTag(_ element: ElementStart, level: Int) throws {
        try session.enter(element)
        let name = tagName(element.name)
        if level == 1 {
            topLevelElements += 1
            if topLevelElements == 1 { firstIsDiv = name == "div" }
        }
        buffer.append(UInt8(ascii: "<"))
        buffer.append(contentsOf: name.utf8)
        for attribute in element.attributes {
            buffer.append(0x20)
            buffer.append(contentsOf: attribute.name.qualified.utf8)
            buffer.append(contentsOf: "=\"".utf8)
            for byte in attribute.value {
                switch byte {
                case UInt8(ascii: "&"): buffer.append(contentsOf: "&amp;".utf8)
                case UInt8(ascii: "<"): buffer.append(contentsOf: "&lt;".utf8)
                case UInt8(ascii: "\""): buffer.append(contentsOf: "&quot;".utf8)
                default: buffer.append(byte)
                }
            }
            buffer.append(UInt8(ascii: "\""))
        }
        buffer.append(UInt8(ascii: ">"))
        if level == 1, topLevelElements == 1, firstIsDiv { divContent = buffer.count..<buffer.count }
        startTagEnds.append(buffer.count)
    }

    func closeTag(_ element: ElementEnd, level: Int) {
        session.leave(depth: element.depth)
        let name = tagName(element.name)
        if level == 1, topLevelElements == 1, firstIsDiv { divContent = divContent.lowerBound..<buffer.count }
        let startTagEnd = startTagEnds.removeLast()
        if buffer.count == startTagEnd, Self.voidElements.contains(name) {
            buffer.removeLast()
            buffer.append(contentsOf: "/>".utf8)
        } else {
            buffer.append(contentsOf: "</".utf8)
            buffer.append(contentsOf: name.utf8)
            buffer.append(UInt8(ascii: ">"))
        }
    }

    /// An XHTML element by its local name; anything else as written.
    private func tagName(_ name: Name) -> String {
        name.namespaceURI == FeedNamespaces.xhtml || name.namespaceURI == nil
            ? session.vocabulary.local(name) : name.qualified
    }

    /// HTML's elements that have no end tag, written `<br/>`.
    private static let voidElements: Set<String> = [
        "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source", "track", "wbr"
    ]
}

/// An element inside a ``TextFieldHandler``'s element, written back as markup.
final class MarkupHandler: ElementHandler {
    // Safety: the field handler made this one and holds it, and is below it on the
    // stack whenever it runs.
    unowned(unsafe) let field: TextFieldHandler
    let level: Int

    init(field: TextFieldHandler, level: Int) {
        self.field = field
        self.level = level
    }

    var accumulatesText: Bool { false }

    func didStart(_ element: ElementStart) throws { try field.openTag(element, level: level) }
    func didReceive(text: UnsafeBufferPointer<UInt8>) throws { try field.appendText(text) }
    func handler(forChild element: ElementStart) -> (any ElementHandler)? { field.markupHandler(level: level + 1) }
    func didEnd(_ element: ElementEnd) { field.closeTag(element, level: level) }
}
