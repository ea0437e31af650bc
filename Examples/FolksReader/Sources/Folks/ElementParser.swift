import IngestCore

/// Neuburg's `MyXMLParserDelegate`: the base class of every handler here, one
/// instance per element it parses.
///
/// Neuburg's delegate made each child the parser's delegate itself (`makeChild:`)
/// and made its parent the delegate again when the child's element ended. Here the
/// `HandlerStack` does both swaps: the handler in charge returns the child's
/// handler from ``handler(forChild:)`` and the stack makes it the handler in
/// charge; when the child's element ends, the stack tells the child ``didEnd(_:)``,
/// tells the parent ``didFinish(child:element:)`` — Neuburg's `finishedChild:` — and
/// puts the parent back in charge. So `didStart` and `didEnd` of one element still
/// arrive at a different object from the one that saw the element begin, as in
/// Neuburg's chapter, but no handler ever touches the parser, or needs `parent` and `child`
/// properties to find its way back.
///
/// Used as it is, it is Neuburg's "plain vanilla" delegate: it skips any child
/// elements and keeps its element's text.
public class ElementParser: ElementHandler {
    /// The element this handler parses, as written (Neuburg's `name`).
    public private(set) var name = ""
    /// The element's text, all of it, once the element has ended (Neuburg's `text`).
    /// The stack accumulates it, however many pieces the parser delivered it in.
    public private(set) var text = ""

    public required init() {}

    /// Neuburg's `start:parent:`: this handler's element has begun.
    public func didStart(_ element: ElementStart) throws {
        name = element.name.qualified
    }

    /// Neuburg's `makeChild:elementName:parser:`: the handler for a child element,
    /// or `nil` to skip the child and everything inside it. A plain element parser
    /// skips its children.
    public func handler(forChild element: ElementStart) throws -> (any ElementHandler)? {
        nil
    }

    /// This handler's element has ended: keep its text for the parent to read.
    public func didEnd(_ element: ElementEnd) throws {
        text = element.text.string
    }

    /// Neuburg's `finishedChild:`: a child this handler returned from
    /// ``handler(forChild:)`` has ended; take what it parsed. Subclasses override it.
    public func didFinish(child: any ElementHandler, element: ElementEnd) throws {}
}
