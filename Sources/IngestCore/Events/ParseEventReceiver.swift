/// The one event model every parser emits — Expat, libxml2 and the JSON reader alike.
///
/// A parser calls these methods in document order. Names arrive interned; text and
/// attribute values arrive as bytes (UTF-8) that are valid only for the duration of the
/// call, so nothing on this path allocates a `String` unless a receiver keeps a value.
/// Text may arrive in several pieces for one stretch of character data.
///
/// XML parsers use the first three methods. The JSON reader describes a document with
/// the same elements (see ``JSONParser``) and adds the kind of each value through
/// ``startElement(_:kind:at:)`` and ``scalar(_:kind:text:at:)``; their defaults turn
/// them into plain element events, so a receiver written for XML reads JSON too.
///
/// ``HandlerStack`` is the receiver that drives element handlers; tests and tools
/// can implement their own. A receiver must not feed the parser that is calling it
/// (``PushParser/feed(_:)-(UnsafeRawBufferPointer)`` from inside an event): the
/// parsers are not reentrant.
public protocol ParseEventReceiver: AnyObject {
    /// An element starts, at `position` (where its `<` is), with its attributes in
    /// document order — namespace declarations are not among them.
    func startElement(_ name: Name, attributes: Attributes, at position: SourcePosition) throws

    /// A piece of character data inside the current element: UTF-8, entities and
    /// CDATA sections resolved, borrowed for the call. One stretch of text may arrive
    /// in several pieces, split wherever the parser chooses (at the end of its buffer,
    /// around an entity reference, at a line end).
    func text(_ bytes: UnsafeBufferPointer<UInt8>, at position: SourcePosition) throws

    /// The current element ends, at the position of its end tag.
    func endElement(_ name: Name, at position: SourcePosition) throws

    /// A JSON object or array starts; its members or items follow as child elements
    /// and ``endElement(_:at:)`` closes it. Default: ``startElement(_:attributes:at:)``.
    func startElement(_ name: Name, kind: ContentKind, at position: SourcePosition) throws

    /// A JSON scalar: an element that starts, holds `text` and ends, in one call.
    /// Default: the three element events (no text event for empty text).
    func scalar(
        _ name: Name, kind: ContentKind, text: UnsafeBufferPointer<UInt8>,
        at position: SourcePosition) throws
}

extension ParseEventReceiver {
    /// Sends ``startElement(_:attributes:at:)`` with no attributes: a receiver written
    /// for XML sees a JSON object or array as an element.
    public func startElement(_ name: Name, kind: ContentKind, at position: SourcePosition) throws {
        try startElement(name, attributes: .none, at: position)
    }

    /// Sends the scalar as ``startElement(_:attributes:at:)``,
    /// ``text(_:at:)`` (unless `text` is empty) and ``endElement(_:at:)``, all at
    /// `position`: a receiver written for XML sees a JSON value as an element holding
    /// its text.
    public func scalar(
        _ name: Name, kind: ContentKind, text: UnsafeBufferPointer<UInt8>,
        at position: SourcePosition
    ) throws {
        try startElement(name, attributes: .none, at: position)
        if !text.isEmpty { try self.text(text, at: position) }
        try endElement(name, at: position)
    }
}

/// Receives events and does nothing with them: parsing alone, for `--parse-only`.
public final class DiscardingReceiver: ParseEventReceiver {
    /// A receiver that ignores everything.
    public init() {}
    /// Ignores the element's start.
    public func startElement(_ name: Name, attributes: Attributes, at position: SourcePosition) {}
    /// Ignores the text.
    public func text(_ bytes: UnsafeBufferPointer<UInt8>, at position: SourcePosition) {}
    /// Ignores the element's end.
    public func endElement(_ name: Name, at position: SourcePosition) {}
    /// Ignores the JSON object's or array's start.
    public func startElement(_ name: Name, kind: ContentKind, at position: SourcePosition) {}
    /// Ignores the JSON scalar.
    public func scalar(_ name: Name, kind: ContentKind, text: UnsafeBufferPointer<UInt8>, at position: SourcePosition) {
    }
}
