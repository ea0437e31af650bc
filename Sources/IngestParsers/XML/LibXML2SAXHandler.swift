import IngestCore
import CLibXML2

/// The SAX2 handler every libxml2 push parse of ingest starts from, so that the
/// settings that keep a parse safe are written once.
package enum LibXML2SAXHandler {
    /// SAX2's defaults, which keep a DTD's entity and attribute declarations, with
    /// every content and diagnostic callback off and the external subset never loaded,
    /// whatever the parser options say — but the DOCTYPE of a well-known DTD
    /// (``KnownDTD``) gets that DTD's entities, declared from ingest's own table. A
    /// parse sets the callbacks it needs on top; the parser context must be the SAX
    /// user data.
    package static func secure() -> xmlSAXHandler {
        var handler = xmlSAXHandler()
        xmlSAXVersion(&handler, 2)
        handler.startElementNs = nil
        handler.endElementNs = nil
        handler.startElement = nil
        handler.endElement = nil
        handler.characters = nil
        handler.ignorableWhitespace = nil
        handler.cdataBlock = nil
        handler.reference = nil
        handler.processingInstruction = nil
        handler.comment = nil
        handler.warning = nil
        handler.error = nil
        handler.fatalError = nil
        handler.serror = nil
        handler.externalSubset = nil
        handler.internalSubset = { context, name, publicID, systemID in
            xmlSAX2InternalSubset(context, name, publicID, systemID)
            guard let context else { return }
            KnownDTD.declare(
                in: context.assumingMemoryBound(to: xmlParserCtxt.self), name: name,
                publicID: publicID, systemID: systemID)
        }
        return handler
    }
}
