import IngestCore
import IngestParsers
import CLibXML2

/// Sends the elements of an ``XMLTree`` to a ``/IngestCore/ParseEventReceiver`` as the streaming
/// parsers would have sent them, so the same handlers read a tree and a stream.
///
/// For each element it sends `startElement` (attributes in document order, without
/// namespace declarations, then the defaults the internal DTD subset declares for
/// attributes the element lacks, as Expat adds them), its text and child elements in
/// document order, then `endElement`. Names are interned in the walker's ``/IngestCore/NameTable`` from the same
/// `URI␁local␁prefix` triplets Expat produces in namespace-triplet mode, so a name
/// is equal — qualified name, local name, namespace URI — whichever parser met it.
/// Text is sent as libxml2 holds it (CDATA sections as text); comments and
/// processing instructions are skipped, as Expat's events skip them.
///
/// Internal entities are expanded in place. A reference to an external entity (which
/// the tree never loads) stops the walk with the same `.data` error the streaming
/// parsers give. Expansion — in text and in attribute values alike — is bounded as
/// Expat bounds it (`EntityExpansionBudget`): past 8 MiB, expanded text may not
/// exceed 100 times the document's size.
///
/// Positions carry the element's line and no column (libxml2's tree keeps none).
///
/// ```swift
/// let handlers = HandlerStack(root: PeopleHandler())
/// try TreeEventWalker(receiver: handlers).send(tree.root)
/// ```
public final class TreeEventWalker {
    /// Where the events go: a `HandlerStack` of your handlers, or any receiver.
    public let receiver: any ParseEventReceiver
    /// The names met so far; share one table to compare names across walks.
    public let names: NameTable
    // Safety (`@exclusivity(unchecked)`): one thread walks a tree, and a receiver must
    // not send elements through the walker that is calling it (as with the parsers,
    // see ParseEventReceiver), so nothing writes these while the receiver reads the
    // attributes built in them.
    @exclusivity(unchecked) private var nameScratch: [UInt8] = []
    @exclusivity(unchecked) private var valueArena: [UInt8] = []
    @exclusivity(unchecked) private var valueSpans: [(name: Name, start: Int, count: Int)] = []
    @exclusivity(unchecked) private var attributeScratch: [Attribute] = []
    /// Text sent from inside entity expansions so far, and the expanded sizes of
    /// the entities attribute values refer to.
    private var expansion = EntityExpansionBudget()
    /// The bytes of the attributes the DTD's defaults add, bounded the same way.
    private var attributeDefaults = EntityExpansionBudget()
    private var entitySizes: (tree: XMLTree, sizes: EntityExpansionSizes)?
    /// Attribute defaults of the internal subset, by element name as written, in
    /// declaration order, and the tree they point into (held, so they stay valid).
    private var defaults: (tree: XMLTree, byElement: [String: [xmlAttributePtr]])?

    /// A walker sending to `receiver`, interning names in `names`.
    public init(receiver: any ParseEventReceiver, names: NameTable = NameTable()) {
        self.receiver = receiver
        self.names = names
    }

    /// Sends `element` and everything inside it.
    public func send(_ element: XMLTree.Element) throws {
        try walk(element.node, tree: element.tree)
    }

    /// The interned name of `element`, as ``send(_:)`` gives it.
    public func name(of element: XMLTree.Element) -> Name {
        name(namespace: element.node.pointee.ns, local: element.node.pointee.name)
    }

    private func walk(_ node: xmlNodePtr, tree: XMLTree, inheritedLine: Int = 1) throws {
        let line = Int(xmlGetLineNo(node))
        let position = SourcePosition(line: line > 0 ? line : inheritedLine, column: 0, byteOffset: 0)
        let element = name(namespace: node.pointee.ns, local: node.pointee.name)
        try startElement(element, node, tree: tree, at: position)
        try walkChildren(node.pointee.children, tree: tree, line: position.line, inEntity: false)
        try receiver.endElement(element, at: position)
    }

    private func walkChildren(_ first: xmlNodePtr?, tree: XMLTree, line: Int, inEntity: Bool) throws {
        var current = first
        while let node = current {
            switch node.pointee.type {
            case XML_ELEMENT_NODE:
                try walk(node, tree: tree, inheritedLine: line)
            case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
                if let content = node.pointee.content {
                    let bytes = UnsafeBufferPointer(start: content, count: Int(xmlStrlen(content)))
                    let own = Int(xmlGetLineNo(node))
                    let position = SourcePosition(line: own > 0 ? own : line, column: 0, byteOffset: 0)
                    if inEntity { try countExpansion(bytes.count, tree: tree, at: position) }
                    try receiver.text(bytes, at: position)
                }
            case XML_ENTITY_REF_NODE:
                try expand(node, tree: tree, line: line)
            default:
                break  // comments, processing instructions, XInclude markers
            }
            current = node.pointee.next
        }
    }

    private func expand(_ reference: xmlNodePtr, tree: XMLTree, line: Int) throws {
        let own = Int(xmlGetLineNo(reference))
        let position = SourcePosition(line: own > 0 ? own : line, column: 0, byteOffset: 0)
        // Undeclared (possible only when an external DTD, never loaded, might declare
        // it): nothing to send, as Expat sends nothing for a skipped entity.
        guard let entity = xmlGetDocEntity(tree.document, reference.pointee.name) else { return }
        guard entity.pointee.etype == XML_INTERNAL_GENERAL_ENTITY else {
            throw IngestError(
                .data, ExternalEntity.refusal(entity, name: reference.pointee.name),
                position: position)
        }
        try walkChildren(entity.pointee.children, tree: tree, line: position.line, inEntity: true)
    }

    private func countExpansion(_ count: Int, tree: XMLTree, at position: SourcePosition) throws {
        guard expansion.spend(count, inputBytes: tree.byteCount) else {
            throw IngestError(.data, EntityExpansionBudget.message, position: position)
        }
    }

    private func startElement(_ element: Name, _ node: xmlNodePtr, tree: XMLTree, at position: SourcePosition) throws {
        let declared = defaultAttributes(of: node, tree: tree)
        guard node.pointee.properties != nil || !declared.isEmpty else {
            return try receiver.startElement(element, attributes: .none, at: position)
        }
        valueArena.removeAll(keepingCapacity: true)
        valueSpans.removeAll(keepingCapacity: true)
        var property = node.pointee.properties
        while let attribute = property {
            let start = valueArena.count
            try appendValue(of: attribute, tree: tree, at: position)
            valueSpans.append(
                (
                    name(namespace: attribute.pointee.ns, local: attribute.pointee.name),
                    start, valueArena.count - start
                ))
            property = attribute.pointee.next
        }
        // A default gives way to an attribute the tag specified; the declarations
        // are distinct already, so only the specified ones need looking through.
        let specified = valueSpans.count
        for declaration in declared {
            let prefix = declaration.pointee.prefix
            // Namespace declarations are not attributes; a default for one that is
            // given, or an unbound prefix, adds nothing.
            if prefix.map({ xmlStrEqual($0, "xmlns") != 0 }) ?? (xmlStrEqual(declaration.pointee.name, "xmlns") != 0) {
                continue
            }
            let namespace = prefix.flatMap { xmlSearchNs(tree.document, node, $0) }
            if prefix != nil, namespace == nil { continue }
            let attributeName = name(namespace: namespace, local: declaration.pointee.name)
            if valueSpans[..<specified].contains(where: { $0.name === attributeName }) { continue }
            let start = valueArena.count
            if let value = declaration.pointee.defaultValue {
                valueArena.append(contentsOf: UnsafeBufferPointer(start: value, count: Int(xmlStrlen(value))))
            }
            guard
                attributeDefaults.spend(
                    Int(xmlStrlen(declaration.pointee.name)) + valueArena.count - start, inputBytes: tree.byteCount)
            else {
                throw IngestError(.data, EntityExpansionBudget.defaultsMessage, position: position)
            }
            valueSpans.append((attributeName, start, valueArena.count - start))
        }
        try valueArena.withUnsafeBufferPointer { arena in
            attributeScratch.removeAll(keepingCapacity: true)
            for span in valueSpans {
                let value =
                    arena.baseAddress.map { UnsafeBufferPointer(start: $0 + span.start, count: span.count) }
                    ?? UnsafeBufferPointer(start: nil, count: 0)
                attributeScratch.append(Attribute(name: span.name, value: value))
            }
            try attributeScratch.withUnsafeBufferPointer {
                try receiver.startElement(element, attributes: Attributes($0), at: position)
            }
        }
    }

    /// The internal subset's declarations with a default value for the attributes of
    /// `node`'s element name, first declaration first (a later one is ignored, as XML
    /// requires). libxml2 adds none of them to the tree without `XML_PARSE_DTDATTR`,
    /// which would also load external DTDs.
    private func defaultAttributes(of node: xmlNodePtr, tree: XMLTree) -> [xmlAttributePtr] {
        if defaults?.tree !== tree {
            var byElement: [String: [xmlAttributePtr]] = [:]
            var seen = Set<String>()
            var current = tree.document.pointee.intSubset?.pointee.children
            while let item = current {
                if item.pointee.type == XML_ATTRIBUTE_DECL {
                    let declaration = UnsafeMutableRawPointer(item).assumingMemoryBound(to: xmlAttribute.self)
                    if declaration.pointee.defaultValue != nil, let elementName = declaration.pointee.elem {
                        let element = String(cString: elementName)
                        let attribute = declaration.pointee.prefix.map { String(cString: $0) + ":" } ?? ""
                        if seen.insert(element + " " + attribute + String(cString: declaration.pointee.name)).inserted {
                            byElement[element, default: []].append(declaration)
                        }
                    }
                }
                current = item.pointee.next
            }
            defaults = (tree, byElement)
        }
        guard let byElement = defaults?.byElement, !byElement.isEmpty else { return [] }
        let local = String(cString: node.pointee.name)
        let qualified = node.pointee.ns?.pointee.prefix.map { String(cString: $0) + ":" + local } ?? local
        return byElement[qualified] ?? []
    }

    /// Appends the value of `attribute` to the arena: straight from its text node when
    /// it has just one, else through libxml2, which expands entity references — once
    /// what they expand to is counted against the expansion bound.
    private func appendValue(of attribute: xmlAttrPtr, tree: XMLTree, at position: SourcePosition) throws {
        if let only = attribute.pointee.children, only.pointee.next == nil, only.pointee.type == XML_TEXT_NODE {
            if let content = only.pointee.content {
                valueArena.append(contentsOf: UnsafeBufferPointer(start: content, count: Int(xmlStrlen(content))))
            }
            return
        }
        if entitySizes?.tree !== tree { entitySizes = (tree, EntityExpansionSizes(document: tree.document)) }
        var child = attribute.pointee.children
        while let reference = child {
            if reference.pointee.type == XML_ENTITY_REF_NODE, let name = reference.pointee.name {
                try countExpansion(entitySizes!.sizes.size(of: name), tree: tree, at: position)
            }
            child = reference.pointee.next
        }
        let node = UnsafeMutableRawPointer(attribute).assumingMemoryBound(to: xmlNode.self)
        guard let content = xmlNodeGetContent(node) else { return }
        defer { ingest_xml_free(content) }
        valueArena.append(contentsOf: UnsafeBufferPointer(start: content, count: Int(xmlStrlen(content))))
    }

    /// Interns `local` in `namespace` as Expat spells it in triplet mode:
    /// `URI␁local␁prefix`, `URI␁local` for a default namespace, `local` for none.
    private func name(namespace: xmlNsPtr?, local: UnsafePointer<xmlChar>) -> Name {
        let localBytes = UnsafeBufferPointer(start: local, count: Int(xmlStrlen(local)))
        guard let namespace, let href = namespace.pointee.href else { return names.intern(localBytes) }
        nameScratch.removeAll(keepingCapacity: true)
        nameScratch.append(contentsOf: UnsafeBufferPointer(start: href, count: Int(xmlStrlen(href))))
        nameScratch.append(NameTable.namespaceSeparator)
        nameScratch.append(contentsOf: localBytes)
        if let prefix = namespace.pointee.prefix {
            nameScratch.append(NameTable.namespaceSeparator)
            nameScratch.append(contentsOf: UnsafeBufferPointer(start: prefix, count: Int(xmlStrlen(prefix))))
        }
        return nameScratch.withUnsafeBufferPointer {
            names.intern($0, namespaceSeparator: NameTable.namespaceSeparator)
        }
    }
}
