import IngestCore
import CExpat
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Follows references to general entities the document does not declare when the
/// declaration could be in something ingest never reads — an external DTD
/// (`<!DOCTYPE r SYSTEM "x.dtd">`) or a parameter entity. XML makes such a reference
/// a validity question rather than a well-formedness error, so Expat reports it as
/// "skipped" in content and drops it silently in an attribute value: the text would
/// vanish from the output without a word. In content of a document with an external
/// DTD ingest keeps it as written, `&name;`, with a warning; in an attribute value,
/// or when only a parameter entity went unread, it stops with the entity's name
/// (exit 65), as libxml2's parser does (see ``UndeclaredEntity``).
///
/// In content, Expat's skipped-entity callback says so. In an attribute value Expat
/// says nothing, so the start tag's own bytes are read for references (`&name;`)
/// and each name is looked up among the entities the document declared (names in
/// a single- or double-byte encoding other than UTF-8 are checked when they are
/// ASCII).
struct ExpatUndeclaredEntities {
    /// What might hold declarations ingest does not read: `the external DTD "x.dtd"`,
    /// `a parameter entity`; `nil` while everything was read.
    var unread: String?
    /// The DOCTYPE names an external DTD. Without one (only an unread parameter
    /// entity), an undeclared entity in content is refused, as libxml2 refuses it.
    var externalSubset = false
    /// The document said `standalone="yes"`: Expat then refuses undeclared entities itself.
    var standalone = false
    /// The general entities declared in what was read.
    var declared: Set<String> = []
    /// How the start tags' bytes read: UTF-8, UTF-16 (either order), or another
    /// ASCII-compatible encoding.
    var encoding: TagEncoding = .utf8

    enum TagEncoding { case utf8, utf16LittleEndian, utf16BigEndian, otherASCIICompatible }

    /// Tells the encoding from the first bytes of the input.
    mutating func sniff(_ first: UnsafeRawBufferPointer) {
        guard first.count >= 2 else { return }
        switch (first[0], first[1]) {
        case (0xFF, 0xFE), (0x3C, 0x00): encoding = .utf16LittleEndian
        case (0xFE, 0xFF), (0x00, 0x3C): encoding = .utf16BigEndian
        default: break
        }
    }

    /// The XML declaration's encoding, for an input that is not UTF-16.
    mutating func declare(encoding name: String?) {
        guard encoding == .utf8, let name else { return }
        let lowered = name.lowercased()
        if lowered != "utf-8" && lowered != "utf8" { encoding = .otherASCIICompatible }
    }

    /// The first reference in a start tag's bytes to a general entity not declared,
    /// if there is one.
    func undeclaredReference(inTag bytes: UnsafeBufferPointer<UInt8>) -> String? {
        let text: String
        switch encoding {
        case .utf8, .otherASCIICompatible:
            text = String(decoding: bytes, as: UTF8.self)
        case .utf16LittleEndian, .utf16BigEndian:
            let units = stride(from: 0, to: bytes.count - 1, by: 2).map { index -> UInt16 in
                let (a, b) = (UInt16(bytes[index]), UInt16(bytes[index + 1]))
                return encoding == .utf16LittleEndian ? a | b << 8 : a << 8 | b
            }
            text = String(decoding: units, as: UTF16.self)
        }
        var rest = Substring(text)
        while let ampersand = rest.firstIndex(of: "&") {
            rest = rest[rest.index(after: ampersand)...]
            guard let semicolon = rest.firstIndex(of: ";") else { break }
            let name = String(rest[..<semicolon])
            rest = rest[rest.index(after: semicolon)...]
            if name.hasPrefix("#") || Self.predefined.contains(name) || declared.contains(name) { continue }
            if encoding == .otherASCIICompatible, !name.unicodeScalars.allSatisfy(\.isASCII) { continue }
            return name
        }
        return nil
    }

    static let predefined: Set<String> = ["lt", "gt", "amp", "apos", "quot"]

    /// The refusal of `name`.
    func error(entity name: String, at position: SourcePosition) -> IngestError {
        IngestError(.data, UndeclaredEntity.message(name, unread: unread), position: position)
    }
}

extension ExpatPushParser {
    /// Sets the handlers that follow declarations and skipped entities.
    func watchForUndeclaredEntities() {
        XML_SetXmlDeclHandler(parser) { data, _, encoding, standalone in
            let session = ExpatPushParser.session(data)
            session.entities.declare(encoding: encoding.map { String(cString: $0) })
            if standalone == 1 { session.entities.standalone = true }
        }
        XML_SetStartDoctypeDeclHandler(parser) { data, _, systemID, _, _ in
            guard let systemID else { return }
            ExpatPushParser.session(data).entities.externalSubset = true
            ExpatPushParser.session(data).entities.unread = "the external DTD \"\(String(cString: systemID))\""
        }
        XML_SetNotStandaloneHandler(parser) { data in
            // Called for a parameter entity reference, which ingest never reads.
            let session = ExpatPushParser.session(data)
            if session.entities.unread == nil { session.entities.unread = "a parameter entity" }
            return Int32(XML_STATUS_OK.rawValue)
        }
        XML_SetEntityDeclHandler(parser) { data, name, isParameterEntity, _, _, _, _, _, _ in
            guard let name, isParameterEntity == 0 else { return }
            ExpatPushParser.session(data).entities.declared.insert(String(cString: name))
        }
        XML_SetSkippedEntityHandler(parser) { data, name, isParameterEntity in
            guard let name else { return }
            let session = ExpatPushParser.session(data)
            guard isParameterEntity == 0 else {
                // A parameter entity nothing declares: what follows it is not read.
                if session.entities.unread == nil { session.entities.unread = "a parameter entity" }
                return
            }
            if session.entities.externalSubset {
                session.keepAsWritten(entity: String(cString: name))
            } else {
                session.refuse(entity: String(cString: name))
            }
        }
    }

    /// The external DTD or an external parameter entity, which Expat asks for: for
    /// a well-known DTD (``KnownDTD``) ingest's own declarations of its entities,
    /// read from memory; nothing for any other, which stays unread.
    func declarations(publicID: UnsafePointer<XML_Char>?, systemID: UnsafePointer<XML_Char>?) -> Int32 {
        guard
            KnownDTD.recognises(
                publicID: publicID.map { String(cString: $0) },
                systemID: systemID.map { String(cString: $0) })
        else {
            if entities.unread == nil { entities.unread = "a parameter entity" }
            return Int32(XML_STATUS_OK.rawValue)
        }
        guard let declarations = XML_ExternalEntityParserCreate(parser, nil, nil) else {
            return Int32(XML_STATUS_ERROR.rawValue)
        }
        defer { XML_ParserFree(declarations) }
        let text = KnownDTD.declarations.utf8CString
        return text.withUnsafeBufferPointer {
            XML_Parse(declarations, $0.baseAddress, Int32($0.count - 1), 1) == XML_STATUS_ERROR
                ? Int32(XML_STATUS_ERROR.rawValue) : Int32(XML_STATUS_OK.rawValue)
        }
    }

    // Safety: as in `ExpatPushParser.with`: the parser outlives Expat's callbacks,
    // which run only inside its own `XML_Parse` calls.
    /// The parser a callback's user data points to, unretained.
    private static func session(_ data: UnsafeMutableRawPointer?) -> ExpatPushParser {
        Unmanaged<ExpatPushParser>.fromOpaque(data!).takeUnretainedValue()
    }

    private func refuse(entity name: String) {
        guard failure == nil else { return }
        failure = entities.error(entity: name, at: position)
        XML_StopParser(parser, 0)
    }

    /// Checks the attribute values of the start tag being reported, when the document
    /// has declarations ingest did not read; false when a reference was refused.
    func checkStartTagReferences() -> Bool {
        guard entities.unread != nil, !entities.standalone else { return true }
        var offset: Int32 = 0, size: Int32 = 0
        let count = Int(XML_GetCurrentByteCount(parser))
        guard count > 0, let buffer = XML_GetInputContext(parser, &offset, &size),
            Int(offset) + count <= Int(size), memchr(buffer + Int(offset), 0x26, count) != nil
        else { return true }
        let tag = UnsafeBufferPointer(
            start: UnsafeRawPointer(buffer + Int(offset)).assumingMemoryBound(to: UInt8.self),
            count: count)
        guard let name = entities.undeclaredReference(inTag: tag) else { return true }
        refuse(entity: name)
        return false
    }
}
