import IngestCore
import CLibXML2

/// Records chosen by an XPath expression over the whole document — tree mode,
/// `--xpath` on the command line. ``XPathReader`` runs it.
///
/// Every element the expression selects is one record, mapped by the same handlers
/// as a stream: the selected elements are sent, in document order, as the children
/// of one synthetic collection element, so ``/IngestCore/AutomaticDocumentMapping`` sees exactly what it
/// sees for `--records` and makes the same fields of them.
///
/// The collection's name decides the table, by the streaming rule: when every
/// selected element has the same name, all their parents have one name too, and each
/// such parent is a pure collection — nothing but elements of the records' name and
/// white space — the collection is named after that parent (`//person` in folks.xml
/// gives table `people`, as `--records people/person` does; so does
/// `//person[lastName='Doright']`, with one row). Otherwise it is named after the
/// records (`item` for `//item` in an RSS channel, which also holds a title); and
/// records of several names go into one table per name.
public struct XPathSelection: Sendable, Equatable {
    /// The XPath 1.0 expression; it must select elements.
    public var expression: String
    /// Prefix → namespace URI, for the prefixes the expression uses.
    public var namespaces: [String: String]
    /// The largest input accepted, in bytes: the tree costs several times as much.
    public var maxTreeBytes: Int

    /// 256 MiB.
    public static let defaultMaxTreeBytes = 256 << 20

    /// A selection by `expression`, with `namespaces` binding its prefixes, for inputs
    /// of at most `maxTreeBytes` bytes. Nothing is checked until ``check()`` or the
    /// first input.
    public init(
        _ expression: String, namespaces: [String: String] = [:],
        maxTreeBytes: Int = defaultMaxTreeBytes
    ) {
        self.expression = expression
        self.namespaces = namespaces
        self.maxTreeBytes = maxTreeBytes
    }

    /// Checks what can be checked before any document is read — the syntax, that
    /// every prefix is bound, that the result is a node set — by evaluating the
    /// expression over a one-element document. Errors are `.usage`.
    public func check() throws {
        _ = try select(in: XMLTree(bytes: Array("<empty/>".utf8)))
    }

    /// The selected elements of `tree`: at least one, or a `.data` error.
    func elements(in tree: XMLTree) throws -> [XMLTree.Element] {
        let elements = try select(in: tree)
        guard !elements.isEmpty else {
            throw IngestError(
                .data, "no element matches the XPath expression \(expression)",
                reason: .expressionMatchedNothing(expression))
        }
        return elements
    }

    /// The selected elements of `tree`, perhaps none.
    private func select(in tree: XMLTree) throws -> [XMLTree.Element] {
        switch XMLTree.selectElements(expression, namespaces: namespaces, tree: tree, contextNode: nil) {
        case .success(let elements):
            return elements
        case .failure(.invalid(let message, let offset)):
            throw IngestError(
                .usage, "\"\(expression)\" is not a valid XPath expression: \(message) (at character \(offset + 1))")
        case .failure(.evaluation(let message)):
            throw IngestError(.usage, "the XPath expression \"\(expression)\" cannot be evaluated: \(message)")
        case .failure(.resourceLimit(let message)):
            throw IngestError(
                .data,
                "the XPath expression \"\(expression)\" needs more than libxml2 allows on this document (\(message)): a // step with a predicate visits every node first; write //x[...] as /descendant::x[...]"
            )
        case .failure(.unboundPrefixes(let prefixes)):
            let what =
                switch prefixes.count {
                case 0: "a namespace prefix that is not bound"
                case 1: "namespace prefix \(prefixes[0]), which is not bound to a namespace URI"
                default: "namespace prefixes \(prefixes.joined(separator: ", ")), which are not bound to namespace URIs"
                }
            throw IngestError(
                .usage, "the XPath expression \"\(expression)\" uses \(what)", reason: .unboundPrefixes(prefixes))
        case .failure(.notElements(let found)):
            throw IngestError(
                .usage,
                "the XPath expression \"\(expression)\" gives \(found), but records are elements: select elements, e.g. //person, or //*[@id] for the elements that have an id"
            )
        }
    }

    /// The name of the synthetic collection the records are sent in (see the type's
    /// documentation for the rule).
    static func collectionName(for elements: [XMLTree.Element], walker: TreeEventWalker) -> Name {
        let kind = walker.name(of: elements[0])
        var parentName: Name?
        var checked = Set<xmlNodePtr>()
        for element in elements {
            // Several kinds make an impure collection: each gets its own table anyway.
            guard walker.name(of: element) === kind, let parent = element.parent else { return kind }
            let name = walker.name(of: parent)
            if let parentName, parentName !== name { return kind }
            parentName = name
            if checked.insert(parent.node).inserted, !isPureCollection(parent, of: kind, walker: walker) { return kind }
        }
        return parentName ?? kind
    }

    /// Whether `parent` holds nothing but `kind` elements and white space, as
    /// ``AutomaticDocumentMapping`` judges a collection while streaming.
    private static func isPureCollection(_ parent: XMLTree.Element, of kind: Name, walker: TreeEventWalker) -> Bool {
        var current = parent.node.pointee.children
        while let child = current {
            switch child.pointee.type {
            case XML_ELEMENT_NODE:
                if walker.name(of: XMLTree.Element(tree: parent.tree, node: child)) !== kind { return false }
            case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
                if let content = child.pointee.content,
                    !TextBytes(UnsafeBufferPointer(start: content, count: Int(xmlStrlen(content)))).isWhitespace
                {
                    return false
                }
            case XML_ENTITY_REF_NODE:
                return false
            default:
                break
            }
            current = child.pointee.next
        }
        return true
    }
}
