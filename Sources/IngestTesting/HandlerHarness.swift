import IngestCore
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
/// try harness.finish()          // throws if an element was left open
/// ```
///
/// With a mapping, what the handlers produced is read back as records:
///
/// ```swift
/// let harness = try HandlerHarness(mapping: .automatic())
/// try harness.start("people"); try harness.start("person")
/// try harness.element("firstName", text: "Matt")
/// try harness.end("person"); try harness.end("people")
/// try harness.finish()
/// #expect(harness.readRecord()?["firstName"] == .text("Matt"))
/// ```
///
/// Every event advances a fake position by one line, so errors report a line number
/// tests can check.
public final class HandlerHarness {
    /// The names of the events sent so far, interned as a parser would intern them.
    public let names = NameTable()
    /// The stack the events go to; its ``/IngestCore/HandlerStack/depth`` tells how
    /// many elements are open.
    public let stack: HandlerStack
    /// The position of the last event: each event is one line further on.
    public private(set) var position = SourcePosition.start
    /// The records the mapping wrote, with ``init(mapping:format:limits:)``.
    public let collector = RecordCollector()
    private let mapping: (any DocumentMapping)?

    /// A harness whose `root` handler takes the first element started, under `limits`.
    public init(root: any ElementHandler, limits: ParseLimits = .default) {
        stack = HandlerStack(root: root, limits: limits)
        mapping = nil
    }

    /// Drives `mapping`'s handlers for a document of `format`; its records are kept
    /// in ``collector``.
    public init(mapping recipe: any RecordMapping, format: InputFormat = .xml, limits: ParseLimits = .default) throws {
        let mapping = try recipe.mapping(for: format, inputName: "<harness>", limits: limits, into: collector)
        stack = HandlerStack(root: try mapping.makeRootHandler(), limits: limits)
        self.mapping = mapping
    }

    /// The document is over: throws ``Unbalanced`` when elements are still open,
    /// then whatever the mapping says when it found no records.
    public func finish() throws {
        if stack.depth > 0 { throw Unbalanced(openElements: stack.depth, position: position) }
        try mapping?.checkMatched()
    }

    /// The oldest record the mapping wrote that has not been read yet.
    public func readRecord() -> CollectedRecord? { collector.readRecord() }

    /// ``finish()`` found elements that were started and never ended.
    public struct Unbalanced: Error, CustomStringConvertible {
        /// How many elements were started and never ended.
        public let openElements: Int
        /// The position of the last event sent.
        public let position: SourcePosition
        public var description: String {
            "\(openElements) element\(openElements == 1 ? "" : "s") still open at the end (line \(position.line))"
        }
    }

    /// A JSON scalar: an element of `kind` holding `text`, in one event.
    public func scalar(_ name: String, kind: ContentKind, text: String) throws {
        advance()
        var text = text
        try text.withUTF8 { try stack.scalar(names.intern(name), kind: kind, text: $0, at: position) }
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
