import IngestCore
import CLibXML2

/// The well-known public DTDs whose entities ingest declares itself, without ever
/// reading the DTD: RSS 0.91's, HTML 4.01's and XHTML 1.0's and 1.1's. Each
/// declares HTML 4's Latin-1, symbol and special sets (``HTMLEntities``), so a
/// document naming one may use `&nbsp;` or `&laquo;` and still be read — XML 1.0
/// §4.1 makes "Entity Declared" a validity constraint once a document has an
/// external subset, and the reference readers read such documents.
///
/// A DTD is recognised by its public identifier; a DOCTYPE without one (`SYSTEM`
/// only) by its system identifier, the DTD's published URL. The entities go behind
/// the internal subset, whose declarations of the same names win, as XML says.
package enum KnownDTD {
    /// The public identifiers recognised, white space collapsed.
    package static let publicIDs: Set<String> = [
        "-//Netscape Communications//DTD RSS 0.91//EN",
        "-//W3C//DTD XHTML 1.0 Strict//EN",
        "-//W3C//DTD XHTML 1.0 Transitional//EN",
        "-//W3C//DTD XHTML 1.0 Frameset//EN",
        "-//W3C//DTD XHTML 1.1//EN",
        "-//W3C//DTD HTML 4.01//EN",
        "-//W3C//DTD HTML 4.01 Transitional//EN",
        "-//W3C//DTD HTML 4.01 Frameset//EN"
    ]

    /// The system identifiers recognised when there is no public one.
    package static let systemIDs: Set<String> = [
        "http://my.netscape.com/publish/formats/rss-0.91.dtd",
        "http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd",
        "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd",
        "http://www.w3.org/TR/xhtml1/DTD/xhtml1-frameset.dtd",
        "http://www.w3.org/TR/xhtml11/DTD/xhtml11.dtd",
        "http://www.w3.org/TR/html4/strict.dtd",
        "http://www.w3.org/TR/html4/loose.dtd",
        "http://www.w3.org/TR/html4/frameset.dtd"
    ]

    /// Whether a DOCTYPE naming `publicID` and `systemID` names a known DTD.
    package static func recognises(publicID: String?, systemID: String?) -> Bool {
        if let publicID {
            return publicIDs.contains(
                publicID.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" })
                    .joined(separator: " "))
        }
        return systemID.map(systemIDs.contains) ?? false
    }

    /// The entities declared: ``HTMLEntities`` less XML's five predefined ones
    /// (`amp`, `lt`, `gt`, `quot`, `apos`), which every parser knows already.
    package static let entities: [(name: String, codePoint: UInt32)] = HTMLEntities.all.filter {
        !["amp", "lt", "gt", "quot", "apos"].contains($0.name)
    }

    /// The declarations as an external subset Expat reads: `<!ENTITY nbsp "&#160;">`…
    package static let declarations: String = entities.map { "<!ENTITY \($0.name) \"&#\($0.codePoint);\">\n" }.joined()

    /// Declares the entities in the document of libxml2's parser `context`, as its
    /// external subset, when the DOCTYPE just read names a known DTD: what the SAX2
    /// `internalSubset` callback adds to libxml2's own (see ``LibXML2SAXHandler``).
    static func declare(
        in context: xmlParserCtxtPtr, name: UnsafePointer<xmlChar>?,
        publicID: UnsafePointer<xmlChar>?, systemID: UnsafePointer<xmlChar>?
    ) {
        guard let document = context.pointee.myDoc, document.pointee.extSubset == nil,
            recognises(publicID: publicID.map { String(cString: $0) }, systemID: systemID.map { String(cString: $0) }),
            xmlNewDtd(document, name, publicID, systemID) != nil
        else { return }
        for (name, codePoint) in entities {
            let text = String(Character(Unicode.Scalar(codePoint)!))
            _ = xmlAddDtdEntity(document, name, Int32(XML_INTERNAL_GENERAL_ENTITY.rawValue), nil, nil, text)
        }
    }
}
