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
    public var receivesText: Bool { false }
    @exclusivity(unchecked) private var attributes: [(key: String, value: JSONValue)] = []
    @exclusivity(unchecked) private var children: [(name: Name, value: JSONValue)] = []

    /// Whether an element whose children share one name stays an object keyed by
    /// that name (`{"tag":["a","b"]}`) instead of becoming the list `["a","b"]`:
    /// decoding a model type needs the names.
    public let keepsNames: Bool

    public init(keepsNames: Bool = false) {
        self.keepsNames = keepsNames
    }

    /// Whether the element had neither attributes nor child elements.
    public var isLeaf: Bool { attributes.isEmpty && children.isEmpty }

    public func didStart(_ element: ElementStart) throws {
        if !attributes.isEmpty { attributes.removeAll(keepingCapacity: true) }
        if !children.isEmpty { children.removeAll(keepingCapacity: true) }
        for attribute in element.attributes {
            attributes.append(("@" + attribute.name.qualified, .string(attribute.string)))
        }
    }

    public func handler(forChild element: ElementStart) throws -> (any ElementHandler)? {
        childHandler
    }

    /// The handler of this element's children, one after another: a child's value is
    /// taken when it finishes, so one instance per level serves them all.
    private lazy var childHandler = ElementTreeHandler(keepsNames: keepsNames)

    public func take(scalar element: ElementEnd) throws -> Bool {
        children.append((element.name, JSONValue(scalar: element.kind, element.text)))
        return true
    }

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
           children.allSatisfy({ $0.name === first }) {
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
