/// A small JSON tree, used for nested and repeated data kept in one field, and
/// written out as compact JSON text.
public indirect enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    /// A number, exactly as written.
    case number(String)
    case string(String)
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
        var out = ""
        write(to: &out)
        return out
    }

    public func write(to out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let value): out += value ? "true" : "false"
        case .number(let text): out += text
        case .string(let text): Self.writeString(text, to: &out)
        case .array(let items):
            out += "["
            for (index, item) in items.enumerated() {
                if index > 0 { out += "," }
                item.write(to: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (index, member) in members.enumerated() {
                if index > 0 { out += "," }
                Self.writeString(member.key, to: &out)
                out += ":"
                member.value.write(to: &out)
            }
            out += "}"
        }
    }

    /// Writes `text` as a JSON string literal.
    public static func writeString(_ text: String, to out: inout String) {
        out += "\""
        defer { out += "\"" }
        if !text.utf8.contains(where: { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }) {
            out += text
            return
        }
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
    }
}
