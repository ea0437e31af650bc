import IngestCore

/// Reads an element of another namespace — and everything inside it — into an
/// ``Extension``: gofeed's generic extension tree, attributes by local name
/// (`xml:lang` is `lang`), as gofeed keeps them. The attributes of the outermost
/// element that hold a URI (`href`, `src`, `uri`, `url`, `scheme`) are resolved
/// against the xml:base in scope, as gofeed resolves them. Unlike gofeed, which
/// reads Go's tokens, namespace declarations are not attributes here.
final class ExtensionHandler: ElementHandler {
    // Safety: the session outlives the handlers that hold it unowned (FeedParseSession
    // says why), and a handler's state is used by the parsing thread alone, with no
    // call out that could call back into it (IngestCore's UnsafeCode article).
    unowned(unsafe) let session: FeedParseSession
    private let level: Int
    private var name = ""
    private var attributes: [String: String] = [:]
    private var children: [String: [Extension]] = [:]
    private lazy var childHandler = ExtensionHandler(session: session, level: level + 1)
    /// The element read, valid from its end until the handler's next element.
    private(set) var result = Extension(name: "")

    init(session: FeedParseSession, level: Int = 0) {
        self.session = session
        self.level = level
    }

    func didStart(_ element: ElementStart) throws {
        try session.enter(element)
        name = session.vocabulary.local(element.name)
        attributes = [:]
        children = [:]
        for attribute in element.attributes {
            let key = session.vocabulary.local(attribute.name)
            var value = attribute.string
            if level == 0, Self.uriAttributes.contains(key) { value = try session.resolve(value) }
            attributes[key] = value
        }
    }

    func handler(forChild element: ElementStart) -> (any ElementHandler)? { childHandler }

    func didFinish(child: any ElementHandler, element: ElementEnd) {
        let result = childHandler.result
        children[result.name, default: []].append(result)
    }

    func didEnd(_ element: ElementEnd) {
        result = Extension(name: name, value: Self.trimmed(element.text), attributes: attributes, children: children)
        session.leave(depth: element.depth)
    }

    private static let uriAttributes: Set<String> = ["href", "src", "uri", "url", "scheme"]

    static func trimmed(_ text: TextBytes) -> String {
        let bytes = text.bytes
        var start = 0, end = bytes.count
        while start < end, isSpace(bytes[start]) || bytes[start] == 0x0B { start += 1 }
        while end > start, isSpace(bytes[end - 1]) || bytes[end - 1] == 0x0B { end -= 1 }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
    }
}

extension Extensions {
    /// Files `element` under `key`, after the elements of its name already there.
    mutating func add(_ element: Extension, key: String) {
        self[key, default: [:]][element.name, default: []].append(element)
    }
}
