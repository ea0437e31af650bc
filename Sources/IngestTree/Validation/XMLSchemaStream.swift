import IngestCore
import IngestParsers
import CLibXML2

/// Validates one input against a compiled XML Schema while libxml2's push parser
/// reads it: the schema validator is plugged into the parser's SAX callbacks
/// (`xmlSchemaSAXPlug`, what libxml2's text reader does for `--validate` too), and
/// ingest's own callbacks sit behind it.
///
/// Through its own parser ingest can bound what entity references expand to, as
/// every other mode does (``EntityExpansionBudget``): text that comes from an
/// entity is counted as the validator receives it, and the parse stops once past
/// the bound. (libxml2's text reader also built nodes for every expansion of every
/// reference: a 280 KB document took 4.8 GB.) Memory stays flat otherwise: no tree
/// is built, only the validator's own state.
///
/// Safety as elsewhere: no network, no external DTD, no external entity — a
/// reference to one is a problem, never loaded.
final class XMLSchemaStream {
    private let schema: xmlSchemaPtr
    private let diagnostics: LibXML2Diagnostics
    private let displayName: String
    private var expansion = EntityExpansionBudget()
    private var consumed = 0
    private var context: xmlParserCtxtPtr?
    /// The parse was stopped by ingest (the expansion bound).
    private var stopped = false

    init(schema: xmlSchemaPtr, diagnostics: LibXML2Diagnostics, displayName: String) {
        self.schema = schema
        self.diagnostics = diagnostics
        self.displayName = displayName
    }

    /// Reads all of `input`; whether the validator found it valid (the problems are
    /// in the diagnostics). Call inside `diagnostics.capturing`. Throws only when
    /// the input cannot be read.
    func validate(_ input: InputFile) throws -> Bool {
        var handler = Self.makeHandler()
        guard let context = xmlCreatePushParserCtxt(&handler, nil, nil, 0, displayName) else {
            diagnostics.add(
                .init(
                    level: Int(XML_ERR_FATAL.rawValue), code: 0, domain: 0,
                    message: "libxml2 could not start reading", line: 0, column: 0, offset: 0))
            return false
        }
        self.context = context
        defer {
            if let document = context.pointee.myDoc { xmlFreeDoc(document) }
            context.pointee.myDoc = nil
            xmlFreeParserCtxt(context)
            self.context = nil
        }
        xmlCtxtUseOptions(context, XMLTree.parseOptions)
        context.pointee._private = Unmanaged.passUnretained(self).toOpaque()
        guard let validator = xmlSchemaNewValidCtxt(schema) else { return false }
        defer { xmlSchemaFreeValidCtxt(validator) }
        // The validator's problems carry the line the parser stands on.
        xmlSchemaValidateSetLocator(
            validator,
            { data, file, line in
                guard let data else { return -1 }
                let context = data.assumingMemoryBound(to: xmlParserCtxt.self)
                line?.pointee = UInt(max(0, context.pointee.input?.pointee.line ?? 0))
                file?.pointee = nil
                return 0
            }, UnsafeMutableRawPointer(context))
        guard let plug = xmlSchemaSAXPlug(validator, &context.pointee.sax, &context.pointee.userData) else {
            diagnostics.add(
                .init(
                    level: Int(XML_ERR_FATAL.rawValue), code: 0, domain: 0,
                    message: "libxml2 could not attach the schema", line: 0, column: 0, offset: 0))
            return false
        }
        defer { xmlSchemaSAXUnplug(plug) }

        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: defaultChunkSize, alignment: 16)
        defer { buffer.deallocate() }
        while !stopped {
            let count = try input.read(into: buffer)
            consumed += count
            xmlParseChunk(
                context, buffer.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(count), count == 0 ? 1 : 0)
            if count == 0 || context.pointee.disableSAX != 0 { break }
        }
        return !stopped && context.pointee.wellFormed != 0 && xmlSchemaIsValid(validator) == 1
    }

    // MARK: - ingest's callbacks, behind the validator's

    private static func makeHandler() -> xmlSAXHandler {
        // SAX2's defaults keep the DTD's entity declarations in a document that holds
        // nothing else; no tree is built.
        var handler = LibXML2SAXHandler.secure()
        handler.characters = { context, _, length in
            XMLSchemaStream.with(context) { $0.spendIfInEntity(Int(length)) }
        }
        handler.ignorableWhitespace = handler.characters
        handler.cdataBlock = handler.characters
        handler.reference = { context, name in
            guard let name else { return }
            XMLSchemaStream.with(context) { $0.reference(name) }
        }
        return handler
    }

    /// The stream behind a callback: the validator hands ingest's callbacks the
    /// parser context, whose `_private` is the stream.
    ///
    /// Safety: unretained, and safe because the context lives only inside
    /// ``validate(_:)``, a call on the stream, which frees it before returning.
    private static func with(_ context: UnsafeMutableRawPointer?, _ body: (XMLSchemaStream) -> Void) {
        guard let context else { return }
        let parser = context.assumingMemoryBound(to: xmlParserCtxt.self)
        guard let stream = parser.pointee._private else { return }
        body(Unmanaged<XMLSchemaStream>.fromOpaque(stream).takeUnretainedValue())
    }

    /// Text the validator has just received: counted when it comes from an entity
    /// (the parser is inside one), and the parse stopped once over the bound.
    private func spendIfInEntity(_ count: Int) {
        guard let context, context.pointee.depth > 0, !stopped,
            !expansion.spend(count, inputBytes: consumed)
        else { return }
        stopped = true
        diagnostics.add(
            .init(
                level: Int(XML_ERR_FATAL.rawValue), code: 0, domain: 0, message: EntityExpansionBudget.message,
                line: Int(context.pointee.input?.pointee.line ?? 0), column: 0, offset: 0))
        xmlStopParser(context)
    }

    /// A reference libxml2 did not expand: an external entity, refused.
    private func reference(_ name: UnsafePointer<xmlChar>) {
        guard let context, let document = context.pointee.myDoc, let entity = xmlGetDocEntity(document, name),
            entity.pointee.etype != XML_INTERNAL_GENERAL_ENTITY,
            entity.pointee.etype != XML_INTERNAL_PREDEFINED_ENTITY
        else { return }
        diagnostics.add(
            .init(
                level: Int(XML_ERR_ERROR.rawValue), code: 0, domain: 0,
                message: ExternalEntity.refusal(entity, name: name),
                line: Int(context.pointee.input?.pointee.line ?? 0), column: 0, offset: 0))
    }
}
