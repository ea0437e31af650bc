import IngestCore
import CLibXML2

/// A reference to a general entity that the document does not declare but that
/// declarations ingest never reads — an external DTD, a parameter entity — might:
/// XML calls it a validity matter, so parsers drop such a reference (Expat) or only
/// warn (libxml2), and its text would vanish from the output silently.
///
/// The streaming parsers keep a reference in the content of a document with an
/// external DTD as written (`&name;`) and warn once per name
/// (``keptMessage(_:unread:)``); one in an attribute value, where both parsers drop
/// it before ingest sees the value, one in a document whose only unread declarations
/// are a parameter entity's (which libxml2 counts as malformed), and every reference
/// in the tree and validation modes, stop the parse with ``message(_:unread:)``. The
/// entities of well-known DTDs are declared, never read (``KnownDTD``).
package enum UndeclaredEntity {
    /// `entity 'ext' is not declared in the document (the external DTD "x.dtd" may declare it, …)`.
    package static func message(_ name: String, unread: String?) -> String {
        "entity '\(name)' is not declared in the document (\(unread ?? "an unread declaration") may declare it, and ingest never reads external declarations)"
    }

    /// The warning for a reference kept as written.
    package static func keptMessage(_ name: String, unread: String?) -> String {
        "entity '\(name)' is not declared in the document (\(unread ?? "an unread declaration") may declare it, and ingest never reads external declarations): kept as written, \"&\(name);\""
    }

    /// What of `context`'s document ingest did not read: `the external DTD "x.dtd"`,
    /// `a parameter entity`, or `nil`.
    package static func unread(by context: xmlParserCtxtPtr) -> String? {
        let subset = context.pointee.myDoc?.pointee.intSubset
        // libxml2 keeps the system identifier in `extSubURI` (`extSubSystem` is the public one).
        if let system = context.pointee.extSubURI.map({ UnsafePointer($0) }) ?? subset?.pointee.SystemID {
            return "the external DTD \"\(String(cString: system))\""
        }
        if context.pointee.hasExternalSubset != 0 || subset?.pointee.ExternalID != nil { return "the external DTD" }
        if context.pointee.hasPErefs != 0 || subset?.pointee.pentities != nil { return "a parameter entity" }
        return nil
    }

    /// ingest's message for a libxml2 report of an undeclared entity in a document
    /// with unread declarations (`document`: the parser of the document itself, when
    /// the report may come from a parser of an entity's text); `nil` for any other
    /// report.
    package static func message(for error: xmlError, document: xmlParserCtxtPtr? = nil) -> String? {
        guard error.domain == Int32(XML_FROM_PARSER.rawValue),
            error.code == Int32(XML_WAR_UNDECLARED_ENTITY.rawValue)
                || error.code == Int32(XML_ERR_UNDECLARED_ENTITY.rawValue),
            let context = document ?? error.ctxt.map({ $0.assumingMemoryBound(to: xmlParserCtxt.self) }),
            let unread = unread(by: context), let name = error.str1
        else { return nil }
        return message(String(cString: name), unread: unread)
    }
}
