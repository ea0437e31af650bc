/// Reads JSON text back into a ``JSONValue``: the nested data a
/// ``FieldValue/json(_:_:)`` carries, for outputs that have arrays and dictionaries
/// of their own (property lists, archives).
///
/// It is the input's own JSON reader (``JSONPushParser``) with a receiver that builds
/// the tree, so nested text and JSON input are read by the same rules: the same
/// escapes, the same UTF-8 checks, a lone surrogate refused in both. Numbers keep
/// their text.
extension JSONValue {
    /// Parses `text` (RFC 8259); throws an ``IngestError`` of kind `.data` if it is not JSON.
    public init(parsing text: String) throws {
        try self.init(parsing: text, names: NameTable())
    }

    /// Parses `text`, interning its keys in `names`: a writer that reads many nested
    /// values keeps one table for all of them.
    package init(parsing text: String, names: NameTable) throws {
        let builder = JSONTreeBuilder()
        try JSONPushParser.parseNested(text, into: builder, names: names)
        self = builder.value ?? .null
    }
}

extension JSONPushParser {
    /// The deepest nested JSON text is read to: as deep as the text ingest writes can be
    /// (an XML element with attributes and repeated children adds up to four levels
    /// per level of input, and input nests up to ``ParseLimits/maxSupportedDepth``).
    package static let nestedMaxDepth = 4 * ParseLimits.maxSupportedDepth

    /// Reads one JSON value held in a string — a record's nested data — into
    /// `receiver`, by the same rules as JSON input. Nesting costs no stack.
    package static func parseNested(
        _ text: String, into receiver: any ParseEventReceiver,
        names: NameTable = NameTable()
    ) throws {
        var limits = ParseLimits(maxTextBytes: Int.max >> 1)
        limits.maxDepth = nestedMaxDepth
        let parser = JSONPushParser(
            receiver: receiver, documentName: "", limits: limits, names: names,
            bufferSize: 64, displayName: "nested JSON")
        var text = text
        try text.withUTF8 { try parser.feed(UnsafeRawBufferPointer($0)) }
        try parser.finish()
    }
}

/// Builds a ``JSONValue`` from the events of one JSON document.
final class JSONTreeBuilder: ParseEventReceiver {
    /// The open arrays and objects, innermost last, with their items so far.
    private var open: [(isObject: Bool, key: String, items: [(key: String, value: JSONValue)])] = []
    private(set) var value: JSONValue?

    func startElement(_ name: Name, attributes: Attributes, at position: SourcePosition) {}
    func text(_ bytes: UnsafeBufferPointer<UInt8>, at position: SourcePosition) {}

    func startElement(_ name: Name, kind: ContentKind, at position: SourcePosition) {
        open.append((kind == .object, name.qualified, []))
    }

    func scalar(_ name: Name, kind: ContentKind, text: UnsafeBufferPointer<UInt8>, at position: SourcePosition) {
        add(JSONValue(scalar: kind, TextBytes(text)), key: name.qualified)
    }

    func endElement(_ name: Name, at position: SourcePosition) {
        let container = open.removeLast()
        add(container.isObject ? .object(container.items) : .array(container.items.map(\.value)), key: container.key)
    }

    private func add(_ item: JSONValue, key: String) {
        if open.isEmpty { value = item } else { open[open.count - 1].items.append((key, item)) }
    }
}
