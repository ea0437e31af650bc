/// A small JSON tree, used for nested and repeated data kept in one field, and
/// written out as compact JSON text.
public indirect enum JSONValue: Equatable, Sendable {
    /// JSON `null`.
    case null
    /// JSON `true` or `false`.
    case bool(Bool)
    /// A number, exactly as written.
    case number(String)
    /// A string, unescaped.
    case string(String)
    /// Elements in document order.
    case array([JSONValue])
    /// Members in document order; keys may repeat only if the input repeated them.
    case object([(key: String, value: JSONValue)])

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case let (.bool(a), .bool(b)): a == b
        case let (.number(a), .number(b)), let (.string(a), .string(b)): a == b
        case let (.array(a), .array(b)): a == b
        case let (.object(a), .object(b)):
            a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: false
        }
    }

    /// The value of a JSON scalar element (``ContentKind/isScalar``).
    public init(scalar kind: ContentKind, _ text: TextBytes) {
        switch kind {
        case .number: self = .number(text.string)
        case .boolean: self = .bool(text.bytes.first == UInt8(ascii: "t"))
        case .null: self = .null
        default: self = .string(text.string)
        }
    }

    /// Compact JSON text (RFC 8259), non-ASCII characters kept as UTF-8.
    public var serialized: String {
        var bytes: [UInt8] = []
        write(into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the compact JSON text (``serialized``) to `out`.
    public func write(to out: inout String) {
        out += serialized
    }

    /// Appends the compact JSON text as UTF-8: bytes, because appending small pieces
    /// to a `String` costs several times more, and this runs for every nested value.
    public func write(into out: inout [UInt8]) {
        write(into: &out, depth: 0)
    }

    /// Recursive for the first ``recursionDepth`` levels (the common case, and the
    /// fastest), then without recursion (``writeWithoutRecursion(into:)``), so any
    /// depth writes on any thread.
    func write(into out: inout [UInt8], depth: Int) {
        if depth == Self.recursionDepth { return writeWithoutRecursion(into: &out) }
        switch self {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let value): out.append(contentsOf: (value ? "true" : "false").utf8)
        case .number(let text): out.append(contentsOf: text.utf8)
        case .string(let text): Self.writeString(text, into: &out)
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                item.write(into: &out, depth: depth + 1)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            for (index, member) in members.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                Self.writeString(member.key, into: &out)
                out.append(UInt8(ascii: ":"))
                member.value.write(into: &out, depth: depth + 1)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// Writes `text` as a JSON string literal.
    public static func writeString(_ text: String, to out: inout String) {
        guard needsEscaping(text) else {
            // The common case, as cheap as before: no escapes, no byte buffer.
            out += "\""
            out += text
            out += "\""
            return
        }
        var bytes: [UInt8] = []
        writeString(text, into: &bytes)
        out += String(decoding: bytes, as: UTF8.self)
    }

    /// `"`, `\\` and control characters: what a JSON string literal must escape.
    private static func needsEscape(_ byte: UInt8) -> Bool { byte < 0x20 || byte == 0x22 || byte == 0x5C }

    /// Whether `text` has a byte to escape, read from its storage when it is
    /// contiguous (a native string: nearly always), not a byte at a time through its
    /// view.
    private static func needsEscaping(_ text: String) -> Bool {
        text.utf8.withContiguousStorageIfAvailable { $0.contains(where: needsEscape) }
            ?? text.utf8.contains(where: needsEscape)
    }

    /// Appends `text` as a JSON string literal in UTF-8. Only `"`, `\\` and control
    /// characters are escaped; they are ASCII, so the UTF-8 can be scanned byte by byte.
    public static func writeString(_ text: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        defer { out.append(UInt8(ascii: "\"")) }
        if !needsEscaping(text) {
            out.append(contentsOf: text.utf8)
            return
        }
        let hexDigits = Array("0123456789abcdef".utf8)
        for byte in text.utf8 {
            switch byte {
            case 0x22: out.append(contentsOf: [0x5C, 0x22])  // \"
            case 0x5C: out.append(contentsOf: [0x5C, 0x5C])  // \\
            case 0x0A: out.append(contentsOf: [0x5C, UInt8(ascii: "n")])
            case 0x0D: out.append(contentsOf: [0x5C, UInt8(ascii: "r")])
            case 0x09: out.append(contentsOf: [0x5C, UInt8(ascii: "t")])
            case ..<0x20:
                out.append(contentsOf: [
                    0x5C, UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                    hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0xF)]
                ])
            default: out.append(byte)
            }
        }
    }
}
