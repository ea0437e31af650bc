/// Drives element handlers with hand-made events and no parser, in the spirit of
/// swift-nio's `EmbeddedChannel`: handler tests stay short and exact.
///
/// ```swift
/// let people = PeopleHandler()
/// let harness = HandlerHarness(root: people)
/// try harness.start("people")
/// try harness.start("person")
/// try harness.element("firstName", text: "Matt")
/// try harness.end("person")
/// try harness.end("people")
/// ```
///
/// Every event advances a fake position by one line, so errors report a line number
/// tests can check.
public final class HandlerHarness {
    public let names = NameTable()
    public let stack: HandlerStack
    public private(set) var position = SourcePosition.start

    public init(root: any ElementHandler, limits: ParseLimits = .default) {
        stack = HandlerStack(root: root, limits: limits)
    }

    /// Starts an element with `attributes` in the given order.
    public func start(_ name: String, attributes: KeyValuePairs<String, String> = [:]) throws {
        advance()
        let values = attributes.map { pair in
            let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: pair.value.utf8.count)
            _ = buffer.initialize(from: pair.value.utf8)
            return buffer
        }
        defer { values.forEach { $0.deallocate() } }
        let list = zip(attributes, values).map { pair, value in
            Attribute(name: names.intern(pair.key), value: UnsafeBufferPointer(value))
        }
        try list.withUnsafeBufferPointer {
            try stack.startElement(names.intern(name), attributes: Attributes($0), at: position)
        }
    }

    /// Delivers `text` in one piece.
    public func text(_ text: String) throws {
        advance()
        var text = text
        try text.withUTF8 { try stack.text($0, at: position) }
    }

    /// Ends the element `name`.
    public func end(_ name: String) throws {
        advance()
        try stack.endElement(names.intern(name), at: position)
    }

    /// `<name>text</name>` in three events.
    public func element(_ name: String, text: String) throws {
        try start(name)
        try self.text(text)
        try end(name)
    }

    private func advance() {
        position = SourcePosition(line: position.line + 1, column: 1, byteOffset: position.byteOffset + 1)
    }
}
