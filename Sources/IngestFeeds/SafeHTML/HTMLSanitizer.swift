import CLibXML2

/// One sanitizing pass: libxml2's HTML push parser reads the markup as a browser
/// would (unclosed tags closed, misnested ones mended, references decoded) and
/// calls back for each start tag, end tag and run of text; each is written out at
/// once, or not, by ``HTMLAllowList``'s rules, every text and attribute value
/// escaped again. Nothing but the output and the open elements is kept.
final class HTMLSanitizer {
    /// What an element libxml2 opened became, so its end does the same.
    private enum Open {
        /// Written: its end tag is written too.
        case written(String)
        /// Written without an end tag, or not written at all (its content is).
        case silent
        /// Dropped with its content.
        case dropping
    }

    /// The deepest nesting written; deeper tags are dropped, their text kept.
    static let maxDepth = 100
    /// The deepest nesting read: past it the parse stops (the rest of the piece
    /// is lost). libxml2 looks for an end tag's element down its whole stack.
    static let maxOpen = 1024
    /// The most bytes one parse reads; longer HTML is sanitized in pieces of about
    /// this size, cut before a `<`, each closed at its end. libxml2's HTML parser
    /// takes time that grows with the square of some counts within a document
    /// (attributes of one tag, unmatched end tags), so the pieces keep hostile
    /// input linear; well-meant HTML loses at most the formatting across a cut.
    static let pieceSize = 64 * 1024

    private var output: [UInt8] = []
    /// The parse under way, to stop it.
    private var context: htmlParserCtxtPtr?
    private var open: [Open] = []
    private var writtenDepth = 0
    /// How many open elements drop their content (more than 0: nothing is written).
    private var dropping = 0

    private init(capacity: Int) { output.reserveCapacity(capacity + capacity / 8) }

    /// `html`, sanitized, ``pieceSize`` bytes or so at a time.
    static func sanitize(_ html: String) -> String {
        var html = html
        return html.withUTF8 { bytes in
            let sanitizer = HTMLSanitizer(capacity: bytes.count)
            var start = 0
            while start < bytes.count {
                let end = pieceEnd(bytes, from: start)
                let piece = UnsafeBufferPointer(rebasing: bytes[start..<end])
                // No parser (out of memory): the piece as text is still safe.
                if !sanitizer.parse(piece) { sanitizer.writeText(piece) }
                start = end
            }
            return String(decoding: sanitizer.output, as: UTF8.self)
        }
    }

    /// Where the piece that starts at `start` ends: the end of `bytes`, else the
    /// last `<` in the second half of ``pieceSize`` bytes, else the last character
    /// boundary within them.
    private static func pieceEnd(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        guard bytes.count - start > pieceSize else { return bytes.count }
        let limit = start + pieceSize
        if let cut = bytes[(start + pieceSize / 2)..<limit].lastIndex(of: UInt8(ascii: "<")) { return cut }
        var end = limit
        while end > start + 1, bytes[end] & 0xC0 == 0x80 { end -= 1 }
        return end
    }

    /// Runs libxml2 over `bytes`, in a `<body>` of its own so that text outside any
    /// element is not put in an implied `<p>`; `false` when no parser could be made.
    private func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var handler = Self.handler()
        let this = Unmanaged.passUnretained(self).toOpaque()
        guard let context = htmlCreatePushParserCtxt(&handler, this, nil, 0, nil, XML_CHAR_ENCODING_UTF8) else {
            return false
        }
        self.context = context
        defer {
            self.context = nil
            htmlFreeParserCtxt(context)
        }
        let options =
            HTML_PARSE_NONET.rawValue | HTML_PARSE_NOERROR.rawValue | HTML_PARSE_NOWARNING.rawValue
            | HTML_PARSE_NOIMPLIED.rawValue | HTML_PARSE_IGNORE_ENC.rawValue
        htmlCtxtUseOptions(context, Int32(options))
        let wrapper: StaticString = "<html><body>"
        wrapper.withUTF8Buffer { start in
            start.withMemoryRebound(to: CChar.self) { _ = htmlParseChunk(context, $0.baseAddress, Int32($0.count), 0) }
        }
        // A piece is at most `pieceSize` bytes, so its count fits libxml2's `int`.
        bytes.withMemoryRebound(to: CChar.self) { _ = htmlParseChunk(context, $0.baseAddress, Int32($0.count), 0) }
        _ = htmlParseChunk(context, nil, 0, 1)
        // libxml2 closes what is open at the end; whatever it left is closed here.
        while let element = open.popLast() { close(element) }
        return true
    }

    // MARK: - Events

    private func start(_ name: String, _ attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?) {
        guard open.count < Self.maxOpen else {
            if let context { xmlStopParser(context) }
            open.append(.silent)
            return
        }
        guard dropping == 0 else {
            open.append(.silent)
            return
        }
        switch HTMLAllowList.rule(for: name) {
        case .dropWithContent?:
            dropping += 1
            open.append(.dropping)
        case .keep(let void)? where writtenDepth < Self.maxDepth:
            writeStartTag(name, attributes)
            if void {
                open.append(.silent)
            } else {
                writtenDepth += 1
                open.append(.written(name))
            }
        case .keep?, nil:
            open.append(.silent)
        }
    }

    private func end() {
        guard let element = open.popLast() else { return }
        close(element)
    }

    private func close(_ element: Open) {
        switch element {
        case .written(let name):
            writtenDepth -= 1
            output.append(UInt8(ascii: "<"))
            output.append(UInt8(ascii: "/"))
            output.append(contentsOf: name.utf8)
            output.append(UInt8(ascii: ">"))
        case .silent:
            break
        case .dropping:
            dropping -= 1
        }
    }

    private func text(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard dropping == 0 else { return }
        writeText(bytes)
    }

    // MARK: - Writing

    private func writeStartTag(_ name: String, _ attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?) {
        output.append(UInt8(ascii: "<"))
        output.append(contentsOf: name.utf8)
        var seen: Set<String> = []
        var index = 0
        while let attributes, let namePointer = attributes[index] {
            let attribute = String(cString: namePointer)
            let value = attributes[index + 1].map { String(cString: $0) }
            index += 2
            guard seen.insert(attribute).inserted, let decision = Self.keptValue(of: attribute, value, on: name) else {
                continue
            }
            output.append(UInt8(ascii: " "))
            output.append(contentsOf: attribute.utf8)
            guard var kept = decision else { continue }
            output.append(contentsOf: "=\"".utf8)
            kept.withUTF8 { writeEscaped($0, quotes: true) }
            output.append(UInt8(ascii: "\""))
        }
        output.append(UInt8(ascii: ">"))
    }

    /// What of `attribute` (lowercase, as libxml2 reports it) is written on element
    /// `element`: `nil` for nothing, `.some(nil)` for the name alone (`controls`).
    private static func keptValue(of attribute: String, _ value: String?, on element: String) -> String?? {
        guard HTMLAllowList.attributes.contains(attribute) else { return nil }
        guard let value else { return HTMLAllowList.urlAttributes.contains(attribute) ? nil : .some(nil) }
        if HTMLAllowList.urlAttributes.contains(attribute) {
            guard SafeURL.isAllowed(value, allowsImageData: element == "img" && attribute == "src") else { return nil }
            return value
        }
        switch attribute {
        case "srcset":
            guard SafeURL.isAllowedSourceSet(value) else { return nil }
            return value
        case "style":
            guard let style = SafeStyle.filter(value) else { return nil }
            return style
        default: return value
        }
    }

    fileprivate func writeText(_ bytes: UnsafeBufferPointer<UInt8>) { writeEscaped(bytes, quotes: false) }

    private func writeEscaped(_ bytes: UnsafeBufferPointer<UInt8>, quotes: Bool) {
        HTMLText.appendEscaped(bytes, quotes: quotes, to: &output)
    }

    // MARK: - libxml2's callbacks

    /// The SAX handler: start and end tags, text (also what libxml2 calls blanks,
    /// and the bodies of `script` and `style`, which are dropped anyway); comments,
    /// processing instructions, the DOCTYPE and diagnostics are not asked for.
    private static func handler() -> htmlSAXHandler {
        var handler = htmlSAXHandler()
        // SAX2's mark makes libxml2 report errors to `serror`, which ignores them,
        // rather than to a handler some other code set for the thread.
        handler.initialized = UInt32(XML_SAX2_MAGIC)
        handler.serror = { _, _ in }
        handler.startElement = { user, name, attributes in
            guard let name else { return }
            HTMLSanitizer.with(user) { $0.start(String(cString: name), attributes) }
        }
        handler.endElement = { user, _ in HTMLSanitizer.with(user) { $0.end() } }
        let characters: charactersSAXFunc = { user, bytes, length in
            guard let bytes, length > 0 else { return }
            HTMLSanitizer.with(user) { $0.text(UnsafeBufferPointer(start: bytes, count: Int(length))) }
        }
        handler.characters = characters
        handler.ignorableWhitespace = characters
        handler.cdataBlock = characters
        return handler
    }

    /// Calls `body` with the sanitizer libxml2 was given as user data.
    private static func with(_ user: UnsafeMutableRawPointer?, _ body: (HTMLSanitizer) -> Void) {
        guard let user else { return }
        // Safety: `parse` passes itself unretained as the user data and libxml2 calls
        // back only from `htmlParseChunk`, inside `parse`, so the sanitizer is alive
        // for every callback: no retain and release per event.
        Unmanaged<HTMLSanitizer>.fromOpaque(user)._withUnsafeGuaranteedRef(body)
    }
}
