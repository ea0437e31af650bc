import IngestCore
import CExpat

/// Expat, push-based: the default, fastest XML layer.
///
/// Each ``parse(_:into:progress:)`` reads the input in chunks straight into Expat's
/// own buffer. Namespaces are processed: names arrive with their URI and prefix.
/// Safety settings are fixed, not options:
/// - no external entity and no external DTD is ever loaded — a reference to an
///   external entity is an error, so its contents can never reach an output;
/// - parameter entities and the external DTD are parsed only from the document and
///   ingest's own tables: the DTD of a well-known public identifier (`KnownDTD`)
///   gets its entities declared from `HTMLEntities`, any other is skipped;
/// - Expat's protection against entity amplification ("billion laughs") stays on.
///
/// A reference in content to an entity nothing read declares, while the document
/// has an external DTD or parameter entity ingest skipped, is kept as written
/// (`&name;`) with one ``ParseWarning`` per name (see `UndeclaredEntity`).
public struct ExpatParser: StreamingParser {
    /// The bytes read from the input per call, and the size of the parse buffer.
    /// Default: ``/IngestCore/defaultChunkSize`` (256 KiB).
    public var chunkSize: Int
    /// Bounds the bytes of one token without an event: a name, a tag with its
    /// attributes, a comment longer than ``/IngestCore/ParseLimits/maxTextBytes`` (and a chunk)
    /// stops the parse, rather than Expat holding it all in memory.
    public var limits: ParseLimits
    /// The document's encoding, overriding its XML declaration, as an HTTP charset
    /// does (RFC 7303); `nil` (the default) lets the document say.
    public var encoding: String?
    /// Hears what the parser read past (an entity kept as written); `nil`: nobody.
    public var onWarning: ParseWarningHandler?
    /// The part of an XML file the input is, read after its
    /// ``/IngestCore/FilePiece/XMLContext/prefix`` up to its end, whose
    /// ``/IngestCore/FilePiece/end`` and ``/IngestCore/FilePiece/lineEnds`` it notes;
    /// `nil`: a whole document.
    public var piece: FilePiece?

    /// An Expat parser reading `chunkSize` bytes at a time, bounded by `limits`,
    /// telling `onWarning` what it reads past. The arguments after the parser's own
    /// options (`encoding`) are every parser's: `limits`, `chunkSize`, `onWarning`.
    public init(
        encoding: String? = nil, limits: ParseLimits = .default, chunkSize: Int = defaultChunkSize,
        onWarning: ParseWarningHandler? = nil
    ) {
        self.encoding = encoding
        self.limits = limits
        self.chunkSize = chunkSize
        self.onWarning = onWarning
    }

    /// Reads `input` chunk by chunk into Expat's own buffer and delivers its events
    /// to `receiver`; `progress` hears the bytes read after each chunk. Throws
    /// `.data` with the position for a document that is not well-formed or passes
    /// ``limits``, `.io` when reading fails, and whatever `receiver` throws; errors
    /// name the input.
    public func parse(
        _ input: any ByteSource, into receiver: any ParseEventReceiver,
        progress: ((Int) -> Void)? = nil
    ) throws {
        let session = ExpatPushParser(receiver: receiver, encoding: encoding, displayName: input.displayName)
        session.onWarning = onWarning
        if let piece, let context = piece.xml {
            session.part = ExpatPushParser.Part(piece: piece, context: context)
            try context.prefix.withUnsafeBytes { prefix in
                try session.parse(prefix, isFinal: false).mapError { $0.inFile(input.displayName) }.get()
            }
        }
        var consumed = 0
        defer { session.part?.noteEnd(consumed: consumed, line: Int(XML_GetCurrentLineNumber(session.parser))) }
        while true {
            guard let buffer = XML_GetBuffer(session.parser, Int32(chunkSize)) else {
                throw IngestError(.io, "out of memory for a \(chunkSize)-byte parse buffer", file: input.displayName)
            }
            let count = try input.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: chunkSize))
            session.sniff(UnsafeRawBufferPointer(start: buffer, count: count))
            consumed += count
            try session.parseBuffer(count: count, isFinal: count == 0).mapError { $0.inFile(input.displayName) }.get()
            if session.part?.ended == true {
                progress?(consumed)
                return
            }
            try session.checkTokenLimit(limits.maxTextBytes, consumed: consumed, slack: chunkSize)
            progress?(consumed)
            if count == 0 { return }
        }
    }

    /// An ``ExpatPushParser`` delivering to `receiver`, whose errors name `displayName`,
    /// bounded by ``limits``.
    public func makePushParser(receiver: any ParseEventReceiver, displayName: String) -> any PushParser {
        let parser = ExpatPushParser(receiver: receiver, encoding: encoding, limits: limits, displayName: displayName)
        parser.onWarning = onWarning
        return parser
    }
}

/// Expat as a ``/IngestCore/PushParser``: the parser ``ExpatParser`` drives, for bytes that are
/// pushed rather than read. Names are interned in ``names``; namespaces are
/// processed, and the safety settings are ``ExpatParser``'s.
public final class ExpatPushParser: PushParser {
    // Safety:
    // - `Unmanaged.passUnretained(self)` as Expat's user data: Expat calls back only
    //   from inside `XML_Parse`/`XML_ParseBuffer`, which this object calls on itself,
    //   and `deinit` frees the Expat parser, so `self` outlives every callback and
    //   `with(_:_:)` may borrow it (`_withUnsafeGuaranteedRef`) without a retain.
    // - `stack` is `receiver` (held strongly just above) seen as a HandlerStack.
    // - `openNames`, `recentNames` hold names of `names`, this parser's own table,
    //   which holds them while the parser lives.
    // - `@exclusivity(unchecked)`: one thread drives a parser, and a receiver must not
    //   feed the parser calling it (see ParseEventReceiver), so nothing writes
    //   `attributeScratch` while the receiver reads it, and no callback overlaps another
    //   (so `entities`, written by Expat's declaration callbacks and read per element,
    //   is never written during a read).
    static let namespaceSeparator = NameTable.namespaceSeparator

    let parser: XML_Parser
    let receiver: any ParseEventReceiver
    /// The receiver when it is a ``/IngestCore/HandlerStack`` — the usual case — called directly
    /// rather than through the protocol, and without reference counting.
    private let stack: Unmanaged<HandlerStack>?
    /// The names of this document, interned as they were met.
    public let names = NameTable()
    /// The input's name in error messages.
    public let displayName: String
    /// Bounds the bytes pushed without an event, as ``ExpatParser/limits`` does
    /// (beyond the last push); `nil`: unbounded.
    public let limits: ParseLimits?
    /// Bytes pushed so far.
    private var pushed = 0
    var failure: IngestError?
    /// The declared encoding Expat could not be given a table for, for the error message.
    var unreadableEncoding: (name: String, reason: ExpatIconvEncoding.Refusal)?
    /// What the document declares, for refusing entities declared only where ingest
    /// does not read (see ``ExpatUndeclaredEntities``).
    @exclusivity(unchecked) var entities = ExpatUndeclaredEntities()
    /// Whether the DTD declares a default value for an attribute: only then are an
    /// element's defaulted attributes counted (``spendAttributeDefaults(_:)``).
    @exclusivity(unchecked) var declaresAttributeDefaults = false
    /// The bytes of the attributes the DTD's defaults added, bounded as entity
    /// expansions are.
    private var attributeDefaults = EntityExpansionBudget()
    /// Hears what the parser read past (an entity kept as written); `nil`: nobody.
    public var onWarning: ParseWarningHandler?
    /// The undeclared entities kept as written, warned about once each.
    var skipped = SkippedEntities()
    /// The input's first two bytes, once they are known.
    private var firstBytes: [UInt8] = []
    @exclusivity(unchecked) private var attributeScratch: [Attribute] = []
    /// Names of the open elements, so an end tag needs no lookup. Unmanaged, like
    /// `recentNames`, so that passing one on costs no reference counting.
    @exclusivity(unchecked) private var openNames: [Unmanaged<Name>] = []
    /// The names last met, by slot: an element's by its depth and its place among its
    /// siblings, an attribute's by its element's slot and its own place (see
    /// ``intern(_:slot:)``).
    @exclusivity(unchecked) private var recentNames = [Unmanaged<Name>?](repeating: nil, count: 4096)
    /// Per depth, how many children the open element at that depth has had so far.
    @exclusivity(unchecked) private var childCounts = [Int](repeating: 0, count: 64)

    /// A parser sending the events of one document to `receiver`. `encoding`, when
    /// given, overrides the document's XML declaration, as an HTTP charset does
    /// (RFC 7303); Expat reads the names it reads in a declaration (by the WHATWG
    /// Encoding Standard's decoders, see `ExpatUnknownEncoding`). `limits`, when
    /// given, bounds one token's bytes.
    public init(
        receiver: any ParseEventReceiver, encoding: String? = nil, limits: ParseLimits? = nil,
        displayName: String = "<memory>"
    ) {
        self.receiver = receiver
        self.limits = limits
        stack = (receiver as? HandlerStack).map { Unmanaged.passUnretained($0) }
        self.displayName = displayName
        parser = XML_ParserCreateNS(encoding, XML_Char(bitPattern: Self.namespaceSeparator))
        XML_SetReturnNSTriplet(parser, 1)
        // Parameter entities and the external DTD reach the handler below, which
        // reads only ingest's own declarations for a well-known DTD.
        XML_SetParamEntityParsing(parser, XML_PARAM_ENTITY_PARSING_UNLESS_STANDALONE)
        XML_SetUserData(parser, Unmanaged.passUnretained(self).toOpaque())
        XML_SetElementHandler(
            parser,
            { data, name, attributes in
                ExpatPushParser.with(data) { $0.startElement(name!, attributes!) }
            },
            { data, name in
                ExpatPushParser.with(data) { $0.endElement(name!) }
            })
        XML_SetCharacterDataHandler(parser) { data, text, length in
            ExpatPushParser.with(data) { $0.characters(text!, Int(length)) }
        }
        XML_SetUnknownEncodingHandler(
            parser,
            { data, name, info in
                let session = ExpatPushParser.from(data)
                let name = name.map { String(cString: $0) } ?? ""
                do throws(ExpatIconvEncoding.Refusal) {
                    try ExpatUnknownEncoding.describe(name, to: info!)
                    return Int32(XML_STATUS_OK.rawValue)
                } catch {
                    session.unreadableEncoding = (name, error)
                    return Int32(XML_STATUS_ERROR.rawValue)
                }
            }, Unmanaged.passUnretained(self).toOpaque())
        // The handler's first argument is set to this session rather than the parser.
        XML_SetExternalEntityRefHandlerArg(parser, Unmanaged.passUnretained(self).toOpaque())
        XML_SetExternalEntityRefHandler(parser) { session, context, _, systemID, publicID in
            let session = ExpatPushParser.from(UnsafeMutableRawPointer(session))
            // No context: the external DTD or a parameter entity.
            if context == nil { return session.declarations(publicID: publicID, systemID: systemID) }
            let what = systemID.map { String(cString: $0) } ?? "?"
            session.fail(IngestError(.data, ExternalEntity.refusal(what), position: session.position))
            return Int32(XML_STATUS_ERROR.rawValue)
        }
        XML_SetAttlistDeclHandler(parser) { data, _, _, _, defaultValue, _ in
            if defaultValue != nil { ExpatPushParser.from(data).declaresAttributeDefaults = true }
        }
        watchForUndeclaredEntities()
    }

    deinit { XML_ParserFree(parser) }

    /// Runs `body` with the parser a callback's user data points to, without
    /// retaining it: Expat's callbacks run while the parser is alive.
    @inline(__always)
    private static func with(_ data: UnsafeMutableRawPointer?, _ body: (ExpatPushParser) -> Void) {
        Unmanaged<ExpatPushParser>.fromOpaque(data!)._withUnsafeGuaranteedRef(body)
    }

    private static func from(_ data: UnsafeMutableRawPointer?) -> ExpatPushParser {
        Unmanaged<ExpatPushParser>.fromOpaque(data!).takeUnretainedValue()
    }

    var position: SourcePosition {
        let offset = Int(XML_GetCurrentByteIndex(parser))
        lastEventOffset = max(lastEventOffset, offset)
        return SourcePosition(
            line: Int(XML_GetCurrentLineNumber(parser)),
            column: Int(XML_GetCurrentColumnNumber(parser)) + 1,
            byteOffset: offset + partOffset)
    }

    /// The part of a file being read (``ExpatParser/piece``), when it is one.
    var part: Part? {
        didSet { partOffset = part.map { $0.piece.start - $0.context.prefix.count } ?? 0 }
    }
    /// What makes the offsets of a part's parse the file's: its start, less its prefix.
    private var partOffset = 0

    /// Where a part of an XML file stands: the elements above its records begun or
    /// ended so far, and whether it has ended. A class, so that counting an event
    /// does not set ``part`` again.
    final class Part {
        let piece: FilePiece
        let context: FilePiece.XMLContext
        /// Starts and ends of elements above the records (the prefix's included). A
        /// part may end only while these are just the starts of the records'
        /// ancestors: then the ancestors are the ones it began under.
        var shallowEvents = 0
        var ended = false

        init(piece: FilePiece, context: FilePiece.XMLContext) {
            self.piece = piece
            self.context = context
        }

        /// The part was read to the end of the file: it ends there.
        func noteEnd(consumed: Int, line: Int) {
            guard !ended else { return }
            piece.end = piece.start + consumed
            piece.lineEnds = line - 1 - context.prefixLines
        }
    }

    /// Whether the record `element` starting now, at `depth`, ends the part being
    /// read: it is past the part's ``/IngestCore/FilePiece/endsNear``, under the ancestors the
    /// part began under, alone on its line but for blanks before it, and the mapping
    /// may begin a part with it. The part then ends at the start of its line, and
    /// the parse stops.
    private func endsPart(_ part: Part, before element: Unmanaged<Name>, depth: Int) -> Bool {
        let recordDepth = part.context.recordDepth
        if depth < recordDepth { part.shallowEvents += 1 }
        guard depth == recordDepth, part.shallowEvents == recordDepth - 1, let endsNear = part.piece.endsNear
        else { return false }
        let piece = part.piece
        let offset = Int(XML_GetCurrentByteIndex(parser)) + partOffset
        guard offset >= endsNear, let blanks = blanksBeforeOnItsLine(),
            let mayEnd = piece.mayEndBefore, element._withUnsafeGuaranteedRef(mayEnd)
        else { return false }
        piece.end = offset - blanks
        piece.lineEnds = Int(XML_GetCurrentLineNumber(parser)) - 1 - part.context.prefixLines
        part.ended = true
        XML_StopParser(parser, 0)
        return true
    }

    /// How many spaces and tabs come before the current event on its line, when
    /// nothing else does and Expat still holds the bytes back to the line end.
    private func blanksBeforeOnItsLine() -> Int? {
        var offset: Int32 = 0
        var size: Int32 = 0
        guard let context = XML_GetInputContext(parser, &offset, &size) else { return nil }
        var index = Int(offset) - 1
        while index >= 0 {
            switch UInt8(bitPattern: context[index]) {
            case 0x0A: return Int(offset) - 1 - index
            case 0x20, 0x09: index -= 1
            default: return nil
            }
        }
        return nil
    }

    /// The byte offset of the last event delivered: how far the document has been read
    /// into events (see ``ExpatParser/limits``).
    private(set) var lastEventOffset = 0

    /// Parses `count` bytes already placed in the buffer from `XML_GetBuffer`.
    func parseBuffer(count: Int, isFinal: Bool) -> Result<Void, IngestError> {
        check(XML_ParseBuffer(parser, Int32(count), isFinal ? 1 : 0))
    }

    func parse(_ bytes: UnsafeRawBufferPointer, isFinal: Bool) -> Result<Void, IngestError> {
        sniff(bytes)
        return check(
            XML_Parse(
                parser, bytes.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(bytes.count), isFinal ? 1 : 0))
    }

    /// Parses `bytes` (Expat copies what it cannot finish yet) and delivers the
    /// events they complete; throws `.data` at the first error, naming ``displayName``.
    public func feed(_ bytes: UnsafeRawBufferPointer) throws {
        try parse(bytes, isFinal: false).mapError { $0.inFile(displayName) }.get()
        pushed += bytes.count
        if let limits { try checkTokenLimit(limits.maxTextBytes, consumed: pushed, slack: bytes.count) }
    }

    /// Throws when more than `limit` bytes, beyond `slack` (the bytes read or pushed
    /// last, which may end with a whole event), came after the last event: a token
    /// that long would otherwise be held whole, and rescanned, by Expat.
    func checkTokenLimit(_ limit: Int, consumed: Int, slack: Int) throws {
        guard consumed - lastEventOffset > limit + slack else { return }
        throw IngestError.tokenLimit(limit, file: displayName, position: position)
    }

    /// Tells Expat the document ended; throws `.data` when it is incomplete (an
    /// element left open, no document element).
    public func finish() throws {
        try parse(UnsafeRawBufferPointer(start: nil, count: 0), isFinal: true).mapError { $0.inFile(displayName) }.get()
    }

    /// Notes how the input's first bytes are encoded (UTF-16 or not), once two are known.
    func sniff(_ bytes: UnsafeRawBufferPointer) {
        guard firstBytes.count < 2, !bytes.isEmpty else { return }
        firstBytes.append(contentsOf: bytes.prefix(2 - firstBytes.count))
        if firstBytes.count == 2 { firstBytes.withUnsafeBytes { entities.sniff($0) } }
    }

    private func check(_ status: XML_Status) -> Result<Void, IngestError> {
        if let failure { return .failure(failure) }
        if part?.ended == true { return .success(()) }
        guard status == XML_STATUS_ERROR else { return .success(()) }
        let code = XML_GetErrorCode(parser)
        var message = XML_ErrorString(code).map { String(cString: $0) } ?? "XML error \(code.rawValue)"
        var reason: IngestError.Reason?
        if code == XML_ERROR_UNKNOWN_ENCODING || code == XML_ERROR_INCORRECT_ENCODING, let unreadableEncoding {
            message = "cannot read the encoding \"\(unreadableEncoding.name)\": \(unreadableEncoding.reason)"
            if unreadableEncoding.reason == .notATable { reason = .encodingNeedsLibXML2(unreadableEncoding.name) }
        }
        if code == XML_ERROR_AMPLIFICATION_LIMIT_BREACH { reason = .entityAmplification }
        return .failure(IngestError(.data, message, position: position, reason: reason))
    }

    private func fail(_ error: IngestError) {
        if failure == nil { failure = error }
        XML_StopParser(parser, 0)
    }

    /// Stops the parse with `error`, giving it the current position if it has none.
    private func stop(with error: any Error) {
        if var error = error as? IngestError {
            if error.position == nil { error.position = position }
            fail(error)
        } else {
            fail(IngestError(.data, "\(error)", position: position))
        }
    }

    /// The interned name for Expat's `cString`, found first in `slot` of the names
    /// last met (documents repeat their structure: the same element at the same depth,
    /// the same attribute in the same place), which costs a `strncmp` instead of a `strlen`, a hash
    /// and a probe.
    @inline(__always)
    private func intern(_ cString: UnsafePointer<XML_Char>, slot: Int) -> Unmanaged<Name> {
        if let recent = recentNames[slot], recent._withUnsafeGuaranteedRef({ names.matches($0, cString: cString) }) {
            return recent
        }
        let bytes = UnsafeBufferPointer(
            start: UnsafeRawPointer(cString).assumingMemoryBound(to: UInt8.self),
            count: strlen(cString))
        let name = Unmanaged.passUnretained(names.intern(bytes, namespaceSeparator: Self.namespaceSeparator))
        recentNames[slot] = name
        return name
    }

    private func startElement(
        _ name: UnsafePointer<XML_Char>, _ attributes: UnsafeMutablePointer<UnsafePointer<XML_Char>?>
    ) {
        guard failure == nil else { return }
        if declaresAttributeDefaults, !spendAttributeDefaults(attributes) { return }
        if !attributeScratch.isEmpty { attributeScratch.removeAll(keepingCapacity: true) }
        // The element's slot: its depth and its place among its siblings.
        let depth = openNames.count
        var place = 0
        if depth + 1 < childCounts.count {
            place = childCounts[depth]
            childCounts[depth] = place + 1
            childCounts[depth + 1] = 0
        }
        let slot = (depth &* 61 &+ place) & 2047
        var index = 0
        while let attributeName = attributes[index], let value = attributes[index + 1] {
            let bytes = UnsafeRawPointer(value).assumingMemoryBound(to: UInt8.self)
            attributeScratch.append(
                Attribute(
                    name: intern(attributeName, slot: 2048 | ((slot &* 8 &+ index / 2) & 2047)).takeUnretainedValue(),
                    value: UnsafeBufferPointer(start: bytes, count: strlen(value))))
            index += 2
        }
        let element = intern(name, slot: slot)
        if let part, endsPart(part, before: element, depth: depth + 1) { return }
        openNames.append(element)
        guard checkStartTagReferences() else { return }
        do {
            // Most elements have no attributes: then the scratch array is not touched.
            if attributeScratch.isEmpty {
                try deliverStart(element, .none)
            } else {
                try attributeScratch.withUnsafeBufferPointer { try deliverStart(element, Attributes($0)) }
            }
        } catch {
            stop(with: error)
        }
    }

    /// Counts the attributes the DTD's defaults gave this element (after the ones
    /// the tag specified) against the input read; false, the parse stopped, past the
    /// bound.
    private func spendAttributeDefaults(_ attributes: UnsafeMutablePointer<UnsafePointer<XML_Char>?>) -> Bool {
        var index = Int(XML_GetSpecifiedAttributeCount(parser))
        var bytes = 0
        while let name = attributes[index], let value = attributes[index + 1] {
            bytes += strlen(name) + strlen(value)
            index += 2
        }
        let read = Int(XML_GetCurrentByteIndex(parser)) + partOffset
        guard bytes > 0, !attributeDefaults.spend(bytes, inputBytes: read) else { return true }
        fail(IngestError(.data, EntityExpansionBudget.defaultsMessage, position: position))
        return false
    }

    @inline(__always)
    private func deliverStart(_ element: Unmanaged<Name>, _ attributes: Attributes) throws {
        try element._withUnsafeGuaranteedRef { element in
            if let stack {
                try stack._withUnsafeGuaranteedRef {
                    try $0.startElement(element, attributes: attributes, at: position)
                }
            } else {
                try receiver.startElement(element, attributes: attributes, at: position)
            }
        }
    }

    private func endElement(_ name: UnsafePointer<XML_Char>) {
        guard failure == nil else { return }
        let element = openNames.removeLast()
        if let part, openNames.count + 1 < part.context.recordDepth { part.shallowEvents += 1 }
        do {
            try element._withUnsafeGuaranteedRef { element in
                if let stack {
                    try stack._withUnsafeGuaranteedRef { try $0.endElement(element, at: position) }
                } else {
                    try receiver.endElement(element, at: position)
                }
            }
        } catch {
            stop(with: error)
        }
    }

    /// Delivers a skipped entity's reference as written, `&name;`, as text.
    func keepAsWritten(entity name: String) {
        guard failure == nil else { return }
        let position = position
        var text = skipped.keep(name, unread: entities.unread, file: displayName, at: position, warning: onWarning)
        text.append(0)
        text.withUnsafeBufferPointer {
            $0.withMemoryRebound(to: XML_Char.self) { characters($0.baseAddress!, $0.count - 1) }
        }
    }

    private func characters(_ text: UnsafePointer<XML_Char>, _ length: Int) {
        guard failure == nil else { return }
        let bytes = UnsafeBufferPointer(
            start: UnsafeRawPointer(text).assumingMemoryBound(to: UInt8.self), count: length)
        do {
            if let stack {
                // The line and column only if an error needs them; the offset always,
                // for the bound on bytes without an event (see `ExpatParser.limits`).
                lastEventOffset = max(lastEventOffset, Int(XML_GetCurrentByteIndex(parser)))
                try stack._withUnsafeGuaranteedRef { try $0.text(bytes, at: { position }) }
            } else {
                try receiver.text(bytes, at: position)
            }
        } catch {
            stop(with: error)
        }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
