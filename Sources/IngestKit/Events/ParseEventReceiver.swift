/// The one event model every parser emits — Expat, libxml2 and the JSON reader alike.
///
/// A parser calls these methods in document order. Names arrive interned; text and
/// attribute values arrive as bytes (UTF-8) that are valid only for the duration of the
/// call, so nothing on this path allocates a `String` unless a receiver keeps a value.
/// Text may arrive in several pieces for one stretch of character data.
///
/// ``HandlerStack`` is the receiver that drives element handlers; tests and tools
/// can implement their own.
public protocol ParseEventReceiver: AnyObject {
    func startElement(_ name: Name, attributes: Attributes, at position: SourcePosition) throws
    func text(_ bytes: UnsafeBufferPointer<UInt8>, at position: SourcePosition) throws
    func endElement(_ name: Name, at position: SourcePosition) throws
}
