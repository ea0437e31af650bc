import CExpat

/// Expat, push-based: the default, fastest XML layer.
///
/// Each ``parse(_:into:progress:)`` reads the input in chunks straight into Expat's
/// own buffer. Namespaces are processed: names arrive with their URI and prefix.
/// Safety settings are fixed, not options:
/// - no external entity and no external DTD is ever loaded — a reference to an
///   external entity is an error, so its contents can never reach an output;
/// - parameter entities are not parsed;
/// - Expat's protection against entity amplification ("billion laughs") stays on.
public struct ExpatParser: StreamingParser {
    public var chunkSize: Int

    public init(chunkSize: Int = defaultChunkSize) {
        self.chunkSize = chunkSize
    }

    public func parse(_ input: any ByteSource, into receiver: any ParseEventReceiver,
                      progress: ((Int) -> Void)? = nil) throws {
        let session = ExpatPushParser(receiver: receiver, displayName: input.displayName)
        var consumed = 0
        while true {
            guard let buffer = XML_GetBuffer(session.parser, Int32(chunkSize)) else {
                throw IngestError(.io, "out of memory for a \(chunkSize)-byte parse buffer", file: input.displayName)
            }
            let count = try input.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: chunkSize))
            session.sniff(UnsafeRawBufferPointer(start: buffer, count: count))
            consumed += count
            try session.parseBuffer(count: count, isFinal: count == 0).mapError { $0.inFile(input.displayName) }.get()
            progress?(consumed)
            if count == 0 { return }
        }
    }

    public func makePushParser(receiver: any ParseEventReceiver, displayName: String) -> any PushParser {
        ExpatPushParser(receiver: receiver, displayName: displayName)
    }
}

/// Expat as a ``PushParser``: the parser ``ExpatParser`` drives, for bytes that are
/// pushed rather than read. Names are interned in ``names``; namespaces are
/// processed, and the safety settings are ``ExpatParser``'s.
public final class ExpatPushParser: PushParser {
    static let namespaceSeparator = NameTable.namespaceSeparator

    let parser: XML_Parser
    let receiver: any ParseEventReceiver
    /// The names of this document, interned as they were met.
    public let names = NameTable()
    /// The input's name in error messages.
    public let displayName: String
    var failure: IngestError?
    /// The declared encoding neither Expat nor iconv could read, for the error message.
    var unreadableEncoding: (name: String, reason: ExpatIconvEncoding.Refusal)?
    /// What the document declares, for refusing entities declared only where ingest
    /// does not read (see ``ExpatUndeclaredEntities``).
    var entities = ExpatUndeclaredEntities()
    /// The input's first two bytes, once they are known.
    private var firstBytes: [UInt8] = []
    @exclusivity(unchecked) private var attributeScratch: [Attribute] = []
    /// Names of the open elements, so an end tag needs no lookup.
    @exclusivity(unchecked) private var openNames: [Name] = []

    /// A parser sending the events of one document to `receiver`.
    public init(receiver: any ParseEventReceiver, displayName: String = "<memory>") {
        self.receiver = receiver
        self.displayName = displayName
        parser = XML_ParserCreateNS(nil, XML_Char(bitPattern: Self.namespaceSeparator))
        XML_SetReturnNSTriplet(parser, 1)
        XML_SetParamEntityParsing(parser, XML_PARAM_ENTITY_PARSING_NEVER)
        XML_SetUserData(parser, Unmanaged.passUnretained(self).toOpaque())
        XML_SetElementHandler(parser, { data, name, attributes in
            ExpatPushParser.from(data).startElement(name!, attributes!)
        }, { data, name in
            ExpatPushParser.from(data).endElement(name!)
        })
        XML_SetCharacterDataHandler(parser) { data, text, length in
            ExpatPushParser.from(data).characters(text!, Int(length))
        }
        XML_SetUnknownEncodingHandler(parser, { data, name, info in
            let session = ExpatPushParser.from(data)
            let name = name.map { String(cString: $0) } ?? ""
            do throws(ExpatIconvEncoding.Refusal) {
                try ExpatIconvEncoding(name: name).describe(to: info!)
                return Int32(XML_STATUS_OK.rawValue)
            } catch {
                session.unreadableEncoding = (name, error)
                return Int32(XML_STATUS_ERROR.rawValue)
            }
        }, Unmanaged.passUnretained(self).toOpaque())
        // The handler's first argument is set to this session rather than the parser.
        XML_SetExternalEntityRefHandlerArg(parser, Unmanaged.passUnretained(self).toOpaque())
        XML_SetExternalEntityRefHandler(parser) { session, _, _, systemID, _ in
            let session = ExpatPushParser.from(UnsafeMutableRawPointer(session))
            let what = systemID.map { String(cString: $0) } ?? "?"
            session.fail(IngestError(.data, "external entity \"\(what)\" refused: ingest never loads external entities", position: session.position))
            return Int32(XML_STATUS_ERROR.rawValue)
        }
        watchForUndeclaredEntities()
    }

    deinit { XML_ParserFree(parser) }

    private static func from(_ data: UnsafeMutableRawPointer?) -> ExpatPushParser {
        Unmanaged<ExpatPushParser>.fromOpaque(data!).takeUnretainedValue()
    }

    var position: SourcePosition {
        SourcePosition(line: Int(XML_GetCurrentLineNumber(parser)),
                       column: Int(XML_GetCurrentColumnNumber(parser)) + 1,
                       byteOffset: Int(XML_GetCurrentByteIndex(parser)))
    }

    /// Parses `count` bytes already placed in the buffer from `XML_GetBuffer`.
    func parseBuffer(count: Int, isFinal: Bool) -> Result<Void, IngestError> {
        check(XML_ParseBuffer(parser, Int32(count), isFinal ? 1 : 0))
    }

    func parse(_ bytes: UnsafeRawBufferPointer, isFinal: Bool) -> Result<Void, IngestError> {
        sniff(bytes)
        return check(XML_Parse(parser, bytes.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(bytes.count), isFinal ? 1 : 0))
    }

    public func feed(_ bytes: UnsafeRawBufferPointer) throws {
        try parse(bytes, isFinal: false).mapError { $0.inFile(displayName) }.get()
    }

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
        guard status == XML_STATUS_ERROR else { return .success(()) }
        let code = XML_GetErrorCode(parser)
        var message = XML_ErrorString(code).map { String(cString: $0) } ?? "XML error \(code.rawValue)"
        var reason: IngestError.Reason?
        if code == XML_ERROR_UNKNOWN_ENCODING || code == XML_ERROR_INCORRECT_ENCODING, let unreadableEncoding {
            message = "cannot read the encoding \"\(unreadableEncoding.name)\": \(unreadableEncoding.reason)"
            if unreadableEncoding.reason == .notATable { reason = .encodingNeedsLibXML2(unreadableEncoding.name) }
        }
        return .failure(IngestError(.data, message, position: position, reason: reason))
    }

    private func fail(_ error: IngestError) {
        if failure == nil { failure = error }
        XML_StopParser(parser, 0)
    }

    private func run(_ body: () throws -> Void) {
        do {
            try body()
        } catch var error as IngestError {
            if error.position == nil { error.position = position }
            fail(error)
        } catch {
            fail(IngestError(.data, "\(error)", position: position))
        }
    }

    private func intern(_ cString: UnsafePointer<XML_Char>) -> Name {
        let bytes = UnsafeRawPointer(cString).assumingMemoryBound(to: UInt8.self)
        return names.intern(UnsafeBufferPointer(start: bytes, count: strlen(cString)),
                            namespaceSeparator: Self.namespaceSeparator)
    }

    private func startElement(_ name: UnsafePointer<XML_Char>, _ attributes: UnsafeMutablePointer<UnsafePointer<XML_Char>?>) {
        guard failure == nil else { return }
        attributeScratch.removeAll(keepingCapacity: true)
        var index = 0
        while let attributeName = attributes[index], let value = attributes[index + 1] {
            let bytes = UnsafeRawPointer(value).assumingMemoryBound(to: UInt8.self)
            attributeScratch.append(Attribute(name: intern(attributeName),
                                              value: UnsafeBufferPointer(start: bytes, count: strlen(value))))
            index += 2
        }
        let element = intern(name)
        openNames.append(element)
        guard checkStartTagReferences() else { return }
        run {
            try attributeScratch.withUnsafeBufferPointer {
                try receiver.startElement(element, attributes: Attributes($0), at: position)
            }
        }
    }

    private func endElement(_ name: UnsafePointer<XML_Char>) {
        guard failure == nil else { return }
        let element = openNames.removeLast()
        run { try receiver.endElement(element, at: position) }
    }

    private func characters(_ text: UnsafePointer<XML_Char>, _ length: Int) {
        guard failure == nil else { return }
        let bytes = UnsafeRawPointer(text).assumingMemoryBound(to: UInt8.self)
        run { try receiver.text(UnsafeBufferPointer(start: bytes, count: length), at: position) }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
