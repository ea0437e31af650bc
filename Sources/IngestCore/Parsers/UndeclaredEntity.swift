import CLibXML2

/// The refusal of a reference to a general entity that the document does not
/// declare but that declarations ingest never reads — an external DTD, a parameter
/// entity — might: XML calls it a validity matter, so parsers drop such a reference
/// (Expat) or only warn (libxml2), and its text would vanish from the output
/// silently. Every parser and mode of ingest stops with this message instead.
package enum UndeclaredEntity {
    /// `entity 'ext' is not declared in the document (the external DTD "x.dtd" may declare it, …)`.
    package static func message(_ name: String, unread: String?) -> String {
        "entity '\(name)' is not declared in the document (\(unread ?? "an unread declaration") may declare it, and ingest never reads external declarations)"
    }

    /// What of `context`'s document ingest did not read: `the external DTD "x.dtd"`,
    /// `a parameter entity`, or `nil`.
    package static func unread(by context: xmlParserCtxtPtr) -> String? {
        let subset = context.pointee.myDoc?.pointee.intSubset
        if let system = context.pointee.extSubSystem.map({ UnsafePointer($0) }) ?? subset?.pointee.SystemID {
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
              error.code == Int32(XML_WAR_UNDECLARED_ENTITY.rawValue) || error.code == Int32(XML_ERR_UNDECLARED_ENTITY.rawValue),
              let context = document ?? error.ctxt.map({ $0.assumingMemoryBound(to: xmlParserCtxt.self) }),
              let unread = unread(by: context), let name = error.str1 else { return nil }
        return message(String(cString: name), unread: unread)
    }
}
