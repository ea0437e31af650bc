import IngestCore
import CLibXML2

extension XMLTree {
    /// One element of an ``XMLTree``.
    ///
    /// An element is a small value: its tree (held strongly, so the element stays
    /// valid however long you keep it) and the libxml2 node it stands for. Every
    /// property reads the node when asked; nothing is copied up front. Two elements are
    /// equal when they are the same node.
    ///
    /// ```swift
    /// let person = try tree.select("//person").first!
    /// person.name                         // "person"
    /// person.children.map(\.name)         // ["firstName", "lastName"]
    /// person.children[0].text             // "Matt"
    /// ```
    public struct Element: Hashable, CustomStringConvertible {
        /// The tree the element belongs to.
        public let tree: XMLTree
        let node: xmlNodePtr

        init(tree: XMLTree, node: xmlNodePtr) {
            self.tree = tree
            self.node = node
        }

        /// The name without its prefix (`title` for `dc:title`).
        public var localName: String { String(cString: node.pointee.name) }

        /// The prefix as written (`dc`), or `nil`.
        public var prefix: String? { node.pointee.ns?.pointee.prefix.map { String(cString: $0) } }

        /// The namespace the element is in — through its prefix or a default
        /// namespace — or `nil`.
        public var namespaceURI: String? { node.pointee.ns?.pointee.href.map { String(cString: $0) } }

        /// The qualified name as written (`dc:title`).
        public var name: String { prefix.map { "\($0):\(localName)" } ?? localName }

        /// The line the element starts on.
        public var line: Int { Int(xmlGetLineNo(node)) }

        /// The attributes in document order, without namespace declarations (`xmlns`,
        /// `xmlns:p`), which are not attributes in the namespace-aware model. Defaults
        /// a DTD declares are not added (nor does XPath see them); ``TreeEventWalker``
        /// adds those of the internal subset, as Expat does.
        public var attributes: [TreeAttribute] {
            var result: [TreeAttribute] = []
            var property = node.pointee.properties
            while let attribute = property {
                result.append(TreeAttribute(attribute))
                property = attribute.pointee.next
            }
            return result
        }

        /// The value of the attribute whose qualified name is `name` (`id`, `xml:lang`).
        public func attribute(_ name: String) -> String? {
            attributes.first { $0.name == name }?.value
        }

        /// The value of the attribute `localName` in namespace `namespaceURI`.
        public func attribute(_ localName: String, namespaceURI: String?) -> String? {
            attributes.first { $0.localName == localName && $0.namespaceURI == namespaceURI }?.value
        }

        /// The child elements, in document order. Elements that come from an internal
        /// entity's replacement text are included, as the streaming parsers see them.
        public var children: [Element] {
            var result: [Element] = []
            Self.forEachChild(of: node, document: tree.document) { child in
                if child.pointee.type == XML_ELEMENT_NODE { result.append(Element(tree: tree, node: child)) }
            }
            return result
        }

        /// The child elements called `name` (qualified name as written).
        public func children(named name: String) -> [Element] {
            children.filter { $0.name == name }
        }

        /// Every child node in document order: elements, text (CDATA sections
        /// included), comments and processing instructions. An entity reference is
        /// listed as such, not expanded.
        public var childNodes: [Node] {
            var result: [Node] = []
            var current = node.pointee.children
            while let child = current {
                if let item = Node(child, tree: tree) { result.append(item) }
                current = child.pointee.next
            }
            return result
        }

        /// The text of the element and all its descendants, concatenated — XPath's
        /// string value — with internal entities expanded. An external entity is never
        /// loaded and contributes nothing.
        public var text: String { XMLTree.content(of: node) }

        /// The parent element, or `nil` for the document element.
        public var parent: Element? {
            guard let parent = node.pointee.parent, parent.pointee.type == XML_ELEMENT_NODE else { return nil }
            return Element(tree: tree, node: parent)
        }

        public var description: String { "<\(name)> at line \(line)" }

        public static func == (lhs: Element, rhs: Element) -> Bool { lhs.node == rhs.node }
        public func hash(into hasher: inout Hasher) { hasher.combine(node) }

        /// Calls `body` with each child node of `node`, descending into the content of
        /// internal entity references as if it were written in place.
        static func forEachChild(of node: xmlNodePtr, document: xmlDocPtr, _ body: (xmlNodePtr) -> Void) {
            forEach(in: node.pointee.children, document: document, body)
        }

        private static func forEach(in first: xmlNodePtr?, document: xmlDocPtr, _ body: (xmlNodePtr) -> Void) {
            var current = first
            while let child = current {
                if child.pointee.type == XML_ENTITY_REF_NODE {
                    if let entity = xmlGetDocEntity(document, child.pointee.name),
                        entity.pointee.etype == XML_INTERNAL_GENERAL_ENTITY
                    {
                        forEach(in: entity.pointee.children, document: document, body)
                    }
                } else {
                    body(child)
                }
                current = child.pointee.next
            }
        }
    }

    /// One attribute of an element in the tree, its parts as `String`s: what
    /// ``XMLTree/Element/attributes`` lists. (A streaming parser's attributes are
    /// IngestCore's `Attribute`, borrowed for the duration of an event.)
    public struct TreeAttribute: Hashable, CustomStringConvertible {
        /// The qualified name as written (`xml:lang`).
        public var name: String
        /// The name without its prefix.
        public var localName: String
        /// The prefix as written, or `nil`. An attribute without a prefix is in no
        /// namespace, whatever the default namespace.
        public var prefix: String?
        /// The attribute's namespace, or `nil`.
        public var namespaceURI: String?
        /// The value, with character and entity references replaced and white space
        /// normalised as XML requires.
        public var value: String

        /// An attribute with these parts, as a test or a caller builds one to compare.
        public init(name: String, localName: String, prefix: String?, namespaceURI: String?, value: String) {
            self.name = name
            self.localName = localName
            self.prefix = prefix
            self.namespaceURI = namespaceURI
            self.value = value
        }

        init(_ attribute: xmlAttrPtr) {
            let localName = String(cString: attribute.pointee.name)
            let prefix = attribute.pointee.ns?.pointee.prefix.map { String(cString: $0) }
            self.localName = localName
            self.prefix = prefix
            namespaceURI = attribute.pointee.ns?.pointee.href.map { String(cString: $0) }
            name = prefix.map { "\($0):\(localName)" } ?? localName
            value = XMLTree.content(of: UnsafeMutableRawPointer(attribute).assumingMemoryBound(to: xmlNode.self))
        }

        public var description: String { "\(name)=\"\(value)\"" }
    }

    /// A node of any kind: what ``Element/childNodes`` lists and XPath can select.
    public enum Node: Hashable {
        /// An element.
        case element(Element)
        /// A text node or a CDATA section.
        case text(String)
        /// A comment, its text without `<!--` and `-->`.
        case comment(String)
        /// A processing instruction: `<?target data?>`.
        case processingInstruction(target: String, data: String)
        /// A reference to an entity, by name (``Element/childNodes`` only).
        case entityReference(name: String)
        /// An attribute (XPath only: `//@id`).
        case attribute(TreeAttribute)
        /// A namespace node (XPath only: `//namespace::*`).
        case namespace(prefix: String?, uri: String)
        /// The document itself, the parent of the document element (XPath only: `/`).
        case document

        /// The node `node` stands for; `nil` for kinds this wrapper does not model
        /// (DTD declarations, XInclude markers).
        init?(_ node: xmlNodePtr, tree: XMLTree) {
            switch node.pointee.type {
            case XML_ELEMENT_NODE:
                self = .element(Element(tree: tree, node: node))
            case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
                self = .text(XMLTree.content(of: node))
            case XML_COMMENT_NODE:
                self = .comment(XMLTree.content(of: node))
            case XML_PI_NODE:
                self = .processingInstruction(
                    target: String(cString: node.pointee.name), data: XMLTree.content(of: node))
            case XML_ENTITY_REF_NODE:
                self = .entityReference(name: String(cString: node.pointee.name))
            case XML_ATTRIBUTE_NODE:
                self = .attribute(TreeAttribute(UnsafeMutableRawPointer(node).assumingMemoryBound(to: xmlAttr.self)))
            case XML_DOCUMENT_NODE:
                self = .document
            default:
                return nil
            }
        }

        /// The element, when this node is one.
        public var element: Element? {
            if case .element(let element) = self { return element }
            return nil
        }

        /// What kind of node this is, for messages: "an element", "an attribute (id)"…
        public var kindDescription: String {
            switch self {
            case .element(let element): "an element (\(element.name))"
            case .text: "a text node"
            case .comment: "a comment"
            case .processingInstruction(let target, _): "a processing instruction (\(target))"
            case .entityReference(let name): "an entity reference (&\(name);)"
            case .attribute(let attribute): "an attribute (\(attribute.name))"
            case .namespace(let prefix, _): "a namespace node (\(prefix ?? "default"))"
            case .document: "the document node"
            }
        }
    }

    /// libxml2's content of `node` (text of descendants, attribute value, comment
    /// text), as a `String`.
    static func content(of node: xmlNodePtr) -> String {
        guard let content = xmlNodeGetContent(node) else { return "" }
        defer { ingest_xml_free(content) }
        return String(cString: content)
    }
}
