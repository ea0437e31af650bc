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
/// can implement their own.
public protocol ParseEventReceiver: AnyObject {
    func startElement(_ name: Name, attributes: Attributes, at position: SourcePosition) throws
    func text(_ bytes: UnsafeBufferPointer<UInt8>, at position: SourcePosition) throws
    func endElement(_ name: Name, at position: SourcePosition) throws

    /// A JSON object or array starts; its members or items follow as child elements
    /// and ``endElement(_:at:)`` closes it. Default: ``startElement(_:attributes:at:)``.
    func startElement(_ name: Name, kind: ContentKind, at position: SourcePosition) throws

    /// A JSON scalar: an element that starts, holds `text` and ends, in one call.
    /// Default: the three element events (no text event for empty text).
    func scalar(_ name: Name, kind: ContentKind, text: UnsafeBufferPointer<UInt8>,
                at position: SourcePosition) throws
}

extension ParseEventReceiver {
    public func startElement(_ name: Name, kind: ContentKind, at position: SourcePosition) throws {
        try startElement(name, attributes: .none, at: position)
    }

    public func scalar(_ name: Name, kind: ContentKind, text: UnsafeBufferPointer<UInt8>,
                       at position: SourcePosition) throws {
        try startElement(name, attributes: .none, at: position)
        if !text.isEmpty { try self.text(text, at: position) }
        try endElement(name, at: position)
    }
}

/// Receives events and does nothing with them: parsing alone, for `--parse-only`.
public final class DiscardingReceiver: ParseEventReceiver {
    public init() {}
    public func startElement(_ name: Name, attributes: Attributes, at position: SourcePosition) {}
    public func text(_ bytes: UnsafeBufferPointer<UInt8>, at position: SourcePosition) {}
    public func endElement(_ name: Name, at position: SourcePosition) {}
    public func startElement(_ name: Name, kind: ContentKind, at position: SourcePosition) {}
    public func scalar(_ name: Name, kind: ContentKind, text: UnsafeBufferPointer<UInt8>, at position: SourcePosition) {}
}
