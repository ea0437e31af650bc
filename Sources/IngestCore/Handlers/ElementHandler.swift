/// A handler for one element: Neuburg's `MyXMLParserDelegate`, made Swift.
///
/// The ``HandlerStack`` owns the swapping. When an element starts, the handler in
/// charge is asked for a handler for that child (``handler(forChild:)``); the stack
/// makes it the handler in charge and tells it ``didStart(_:)``. Text inside the
/// element is accumulated for it. When the element ends, the child hears
/// ``didEnd(_:)``, then its parent hears ``didFinish(child:element:)`` — the moment
/// to take the child's result — and the parent is in charge again. Handlers never
/// touch the parser.
///
/// Every method has a default, so a handler writes only what it cares about:
///
/// ```swift
/// final class PersonHandler: ElementHandler {
///     var fields: [String: String] = [:]
///     func handler(forChild element: ElementStart) -> (any ElementHandler)? { TextHandler() }
///     func didFinish(child: any ElementHandler, element: ElementEnd) {
///         fields[element.name.local] = element.text.string
///     }
/// }
/// ```
///
/// Any method may throw; the parse stops and the error is reported with the position
/// of the event that caused it.
public protocol ElementHandler: AnyObject {
    /// This handler's element has started. Default: nothing.
    func didStart(_ element: ElementStart) throws

    /// A child element starts. Return the handler that takes it over, or `nil` to
    /// skip the child and everything inside it. Default: `nil`.
    ///
    /// Returning the same instance for successive children is allowed (it saves an
    /// allocation per element) as long as it is not in charge of two elements at once.
    func handler(forChild element: ElementStart) throws -> (any ElementHandler)?

    /// Whether the stack should accumulate this element's text for ``ElementEnd/text``.
    /// Default: `true`. A handler that does not need text returns `false` and saves
    /// the copy.
    var accumulatesText: Bool { get }

    /// Whether the stack should call ``didReceive(text:)`` with each piece of text.
    /// Default: `true`. A handler that does not implement it may return `false` and
    /// save a call per piece of text (white space between child elements included).
    var receivesText: Bool { get }

    /// A piece of text directly inside this element, as it arrives (valid during the
    /// call only). Default: nothing — the stack has already accumulated it.
    func didReceive(text: UnsafeBufferPointer<UInt8>) throws

    /// A child handed back by ``handler(forChild:)`` has finished its element; take
    /// its result. `element.text` is the child's accumulated text. Default: nothing.
    func didFinish(child: any ElementHandler, element: ElementEnd) throws

    /// This handler's element has ended; `element.text` holds all its text. Default: nothing.
    func didEnd(_ element: ElementEnd) throws

    /// A JSON scalar child (a string, number, boolean or null), offered whole: return
    /// `true` to take it here, and no child handler is asked for. Default: `false`,
    /// and the child goes through ``handler(forChild:)`` like any element. A handler
    /// that turns scalars into fields saves three calls per value this way.
    func take(scalar element: ElementEnd) throws -> Bool

    /// Whether an XML child that turns out to be a leaf — no attributes, no child
    /// elements — is offered whole to ``take(scalar:)``, with kind
    /// ``ContentKind/markup`` and its text, instead of going through a handler of its
    /// own. Default: `false`.
    ///
    /// When `true`, the stack asks ``handler(forChild:)`` for a child without
    /// attributes only once it knows the child is not a leaf (when the child's own
    /// first child starts: the child's handler then hears ``didReceive(text:)`` once
    /// with the text so far), or when ``take(scalar:)`` returns `false` at its end.
    /// Records of field elements cost one call per field this way instead of five.
    var takesLeafChildren: Bool { get }
}

extension ElementHandler {
    /// Does nothing.
    public func didStart(_ element: ElementStart) throws {}
    /// Skips every child: returns `nil`.
    public func handler(forChild element: ElementStart) throws -> (any ElementHandler)? { nil }
    /// `true`: the stack accumulates the element's text for ``ElementEnd/text``.
    public var accumulatesText: Bool { true }
    /// Does nothing; the stack has accumulated the text already.
    public func didReceive(text: UnsafeBufferPointer<UInt8>) throws {}
    /// `true`: ``didReceive(text:)`` is called with each piece of text.
    public var receivesText: Bool { true }
    /// Does nothing.
    public func didFinish(child: any ElementHandler, element: ElementEnd) throws {}
    /// Does nothing.
    public func didEnd(_ element: ElementEnd) throws {}
    /// Takes no scalar: returns `false`, so the scalar goes to ``handler(forChild:)``.
    public func take(scalar element: ElementEnd) throws -> Bool { false }
    /// `false`: every XML child goes through ``handler(forChild:)``.
    public var takesLeafChildren: Bool { false }
}

/// An element that has just started, as a handler sees it. Attribute values are
/// valid only during the call.
public struct ElementStart {
    // Safety: as for `Attribute.name`: the parser's table holds the name while it parses.
    /// The element's interned name, held by its ``NameTable`` for the whole parse, so
    /// the event carries it without reference counting. Assign it to a `Name`
    /// variable to keep it beyond the parse.
    public unowned(unsafe) let name: Name
    /// Its attributes in document order, namespace declarations left out; none for
    /// JSON. Borrowed for the call.
    public let attributes: Attributes
    /// Where the element starts: its `<` in XML, its first character in JSON.
    public let position: SourcePosition
    /// 1 for the document element, 2 for its children, and so on.
    public let depth: Int
    /// What the element holds: ``ContentKind/markup`` for XML, a JSON type for JSON.
    public var kind: ContentKind = .markup
}

/// An element that has just ended, with the text accumulated directly inside it.
/// ``text`` is valid only during the call; ``TextBytes/string`` keeps it.
public struct ElementEnd {
    // Safety: as for `Attribute.name`: the parser's table holds the name while it parses.
    /// The element's interned name, held by its ``NameTable`` for the whole parse, so
    /// the event carries it without reference counting. Assign it to a `Name`
    /// variable to keep it beyond the parse.
    public var name: Name { unmanagedName.takeUnretainedValue() }
    /// The name, for this package's handlers to borrow (`_withUnsafeGuaranteedRef`)
    /// without reference counting.
    let unmanagedName: Unmanaged<Name>
    /// The text directly inside the element, all its pieces together and its child
    /// elements' text left out (empty for a handler that does not
    /// ``ElementHandler/accumulatesText``); a JSON scalar's value. Borrowed for the call.
    public let text: TextBytes
    /// Where the element started.
    public let startPosition: SourcePosition
    /// Where the element's end tag is.
    public let position: SourcePosition
    /// 1 for the document element, 2 for its children, and so on.
    public let depth: Int
    /// Whether the element had element children.
    public let hadChildElements: Bool
    /// What the element held: ``ContentKind/markup`` for XML, a JSON type for JSON.
    public var kind: ContentKind = .markup

    init(
        name: Name, text: TextBytes, startPosition: SourcePosition, position: SourcePosition, depth: Int,
        hadChildElements: Bool
    ) {
        unmanagedName = .passUnretained(name)
        self.text = text
        self.startPosition = startPosition
        self.position = position
        self.depth = depth
        self.hadChildElements = hadChildElements
    }
}

/// UTF-8 text borrowed from a parser or the stack, valid during the call only.
public struct TextBytes {
    /// The UTF-8 bytes, valid during the call only.
    public let bytes: UnsafeBufferPointer<UInt8>

    /// Text over `bytes`, which must stay valid while it is used.
    public init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    /// The text as a `String` (allocates).
    public var string: String { String(decoding: bytes, as: UTF8.self) }

    /// Whether the text is empty or only XML white space (space, tab, CR, LF).
    public var isWhitespace: Bool {
        bytes.allSatisfy { $0 == 0x20 || $0 == 0x0A || $0 == 0x09 || $0 == 0x0D }
    }
}
