import IngestCore
import CLibXML2

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// libxml2's SAX2 push parser as a ``/IngestCore/PushParser``: the parser ``LibXML2Parser``
/// drives, for bytes that are pushed rather than read, with its events and safety
/// settings.
///
/// The parser context is its own SAX user data (so libxml2's default DTD callbacks,
/// which keep entity and attribute-default declarations, work unchanged); the
/// parser hangs off the context's `_private`, which libxml2 also copies into the
/// contexts it makes to parse the replacement text of internal entities.
public final class LibXML2PushParser: PushParser {
    /// The input's name in error messages.
    public let displayName: String
    let context: xmlParserCtxtPtr
    let receiver: any ParseEventReceiver
    let names = NameTable()
    /// The first error: a handler's, a refused external entity, or the first of
    /// libxml2's errors that makes the document malformed.
    var failure: IngestError?
    /// Where the parser stood when the current push began (see ``withInputErrorsCaptured(_:)``).
    var pushStart: PushStart?
    // Safety (`@exclusivity(unchecked)` on the scratch buffers below): one thread
    // drives a parser and a receiver must not feed the parser calling it (see
    // ParseEventReceiver), so a callback never runs while another one is accessing
    // them.
    @exclusivity(unchecked) private var attributeScratch: [Attribute] = []
    /// Bytes of an Expat-style `URI␁local␁prefix` name being built.
    @exclusivity(unchecked) private var nameScratch: [UInt8] = []
    /// Attribute values with their references expanded, back to back, and which
    /// attribute each belongs to.
    @exclusivity(unchecked) private var expandedValues: [UInt8] = []
    @exclusivity(unchecked) private var expandedRanges: [(index: Int, start: Int, count: Int)] = []
    @exclusivity(unchecked) private var valueScratch: [UInt8] = []
    private let huge: Bool
    /// Whether the parse goes on past errors that make the document malformed
    /// (`XML_PARSE_RECOVER`); see ``init(receiver:huge:recovers:encoding:limits:displayName:)``.
    public let recovers: Bool
    /// Bounds the bytes libxml2 holds without an event, beyond the last push, as
    /// ``ExpatParser/limits`` does for Expat; `nil`: only libxml2's own limits.
    public let limits: ParseLimits?
    /// The first error recovered from, without the input's name.
    private var recoveredError: IngestError?
    /// libxml2's own bounds on one value: `XML_MAX_TEXT_LENGTH`, and
    /// `XML_MAX_HUGE_LENGTH` with `XML_PARSE_HUGE`.
    static let maxValueBytes = 10_000_000, hugeMaxValueBytes = 1_000_000_000
    /// CDATA text with its line ends normalised.
    @exclusivity(unchecked) private var cdataScratch: [UInt8] = []
    /// The last CDATA piece ended with CR: a LF starting the next piece is its pair.
    private var cdataEndedWithCR = false
    /// Names of the open elements, so an end tag needs no lookup.
    @exclusivity(unchecked) private var openNames: [Name] = []
    /// What entity references have expanded to, against the bytes pushed so far
    /// (not counted with `huge`, which lifts libxml2's amplification check too).
    private var expansion = EntityExpansionBudget()
    /// The bytes of the attributes the DTD's defaults added, bounded the same way.
    private var attributeDefaults = EntityExpansionBudget()
    private var pushedBytes = 0
    /// Hears what the parser read past (an entity kept as written); `nil`: nobody.
    public var onWarning: ParseWarningHandler?
    /// The undeclared entities kept as written, warned about once each.
    private var skipped = SkippedEntities()

    /// What Expat's namespace triplets use between URI, local name and prefix.
    static let namespaceSeparator = NameTable.namespaceSeparator

    /// A parser sending the events of one document to `receiver`.
    ///
    /// - Parameters:
    ///   - receiver: where the events go.
    ///   - huge: lifts libxml2's limits (see ``LibXML2Parser/allowsHugeDocuments``).
    ///   - recovers: libxml2's recovering mode (`XML_PARSE_RECOVER`), for documents
    ///     that are not quite XML — feeds in the wild with an undeclared prefix, a bare
    ///     `&` or a missing end tag. Errors that make the document malformed no longer
    ///     stop the parse: libxml2 repairs what it can and reads on, and
    ///     ``firstRecoveredError`` keeps the first of them. An element with an
    ///     undeclared prefix arrives with no namespace and its prefixed name as its
    ///     local name (`content:encoded`), as libxml2's own tree has it. Errors from
    ///     the receiver and refused external entities still stop the parse; where
    ///     libxml2 itself gives up (its limits, a hopeless document) the events end
    ///     early, with ``firstRecoveredError`` set.
    ///   - encoding: the document's encoding, overriding its XML declaration — what an
    ///     HTTP `Content-Type` charset does (RFC 7303); any name iconv knows. A byte
    ///     order mark is not looked at: leave this `nil` when the document has one.
    ///   - limits: bounds the bytes of one token without an event (a tag with its
    ///     attributes, a comment), which libxml2 would otherwise hold whole — the bound
    ///     that still holds with `huge`. `nil`: only libxml2's own limits.
    ///   - displayName: the input's name in error messages.
    /// - Throws: ``/IngestCore/IngestError`` (`.data`) when libxml2 and iconv do not know
    ///   `encoding`.
    public init(
        receiver: any ParseEventReceiver, huge: Bool = false, recovers: Bool = false,
        encoding: String? = nil, limits: ParseLimits? = nil, displayName: String = "<memory>"
    ) throws {
        LibXML2Encodings.ready
        self.receiver = receiver
        self.displayName = displayName
        self.huge = huge
        self.recovers = recovers
        self.limits = limits
        if let encoding {
            guard let converter = xmlFindCharEncodingHandler(encoding) else {
                throw IngestError(
                    .data, "cannot read the encoding \"\(encoding)\": neither libxml2 nor iconv knows it",
                    file: displayName)
            }
            xmlCharEncCloseFunc(converter)
        }
        var handler = Self.makeHandler()
        guard let context = xmlCreatePushParserCtxt(&handler, nil, nil, 0, nil) else {
            throw IngestError(.io, "libxml2 could not create a parser context")
        }
        self.context = context
        // Not XML_PARSE_OLD10, though Expat reads names by the rules before XML 1.0's
        // 5th edition: with it libxml2 also refuses every version but 1.0, which
        // Expat accepts. So libxml2 accepts the few names only the 5th edition allows.
        var options = Int32(XML_PARSE_NONET.rawValue)
        if huge { options |= Int32(XML_PARSE_HUGE.rawValue) }
        if recovers { options |= Int32(XML_PARSE_RECOVER.rawValue) }
        if let encoding {
            // Resetting a fresh push context with an encoding is libxml2's public way to
            // give it one; the declaration is then ignored.
            xmlCtxtResetPush(context, nil, 0, nil, encoding)
            options |= Int32(XML_PARSE_IGNORE_ENC.rawValue)
        }
        xmlCtxtUseOptions(context, options)
        context.pointee._private = Unmanaged.passUnretained(self).toOpaque()
    }

    deinit {
        // The SAX2 start-document callback made a document to hold the DTD's
        // declarations; nothing else was built into it.
        if let document = context.pointee.myDoc {
            xmlFreeDoc(document)
            context.pointee.myDoc = nil
        }
        xmlFreeParserCtxt(context)
    }

    /// Pushes `bytes` into the parser; `isFinal` ends the document. Any error stops
    /// the parse: a malformed document, and also what libxml2 raises without a
    /// context (a byte the declared encoding does not define) or only signals by
    /// halting, which leave the document counted as well-formed. Recovering
    /// (``recovers``), what makes the document malformed is kept as
    /// ``firstRecoveredError`` instead and the parse goes on; errors raised without
    /// a context and the receiver's own still stop it.
    func parse(_ bytes: UnsafeRawBufferPointer, isFinal: Bool) -> Result<Void, IngestError> {
        if let failure { return .failure(failure) }
        pushedBytes += bytes.count
        let chunk = bytes.baseAddress?.assumingMemoryBound(to: CChar.self)
        let status = withInputErrorsCaptured { xmlParseChunk(context, chunk, Int32(bytes.count), isFinal ? 1 : 0) }
        if failure == nil, let limits, heldBytes > limits.maxTextBytes + bytes.count {
            failure = IngestError.tokenLimit(limits.maxTextBytes, position: currentPosition)
        }
        if let failure {
            xmlStopParser(context)
            return .failure(failure)
        }
        // A non-zero status also comes with warnings and validity errors, which leave
        // the document well-formed and the parser running; a halted parser
        // (`disableSAX`) or a malformed document is an error whatever was reported.
        if status != 0 && (context.pointee.wellFormed == 0 || context.pointee.disableSAX != 0) {
            let error = IngestError(.data, "not well-formed (libxml2 error \(status))", position: currentPosition)
            if recovers {
                // libxml2 read on (or, halted, the events end early): the document is marked.
                if recoveredError == nil { recoveredError = error }
                return .success(())
            }
            failure = error
            return .failure(error)
        }
        return .success(())
    }

    /// In recovering mode, the first error libxml2 recovered from, with the input's
    /// name and position; `nil` while the document is well-formed (and always when
    /// not ``recovers``, since the first such error stops the parse).
    public var firstRecoveredError: IngestError? { recoveredError?.inFile(displayName) }

    /// Pushes `bytes` into libxml2 (`xmlParseChunk`) and delivers the events they
    /// complete; throws `.data` at the first error, which stops the parser (unless
    /// ``recovers``: see ``firstRecoveredError``).
    public func feed(_ bytes: UnsafeRawBufferPointer) throws {
        try parse(bytes, isFinal: false).mapError { $0.inFile(displayName) }.get()
    }

    /// Pushes the end of the document; throws `.data` when it is incomplete.
    public func finish() throws {
        try parse(UnsafeRawBufferPointer(start: nil, count: 0), isFinal: true).mapError { $0.inFile(displayName) }.get()
    }

    // MARK: - The SAX2 handler

    private static func makeHandler() -> xmlSAXHandler {
        var handler = LibXML2SAXHandler.secure()
        handler.startElementNs = { context, localName, prefix, uri, _, _, attributeCount, defaulted, attributes in
            LibXML2PushParser.with(context) {
                guard defaulted == 0 || $0.spendAttributeDefaults(Int(attributeCount), Int(defaulted), attributes)
                else { return }
                $0.startElement(context, localName!, prefix, uri, Int(attributeCount), attributes)
            }
        }
        handler.endElementNs = { context, _, _, _ in
            LibXML2PushParser.with(context) { $0.endElement(context) }
        }
        handler.characters = { context, text, length in
            LibXML2PushParser.with(context) { $0.characters(context, text!, Int(length)) }
        }
        handler.ignorableWhitespace = handler.characters
        handler.cdataBlock = { context, text, length in
            LibXML2PushParser.with(context) { $0.cdata(context, text!, Int(length)) }
        }
        handler.reference = { context, name in
            LibXML2PushParser.with(context) { $0.reference(name!) }
        }
        handler.serror = { context, error in
            guard let context, let error else { return }
            LibXML2PushParser.with(context) { $0.report(error.pointee) }
        }
        return handler
    }

    /// Calls `body` with the session of a parser context: the document's own, or one
    /// libxml2 made to parse an entity's replacement text (it copies `_private`).
    private static func with(_ context: UnsafeMutableRawPointer?, _ body: (LibXML2PushParser) -> Void) {
        let parser = context!.assumingMemoryBound(to: xmlParserCtxt.self)
        // Safety: the parser object owns the context (its `deinit` frees it) and
        // libxml2 calls back only from `xmlParseChunk`, which the object calls on
        // itself, so it outlives every callback: no retain and release per event.
        // (The contexts libxml2 makes for entity text live only inside that call.)
        Unmanaged<LibXML2PushParser>.fromOpaque(parser.pointee._private!)._withUnsafeGuaranteedRef { session in
            // libxml2 stops expanding entity references (even `&amp;`) once it knows a
            // document is malformed; recovering means reading on as if it were not.
            if session.recovers { session.context.pointee.wellFormed = 1 }
            body(session)
        }
    }

    /// The bytes libxml2 holds unparsed: a token waiting for its end.
    private var heldBytes: Int {
        guard let input = context.pointee.input, let cur = input.pointee.cur, let end = input.pointee.end else {
            return 0
        }
        return end - cur
    }

    // MARK: - Positions

    /// Where the document's parser stands now.
    var currentPosition: SourcePosition {
        guard let input = context.pointee.input else { return .start }
        let offset = Int(input.pointee.consumed) + (input.pointee.base.map { input.pointee.cur - $0 } ?? 0)
        return SourcePosition(line: Int(input.pointee.line), column: Int(input.pointee.col), byteOffset: offset)
    }

    /// The position of the `<` of the tag libxml2 has just read: it reports a tag
    /// once its `>` is consumed, so this looks back for the `<` (which cannot occur
    /// inside a tag) and corrects line and column for what lies between.
    private var tagPosition: SourcePosition {
        guard let input = context.pointee.input, let base = input.pointee.base, let cur = input.pointee.cur else {
            return currentPosition
        }
        var p = cur
        repeat { p -= 1 } while p > base && p.pointee != UInt8(ascii: "<")
        guard p.pointee == UInt8(ascii: "<") else { return currentPosition }
        // Line and column at `cur`, less the lines and characters of the tag.
        var newlines = 0, continuations = 0
        for byte in UnsafeBufferPointer(start: p, count: cur - p) {
            newlines &+= byte == UInt8(ascii: "\n") ? 1 : 0
            continuations &+= byte & 0xC0 == 0x80 ? 1 : 0
        }
        let offset = Int(input.pointee.consumed) + (p - base)
        if newlines == 0 {
            let characters = (cur - p) - continuations
            return SourcePosition(
                line: Int(input.pointee.line), column: max(1, Int(input.pointee.col) - characters),
                byteOffset: offset)
        }
        // The tag spans lines: count the characters before `<` on its own line.
        var q = p, before = 0
        while q > base, (q - 1).pointee != UInt8(ascii: "\n") {
            q -= 1
            if q.pointee & 0xC0 != 0x80 { before += 1 }
        }
        return SourcePosition(line: Int(input.pointee.line) - newlines, column: before + 1, byteOffset: offset)
    }

    /// Where an event happened: in the document itself, where its tag starts; inside
    /// an entity's replacement text, where the document's parser stands (just past
    /// the entity reference).
    private func position(of parser: UnsafeMutableRawPointer?, tag: Bool) -> SourcePosition {
        if UnsafeMutableRawPointer(context) != parser { return currentPosition }
        return tag ? tagPosition : currentPosition
    }

    // MARK: - Names

    /// The interned name of `prefix:localName` in namespace `uri`, built exactly as
    /// Expat's `URI␁local␁prefix` triplets are, so both parsers give equal names.
    private func intern(
        _ localName: UnsafePointer<xmlChar>, _ prefix: UnsafePointer<xmlChar>?,
        _ uri: UnsafePointer<xmlChar>?
    ) -> Name {
        guard let uri else {
            guard let prefix else {
                return names.intern(
                    UnsafeBufferPointer(start: localName, count: strlen(localName)),
                    namespaceSeparator: Self.namespaceSeparator)
            }
            // Only in recovering mode: a prefix no declaration binds. The name keeps
            // it, with no namespace, as libxml2's own tree does: `content:encoded`.
            nameScratch.removeAll(keepingCapacity: true)
            nameScratch.append(contentsOf: UnsafeBufferPointer(start: prefix, count: strlen(prefix)))
            nameScratch.append(UInt8(ascii: ":"))
            nameScratch.append(contentsOf: UnsafeBufferPointer(start: localName, count: strlen(localName)))
            return nameScratch.withUnsafeBufferPointer { names.intern($0) }
        }
        nameScratch.removeAll(keepingCapacity: true)
        nameScratch.append(contentsOf: UnsafeBufferPointer(start: uri, count: strlen(uri)))
        nameScratch.append(Self.namespaceSeparator)
        nameScratch.append(contentsOf: UnsafeBufferPointer(start: localName, count: strlen(localName)))
        if let prefix {
            nameScratch.append(Self.namespaceSeparator)
            nameScratch.append(contentsOf: UnsafeBufferPointer(start: prefix, count: strlen(prefix)))
        }
        return nameScratch.withUnsafeBufferPointer {
            names.intern($0, namespaceSeparator: Self.namespaceSeparator)
        }
    }

    // MARK: - Events

    private func fail(_ error: IngestError) {
        if failure == nil { failure = error }
        xmlStopParser(context)
    }

    /// Counts `count` bytes an entity reference expanded to (see
    /// ``EntityExpansionBudget``); false, and the parse stopped, once over the bound.
    private func spendExpansion(_ count: Int) -> Bool {
        guard !huge, !expansion.spend(count, inputBytes: pushedBytes) else { return true }
        fail(IngestError(.data, EntityExpansionBudget.message, position: currentPosition, reason: .libxml2Limit))
        return false
    }

    /// Counts the last `defaulted` of an element's `count` attributes, the ones the
    /// DTD's defaults gave it, against the input pushed; false, the parse stopped,
    /// past the bound (as entity expansions are bounded, even with `huge`).
    private func spendAttributeDefaults(
        _ count: Int, _ defaulted: Int, _ attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
    ) -> Bool {
        guard failure == nil, let attributes else { return false }
        var bytes = 0
        for index in max(count - defaulted, 0)..<count {
            let entry = attributes + 5 * index
            bytes += strlen(entry[0]!) + (entry[4]! - entry[3]!)
        }
        guard !attributeDefaults.spend(bytes, inputBytes: pushedBytes) else { return true }
        fail(IngestError(.data, EntityExpansionBudget.defaultsMessage, position: currentPosition))
        return false
    }

    private func run(_ position: @autoclosure () -> SourcePosition, _ body: () throws -> Void) {
        do {
            try body()
        } catch var error as IngestError {
            if error.position == nil { error.position = position() }
            fail(error)
        } catch {
            fail(IngestError(.data, "\(error)", position: position()))
        }
    }

    private func startElement(
        _ parser: UnsafeMutableRawPointer?, _ localName: UnsafePointer<xmlChar>,
        _ prefix: UnsafePointer<xmlChar>?, _ uri: UnsafePointer<xmlChar>?,
        _ attributeCount: Int, _ attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
    ) {
        guard failure == nil else { return }
        // Markup from an entity's text counts as expanded text too.
        if UnsafeMutableRawPointer(context) != parser, !spendExpansion(strlen(localName) + 2) { return }
        attributeScratch.removeAll(keepingCapacity: true)
        expandedValues.removeAll(keepingCapacity: true)
        expandedRanges.removeAll(keepingCapacity: true)
        if let attributes {
            // Five pointers each: local name, prefix, URI, value start, value end.
            for index in 0..<attributeCount {
                let entry = attributes + 5 * index
                let value = entry[3]!, count = entry[4]! - value
                if memchr(value, Int32(UInt8(ascii: "&")), count) != nil {
                    let start = expandedValues.count
                    guard
                        expandAttribute(
                            UnsafeBufferPointer(start: value, count: count), element: (localName, prefix),
                            attribute: (entry[0]!, entry[1]))
                    else { return }
                    expandedRanges.append((index, start, expandedValues.count - start))
                }
                attributeScratch.append(
                    Attribute(
                        name: intern(entry[0]!, entry[1], entry[2]),
                        value: UnsafeBufferPointer(start: value, count: count)))
            }
        }
        let element = intern(localName, prefix, uri)
        openNames.append(element)
        let position = position(of: parser, tag: true)
        run(position) {
            try expandedValues.withUnsafeBufferPointer { expanded in
                for (index, start, count) in expandedRanges {
                    attributeScratch[index] = Attribute(
                        name: attributeScratch[index].name,
                        value: UnsafeBufferPointer(rebasing: expanded[start..<start + count]))
                }
                try attributeScratch.withUnsafeBufferPointer {
                    try receiver.startElement(element, attributes: Attributes($0), at: position)
                }
            }
        }
    }

    /// Appends the value with its references expanded to `expandedValues`
    /// (see ``LibXML2AttributeValue``); false when that failed and the parse stops.
    private func expandAttribute(
        _ raw: UnsafeBufferPointer<UInt8>,
        element: (UnsafePointer<xmlChar>, UnsafePointer<xmlChar>?),
        attribute: (UnsafePointer<xmlChar>, UnsafePointer<xmlChar>?)
    ) -> Bool {
        let expander = LibXML2AttributeValue(
            document: context.pointee.myDoc,
            maxBytes: huge ? Self.hugeMaxValueBytes : Self.maxValueBytes)
        valueScratch.removeAll(keepingCapacity: true)
        do {
            try expander.expand(raw, into: &valueScratch)
        } catch {
            let message =
                switch error {
                case .tooDeep:
                    "entity references in an attribute value nested deeper than \(LibXML2AttributeValue.maxDepth)"
                case .tooLong:
                    "attribute value longer than \(huge ? Self.hugeMaxValueBytes : Self.maxValueBytes) bytes once entities are expanded"
                case .unknownEntity(let name): "entity '\(name)' in an attribute value is not declared"
                }
            let limited = !huge && { if case .tooLong = error { true } else { false } }()
            fail(IngestError(.data, message, position: currentPosition, reason: limited ? .libxml2Limit : nil))
            return false
        }
        guard spendExpansion(valueScratch.count) else { return false }
        if let special = context.pointee.attsSpecial,
            Int(bitPattern: xmlHashQLookup2(special, element.1, element.0, attribute.1, attribute.0))
                > Int(XML_ATTRIBUTE_CDATA.rawValue)
        {
            LibXML2AttributeValue.normaliseTokens(&valueScratch)
        }
        expandedValues.append(contentsOf: valueScratch)
        return true
    }

    private func endElement(_ parser: UnsafeMutableRawPointer?) {
        guard failure == nil, let element = openNames.popLast() else { return }
        let position = position(of: parser, tag: true)
        run(position) { try receiver.endElement(element, at: position) }
    }

    private func characters(_ parser: UnsafeMutableRawPointer?, _ text: UnsafePointer<xmlChar>, _ length: Int) {
        guard failure == nil else { return }
        if UnsafeMutableRawPointer(context) != parser, !spendExpansion(length) { return }
        cdataEndedWithCR = false
        run(currentPosition) { try receiver.text(UnsafeBufferPointer(start: text, count: length), at: currentPosition) }
    }

    /// A piece of a CDATA section. libxml2's push parser hands CDATA over as it
    /// stands in the input, CR LF and lone CR included, where XML (and Expat) turn
    /// every line end into LF; this does that, also across pieces.
    private func cdata(_ parser: UnsafeMutableRawPointer?, _ text: UnsafePointer<xmlChar>, _ length: Int) {
        guard failure == nil else { return }
        if UnsafeMutableRawPointer(context) != parser, !spendExpansion(length) { return }
        let bytes = UnsafeBufferPointer(start: text, count: length)
        let skipFirst = cdataEndedWithCR && bytes.first == UInt8(ascii: "\n")
        guard skipFirst || memchr(text, 0x0D, length) != nil else {
            cdataEndedWithCR = false
            run(currentPosition) { try receiver.text(bytes, at: currentPosition) }
            return
        }
        cdataScratch.removeAll(keepingCapacity: true)
        var index = skipFirst ? 1 : 0
        while index < length {
            let byte = bytes[index]
            if byte == 0x0D {
                cdataScratch.append(UInt8(ascii: "\n"))
                if index + 1 < length && bytes[index + 1] == UInt8(ascii: "\n") { index += 1 }
            } else {
                cdataScratch.append(byte)
            }
            index += 1
        }
        cdataEndedWithCR = bytes.last == 0x0D
        if cdataScratch.isEmpty { return }
        run(currentPosition) {
            try cdataScratch.withUnsafeBufferPointer { try receiver.text($0, at: currentPosition) }
        }
    }

    /// libxml2 reports an entity reference it did not expand itself. An internal
    /// entity's text has already gone through the callbacks; an external entity is
    /// refused here, as the Expat path refuses it; one nothing declares, while
    /// declarations went unread, is kept as written, as the Expat path keeps it.
    private func reference(_ name: UnsafePointer<xmlChar>) {
        guard failure == nil, let document = context.pointee.myDoc else { return }
        guard let entity = xmlGetDocEntity(document, name) else {
            guard !inStartTag,
                context.pointee.hasExternalSubset != 0 || document.pointee.intSubset?.pointee.SystemID != nil,
                let unread = UndeclaredEntity.unread(by: context)
            else { return }
            // libxml2 stands past the reference: the position of its `&`, as Expat gives.
            var position = currentPosition
            let written = String(cString: name).unicodeScalars.count + 2
            if position.column > written { position.column -= written }
            let text = skipped.keep(
                String(cString: name), unread: unread, file: displayName, at: position, warning: onWarning)
            run(position) { try text.withUnsafeBufferPointer { try receiver.text($0, at: position) } }
            return
        }
        guard entity.pointee.etype == XML_EXTERNAL_GENERAL_PARSED_ENTITY else { return }
        fail(IngestError(.data, ExternalEntity.refusal(entity, name: name), position: currentPosition))
    }

    /// Whether the document's parser is reading a start tag's attribute values
    /// (libxml2 reports their references as it reports those in content).
    private var inStartTag: Bool {
        context.pointee.instate == XML_PARSER_ATTRIBUTE_VALUE || context.pointee.instate == XML_PARSER_START_TAG
    }

    /// A libxml2 diagnostic. Warnings and validity errors leave the document
    /// well-formed and are ignored; fatal errors, and the namespace errors Expat
    /// also treats as malformed, stop the parse — or, recovering, are kept (the
    /// first of them) while the parse goes on.
    private func report(_ error: xmlError) {
        guard failure == nil else { return }
        if let refusal = UndeclaredEntity.message(for: error, document: context) {
            // In content, only a warning: ``reference(_:)`` keeps it as written.
            if error.code == Int32(XML_WAR_UNDECLARED_ENTITY.rawValue) && !inStartTag { return }
            return failOrRecover(IngestError(.data, refusal, position: position(of: error)))
        }
        guard Self.isFailure(error) else { return }
        let isLimit = !huge && Self.isLimit(error)
        // Recovering past the first error, only a limit still matters: a document of
        // errors (a megabyte of control characters) costs no message per error.
        if recovers, recoveredError != nil, !isLimit { return }
        var diagnostic = diagnostic(error)
        if isLimit {
            // A document libxml2 gave up on for its size is not one it recovered:
            // reading on would silently drop the rest.
            diagnostic.message += " (a limit of libxml2's)"
            diagnostic.reason = .libxml2Limit
            return fail(diagnostic)
        }
        failOrRecover(diagnostic)
    }

    /// Whether `error` is libxml2 refusing a document for one of its own limits (a
    /// name, a value, a text node or a lookahead too long, entities expanding too
    /// much, nesting too deep) rather than for a syntax error.
    private static func isLimit(_ error: xmlError) -> Bool {
        if error.code == Int32(XML_ERR_NAME_TOO_LONG.rawValue) || error.code == Int32(XML_ERR_ENTITY_LOOP.rawValue) {
            return true
        }
        guard let message = error.message else { return false }
        let words = UnsafeRawBufferPointer(start: message, count: strlen(message)).map { byte in
            (0x41...0x5A).contains(byte) ? byte | 0x20 : byte
        }
        return limitWords.contains { phrase in
            phrase.count <= words.count
                && (0...(words.count - phrase.count)).contains { start in
                    words[start] == phrase[0] && words[start..<start + phrase.count].elementsEqual(phrase)
                }
        }
    }

    /// What libxml2's messages for its own limits say, in lower case.
    private static let limitWords = [
        "huge input lookup", "huge text node", "too big", "too long", "excessive depth", "amplification"
    ].map { Array($0.utf8) }

    /// Stops the parse with `error` — or, recovering, keeps it (the first such) and
    /// lets libxml2 read on.
    private func failOrRecover(_ error: IngestError) {
        if recovers {
            if recoveredError == nil { recoveredError = error }
            return
        }
        fail(error)
    }

    /// A libxml2 error as an ``/IngestCore/IngestError`` with its position.
    private func diagnostic(_ error: xmlError) -> IngestError {
        var message = error.message.map { String(cString: $0) } ?? "XML error \(error.code)"
        while message.last?.isNewline == true { message.removeLast() }
        message = message.split(whereSeparator: \.isNewline).joined(separator: " ")
        if error.code == Int32(XML_ERR_DOCUMENT_END.rawValue), let open = openNames.last {
            // libxml2's push parser says this when the input stops inside an element.
            message = "the input ends inside <\(open.qualified)> (libxml2: \(message))"
        }
        return IngestError(.data, message, position: position(of: error))
    }

    /// Where `error` happened: libxml2's line and column in the document itself,
    /// where the parser stands inside an entity's text.
    private func position(of error: xmlError) -> SourcePosition {
        var position = currentPosition
        if error.ctxt == UnsafeMutableRawPointer(context), error.line > 0 {
            position.line = Int(error.line)
            position.column = max(1, Int(error.int2))
        }
        return position
    }

    private static func isFailure(_ error: xmlError) -> Bool {
        if error.level == XML_ERR_FATAL { return true }
        guard error.level == XML_ERR_ERROR, error.domain == Int32(XML_FROM_NAMESPACE.rawValue) else { return false }
        // Expat, processing namespaces, rejects an unbound prefix, a malformed
        // qualified name, `xmlns:p=""`, misuse of the xml and xmlns prefixes and an
        // attribute repeated under two prefixes of one URI; libxml2 only flags them.
        switch xmlParserErrors(rawValue: UInt32(error.code)) {
        case XML_NS_ERR_UNDEFINED_NAMESPACE, XML_NS_ERR_QNAME, XML_NS_ERR_ATTRIBUTE_REDEFINED,
            XML_NS_ERR_EMPTY, XML_NS_ERR_XML_NAMESPACE, XML_NS_ERR_COLON:
            return true
        default:
            return false
        }
    }
}
