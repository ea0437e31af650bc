import IngestCore
import IngestParsers
import CLibXML2

extension XMLTree {
    /// Refuses a tree whose entity references, expanded, would exceed the bound every
    /// mode applies (``EntityExpansionBudget``: past 8 MiB, 100 times the document's
    /// size), before XPath or a walk expands any of them.
    ///
    /// libxml2 keeps references as nodes in the tree (the options leave out
    /// `XML_PARSE_NOENT`), each entity checked once, on its own; so thousands of
    /// references to an entity just under libxml2's threshold would make every
    /// string value an XPath predicate asks for, and every attribute value the record
    /// walk reads, as large as the document many times over. This counts them all
    /// once, without expanding any: one pass over the nodes.
    func checkEntityExpansion() throws {
        guard document.pointee.intSubset?.pointee.entities != nil else { return }  // no entity declared
        let sizes = EntityExpansionSizes(document: document)
        var budget = EntityExpansionBudget()
        /// Counts `reference`, found in `owner`'s content or attributes.
        func spend(_ reference: xmlNodePtr, in owner: xmlNodePtr) throws {
            guard let name = reference.pointee.name, !budget.spend(sizes.size(of: name), inputBytes: byteCount) else {
                return
            }
            let line = Int(xmlGetLineNo(reference)) > 0 ? Int(xmlGetLineNo(reference)) : Int(xmlGetLineNo(owner))
            throw IngestError(
                .data, EntityExpansionBudget.message, file: displayName,
                position: line > 0 ? SourcePosition(line: line, column: 0, byteOffset: 0) : nil)
        }
        // Document order, without recursion: down to the first child, else on to the
        // next sibling, else up to the nearest ancestor that has one.
        let root = xmlDocGetRootElement(document)
        var current = root
        while let node = current {
            switch node.pointee.type {
            case XML_ENTITY_REF_NODE:
                try spend(node, in: node.pointee.parent ?? node)
            case XML_ELEMENT_NODE:
                var attribute = node.pointee.properties
                while let property = attribute {
                    var child = property.pointee.children
                    while let part = child {
                        if part.pointee.type == XML_ENTITY_REF_NODE { try spend(part, in: node) }
                        child = part.pointee.next
                    }
                    attribute = property.pointee.next
                }
            default:
                break
            }
            if node.pointee.type == XML_ELEMENT_NODE, let first = node.pointee.children {
                current = first
                continue
            }
            var climbing: xmlNodePtr? = node
            current = nil
            while let step = climbing, step != root {
                if let next = step.pointee.next {
                    current = next
                    break
                }
                climbing = step.pointee.parent
            }
        }
    }
}
