/// Writes an element and everything inside it as compact JSON text, straight into a
/// byte buffer: the automatic mapping's nested fields, by the rules of
/// ``ElementTreeHandler`` (with which it agrees value for value) but without
/// building a ``JSONValue`` tree of `String`s first.
///
/// Each element's value is written where its region of the shared buffer starts:
/// children write their values after it as they end, and when the element ends its
/// value is composed from its children's and put in their place. One handler per
/// nesting level serves every element of that level.
final class JSONFieldHandler: ElementHandler {
    /// The buffer the values are written into, shared by every level of one field.
    ///
    /// Every value is written one byte after where its region starts: that byte is
    /// kept free for what goes before the value in its parent's list — `[` for the
    /// first item, `,` for the others — so a list is made without moving its items.
    ///
    /// Safety (`@exclusivity(unchecked)` here and on the handler's properties): one
    /// field is written on the parsing thread by one handler at a time, and while
    /// `bytes` is borrowed (`withUnsafeBufferPointer`, `withValue`) only locals and
    /// the caller's batch are written, never `bytes` or `composing`.
    final class Output {
        /// The most bytes one field's value may take.
        let maxBytes: Int
        init(maxBytes: Int) { self.maxBytes = maxBytes }
        @exclusivity(unchecked) var bytes: [UInt8] = []
        /// Scratch for composing an object before it replaces its children's bytes.
        @exclusivity(unchecked) var composing: [UInt8] = []
    }

    private let output: Output
    /// Whether this handler takes the field's own element, whose value the record
    /// handler reads itself when it is a leaf (its text).
    private let isField: Bool
    /// Where this element's region starts in ``Output/bytes``.
    @exclusivity(unchecked) private var regionStart = 0
    /// The attributes, as (name, value) ranges in ``attributeBytes``.
    @exclusivity(unchecked) private var attributes: [(name: Range<Int>, value: Range<Int>)] = []
    @exclusivity(unchecked) private var attributeBytes: [UInt8] = []
    /// The children's names and where their values are in ``Output/bytes``. The
    /// names are the parser's (see `Unowned`); the list is cleared at each start.
    @exclusivity(unchecked) private var children: [(name: Unowned<Name>, value: Range<Int>)] = []
    private lazy var childHandler = JSONFieldHandler(output: output, isField: false)

    /// The handler of a field element whose value may take `maxBytes` bytes; its
    /// children get handlers of their own.
    convenience init(maxBytes: Int = ParseLimits.default.maxTextBytes) {
        self.init(output: Output(maxBytes: maxBytes), isField: true)
    }

    private init(output: Output, isField: Bool) {
        self.output = output
        self.isField = isField
    }

    var receivesText: Bool { false }

    /// The value written for the field that just ended, as JSON text; not written
    /// for a leaf element (``isLeaf``), whose value is its text.
    func withValue<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try output.bytes.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[1...])) }
    }

    /// Whether the element had neither attributes nor child elements.
    var isLeaf: Bool { attributes.isEmpty && children.isEmpty }

    func didStart(_ element: ElementStart) throws {
        if !attributes.isEmpty { attributes.removeAll(keepingCapacity: true) }
        if !children.isEmpty { children.removeAll(keepingCapacity: true) }
        // Most fields are leaves, whose value is their text: a field's buffer is set
        // up only when the element turns out to have attributes or children.
        regionStart = -1
        if !isField { beginRegion() }
        guard !element.attributes.isEmpty else { return }
        beginRegion()
        attributeBytes.removeAll(keepingCapacity: true)
        for attribute in element.attributes {
            let nameStart = attributeBytes.count
            attributeBytes.append(UInt8(ascii: "@"))
            attributeBytes.append(contentsOf: attribute.name.qualified.utf8)
            let valueStart = attributeBytes.count
            attributeBytes.append(contentsOf: attribute.value)
            attributes.append((nameStart..<valueStart, valueStart..<attributeBytes.count))
        }
    }

    /// Fails once the field's value has grown past its bound: nested data counts
    /// against ``ParseLimits/maxTextBytes`` as text does.
    @inline(__always)
    private func checkSize() throws {
        guard output.bytes.count <= output.maxBytes else {
            throw IngestError(
                .data, "nested data of one field exceeds \(output.maxBytes) bytes", reason: .textLimit(output.maxBytes))
        }
    }

    /// Starts this element's region in the buffer, once: a field's empties the buffer.
    @inline(__always)
    private func beginRegion() {
        guard regionStart < 0 else { return }
        if isField, !output.bytes.isEmpty { output.bytes.removeAll(keepingCapacity: true) }
        regionStart = output.bytes.count
        output.bytes.append(0)  // the byte kept free before the value
    }

    func handler(forChild element: ElementStart) throws -> (any ElementHandler)? {
        beginRegion()
        return childHandler
    }

    /// Leaf children come whole, through ``take(scalar:)``.
    var takesLeafChildren: Bool { true }

    /// A leaf child element (a string) or a JSON scalar, written in place.
    func take(scalar element: ElementEnd) throws -> Bool {
        try checkSize()
        beginRegion()
        let start = output.bytes.count
        output.bytes.append(0)
        JSONValue.writeScalar(element.kind, element.text.bytes, into: &output.bytes)
        children.append((Unowned(element.name), start..<output.bytes.count))
        try checkSize()
        return true
    }

    func didFinish(child: any ElementHandler, element: ElementEnd) throws {
        try checkSize()
        // The child wrote its value at the end of the buffer; it starts where the child's region did.
        children.append((Unowned(element.name), childHandler.regionStart..<output.bytes.count))
    }

    func didEnd(_ element: ElementEnd) throws {
        if element.kind == .markup, isLeaf {
            if !isField { JSONValue.writeString(bytes: element.text.bytes, into: &output.bytes) }
            return
        }
        try checkSize()
        beginRegion()
        switch element.kind {
        case .markup: composeMarkup(text: element.text)
        case .array: compose(open: UInt8(ascii: "["), close: UInt8(ascii: "]"), keys: false)
        case .object: compose(open: UInt8(ascii: "{"), close: UInt8(ascii: "}"), keys: true)
        default:
            output.bytes.removeSubrange((regionStart + 1)...)
            JSONValue.writeScalar(element.kind, element.text.bytes, into: &output.bytes)
        }
        try checkSize()
    }

    /// An XML element: a string when it is a leaf, a list when its children share one
    /// name, an object otherwise (see ``ElementTreeHandler``).
    private func composeMarkup(text: TextBytes) {
        if attributes.isEmpty, text.isWhitespace, let first = children.first?.name.object,
            children.allSatisfy({ $0.name.object === first })
        {
            return compose(open: UInt8(ascii: "["), close: UInt8(ascii: "]"), keys: false)
        }
        // Taken out of the output, not copied: the scratch has one owner while it grows.
        var out: [UInt8] = []
        swap(&out, &output.composing)
        out.removeAll(keepingCapacity: true)
        out.append(UInt8(ascii: "{"))
        var first = true
        func key(_ bytes: UnsafeBufferPointer<UInt8>) {
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            JSONValue.writeString(bytes: bytes, into: &out)
            out.append(UInt8(ascii: ":"))
        }
        attributeBytes.withUnsafeBufferPointer { buffer in
            for attribute in attributes {
                key(UnsafeBufferPointer(rebasing: buffer[attribute.name]))
                JSONValue.writeString(bytes: UnsafeBufferPointer(rebasing: buffer[attribute.value]), into: &out)
            }
        }
        // Children by name, names in the order first met: a name met more than once
        // holds a list, where its first occurrence was.
        var groups: [ObjectIdentifier: [Range<Int>]] = [:]
        var order: [Name] = []
        for child in children {
            let name = child.name.object
            if groups[ObjectIdentifier(name), default: []].isEmpty { order.append(name) }
            groups[ObjectIdentifier(name), default: []].append(child.value)
        }
        output.bytes.withUnsafeBufferPointer { values in
            for name in order {
                var qualified = name.qualified
                qualified.withUTF8 { key($0) }
                let ranges = groups[ObjectIdentifier(name)]!
                if ranges.count > 1 { out.append(UInt8(ascii: "[")) }
                for (item, range) in ranges.enumerated() {
                    if item > 0 { out.append(UInt8(ascii: ",")) }
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: values[range.dropFirst()]))
                }
                if ranges.count > 1 { out.append(UInt8(ascii: "]")) }
            }
        }
        if !text.isWhitespace {
            // A static string's bytes live as long as the program (a String's would not).
            let textKey: StaticString = "#text"
            key(UnsafeBufferPointer(start: textKey.utf8Start, count: textKey.utf8CodeUnitCount))
            JSONValue.writeString(bytes: text.bytes, into: &out)
        }
        out.append(UInt8(ascii: "}"))
        replaceRegion(with: &out)
    }

    /// `[v1,v2]`, or `{"k1":v1,"k2":v2}` with the children's names as keys.
    private func compose(open: UInt8, close: UInt8, keys: Bool) {
        if !keys {
            // The items are in place, each after its free byte: fill those in.
            if children.isEmpty {
                output.bytes.append(open)
            } else {
                for (index, child) in children.enumerated() {
                    output.bytes[child.value.lowerBound] = index == 0 ? open : UInt8(ascii: ",")
                }
            }
            output.bytes.append(close)
            return
        }
        // Taken out of the output, not copied: the scratch has one owner while it grows.
        var out: [UInt8] = []
        swap(&out, &output.composing)
        out.removeAll(keepingCapacity: true)
        out.append(open)
        output.bytes.withUnsafeBufferPointer { values in
            for (index, child) in children.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                if keys {
                    var qualified = child.name.object.qualified
                    qualified.withUTF8 { JSONValue.writeString(bytes: $0, into: &out) }
                    out.append(UInt8(ascii: ":"))
                }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: values[child.value.dropFirst()]))
            }
        }
        out.append(close)
        replaceRegion(with: &out)
    }

    /// Puts the composed value where this element's region starts, in place of its
    /// children's values; the scratch goes back to the output for the next use.
    private func replaceRegion(with composed: inout [UInt8]) {
        output.bytes.removeSubrange((regionStart + 1)...)
        output.bytes.append(contentsOf: composed)
        output.composing = composed
    }
}

extension JSONValue {
    /// Appends `bytes` (UTF-8) as a JSON string literal: see ``writeString(_:into:)``.
    static func writeString(bytes: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        defer { out.append(UInt8(ascii: "\"")) }
        var plainStart = 0
        for (index, byte) in bytes.enumerated() where byte < 0x20 || byte == 0x22 || byte == 0x5C {
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[plainStart..<index]))
            plainStart = index + 1
            switch byte {
            case 0x22: out.append(contentsOf: [0x5C, 0x22])  // \"
            case 0x5C: out.append(contentsOf: [0x5C, 0x5C])  // \\
            case 0x0A: out.append(contentsOf: [0x5C, UInt8(ascii: "n")])
            case 0x0D: out.append(contentsOf: [0x5C, UInt8(ascii: "r")])
            case 0x09: out.append(contentsOf: [0x5C, UInt8(ascii: "t")])
            default:
                let hex: [UInt8] = Array("0123456789abcdef".utf8)
                out.append(contentsOf: [
                    0x5C, UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                    hex[Int(byte >> 4)], hex[Int(byte & 0xF)]
                ])
            }
        }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[plainStart...]))
    }

    /// Appends a JSON scalar element's value: a string literal, a number as written,
    /// `true`, `false` or `null`.
    static func writeScalar(_ kind: ContentKind, _ bytes: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) {
        switch kind {
        case .number: out.append(contentsOf: bytes)
        case .boolean: out.append(contentsOf: (bytes.first == UInt8(ascii: "t") ? "true" : "false").utf8)
        case .null: out.append(contentsOf: "null".utf8)
        default: writeString(bytes: bytes, into: &out)
        }
    }
}
