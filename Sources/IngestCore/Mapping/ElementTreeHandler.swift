/// Turns an element and everything inside it into a ``JSONValue``, for data that
/// does not fit one column:
///
/// - a leaf element without attributes is its text: `"Matt"`;
/// - an element whose element children all share one name is a list of their
///   values: `<tags><tag>a</tag><tag>b</tag></tags>` is `["a","b"]`;
/// - any other element is an object: attributes as `"@name"`, children by name
///   (a name met more than once holds a list), non-blank text as `"#text"`.
///
/// XML values stay strings: XML has no types, and a JSON column keeps the text as
/// written. JSON input keeps its own shape and types: an array is a list (`[]` when
/// empty), an object an object, and scalars keep their type (numbers as written).
public final class ElementTreeHandler: ElementHandler {
    /// `false`: the stack collects each element's text and hands it over at its end.
    public var receivesText: Bool { false }
    // Safety (`@exclusivity(unchecked)`): the stack calls a handler one method at a
    // time on one thread, and no method calls out while it accesses these arrays
    // (the closures it passes only read them), so no two accesses overlap.
    @exclusivity(unchecked) private var attributes: [(key: String, value: JSONValue)] = []
    @exclusivity(unchecked) private var children: [(name: Name, value: JSONValue)] = []

    /// Whether an element whose children share one name stays an object keyed by
    /// that name (`{"tag":["a","b"]}`) instead of becoming the list `["a","b"]`:
    /// decoding a model type needs the names.
    public let keepsNames: Bool

    /// A handler that builds the tree of each element it is given; see ``keepsNames``.
    public init(keepsNames: Bool = false) {
        self.keepsNames = keepsNames
    }

    /// Whether the element had neither attributes nor child elements.
    public var isLeaf: Bool { attributes.isEmpty && children.isEmpty }

    /// Forgets the previous element's content and records this one's attributes as
    /// `"@name"` members.
    public func didStart(_ element: ElementStart) throws {
        if !attributes.isEmpty { attributes.removeAll(keepingCapacity: true) }
        if !children.isEmpty { children.removeAll(keepingCapacity: true) }
        for attribute in element.attributes {
            attributes.append(("@" + attribute.name.qualified, .string(attribute.string)))
        }
    }

    /// One handler of the same kind for every child element (reused, not one per
    /// child), so the child's whole subtree becomes its value.
    public func handler(forChild element: ElementStart) throws -> (any ElementHandler)? {
        childHandler
    }

    /// The handler of this element's children, one after another: a child's value is
    /// taken when it finishes, so one instance per level serves them all.
    private lazy var childHandler = ElementTreeHandler(keepsNames: keepsNames)

    /// Keeps a JSON scalar child (string, number, boolean, null) as a value of its
    /// own type without a handler of its own; always returns `true` (taken).
    public func take(scalar element: ElementEnd) throws -> Bool {
        children.append((element.name, JSONValue(scalar: element.kind, element.text)))
        return true
    }

    /// Keeps the finished child's value, which its handler (an `ElementTreeHandler`)
    /// built, under the child's name.
    public func didFinish(child: any ElementHandler, element: ElementEnd) throws {
        children.append((element.name, (child as! ElementTreeHandler).value(of: element)))
    }

    /// The value of the element this handler took, given its end.
    public func value(of element: ElementEnd) -> JSONValue {
        switch element.kind {
        case .markup: return value(text: element.text)
        case .array: return .array(children.map(\.value))
        case .object: return .object(children.map { ($0.name.qualified, $0.value) })
        default: return JSONValue(scalar: element.kind, element.text)
        }
    }

    private func value(text: TextBytes) -> JSONValue {
        if isLeaf { return .string(text.string) }
        if !keepsNames, attributes.isEmpty, text.isWhitespace, let first = children.first?.name,
            children.allSatisfy({ $0.name === first })
        {
            return .array(children.map(\.value))
        }
        var members = attributes
        var seen: [Name: Int] = [:]
        for child in children {
            if let index = seen[child.name] {
                if case .array(let items) = members[index].value {
                    members[index].value = .array(items + [child.value])
                }
            } else {
                seen[child.name] = members.count
                let repeated = children.lazy.filter { $0.name === child.name }.count > 1
                members.append((child.name.qualified, repeated ? .array([child.value]) : child.value))
            }
        }
        if !text.isWhitespace { members.append(("#text", .string(text.string))) }
        return .object(members)
    }
}
