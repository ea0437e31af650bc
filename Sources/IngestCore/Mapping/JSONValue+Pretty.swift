/// JSON for people to read and edit.
extension JSONValue {
    /// The value indented by two spaces a level, members as `"key": value`. An array
    /// or object holding only scalars stays on one line when that line fits in
    /// `width` columns: a schema's field reads as `{"name": "id", "type": "integer"}`.
    /// What is nested deeper than ``deepestPrettyIndent`` spaces is written on one
    /// line, compact: indentation grows with depth, so deeply nested input (a feed's
    /// extensions a thousand levels down) would otherwise come out quadratically
    /// larger than it went in.
    public func prettyText(width: Int = 100) -> String {
        prettyText(width: width, indent: 0, column: 0)
    }

    /// The value as ``prettyText(width:)`` lays it out inside an enclosing value
    /// indented by `indent` spaces, where it starts `column` columns into its line:
    /// for writers that stream a large array or object part by part and must lay out
    /// each part as the whole would.
    public func prettyText(width: Int = 100, indent: Int, column: Int) -> String {
        var out = ""
        writePretty(to: &out, indent: indent, column: column, width: width)
        return out
    }

    /// One member of an object indented by `indent` spaces, as the object's pretty
    /// text holds it on its own line — indentation, `"key": ` and value — without the
    /// separator after it.
    public static func prettyMember(_ key: String, _ value: JSONValue, indent: Int, width: Int = 100) -> String {
        var out = ""
        writePrettyMember(key, value, to: &out, indent: indent, width: width)
        return out
    }

    private static func writePrettyMember(
        _ key: String, _ value: JSONValue, to out: inout String, indent: Int, width: Int
    ) {
        let start = out.utf8.count
        out += String(repeating: " ", count: indent + 2)
        JSONValue.writeString(key, to: &out)
        out += ": "
        value.writePretty(to: &out, indent: indent + 2, column: out.utf8.count - start, width: width)
    }

    /// The deepest indentation ``prettyText(width:)`` writes, in spaces; values
    /// nested deeper are written compact.
    public static let deepestPrettyIndent = 128

    private func writePretty(to out: inout String, indent: Int, column: Int, width: Int) {
        guard indent <= Self.deepestPrettyIndent else { return write(to: &out) }
        switch self {
        case .array(let items):
            guard !items.isEmpty else { return out += "[]" }
            if let line = oneLine, column + line.count <= width { return out += line }
            out += "[\n"
            for (index, item) in items.enumerated() {
                out += String(repeating: " ", count: indent + 2)
                item.writePretty(to: &out, indent: indent + 2, column: indent + 2, width: width)
                out += index < items.count - 1 ? ",\n" : "\n"
            }
            out += String(repeating: " ", count: indent) + "]"
        case .object(let members):
            guard !members.isEmpty else { return out += "{}" }
            if let line = oneLine, column + line.count <= width { return out += line }
            out += "{\n"
            for (index, member) in members.enumerated() {
                Self.writePrettyMember(member.key, member.value, to: &out, indent: indent, width: width)
                out += index < members.count - 1 ? ",\n" : "\n"
            }
            out += String(repeating: " ", count: indent) + "}"
        default:
            write(to: &out)
        }
    }

    /// `[1, 2]` or `{"a": 1, "b": []}` when every item is a scalar or empty, else nil.
    private var oneLine: String? {
        var out = ""
        switch self {
        case .array(let items):
            guard items.allSatisfy(\.isFlat) else { return nil }
            out += "["
            for (index, item) in items.enumerated() {
                if index > 0 { out += ", " }
                item.write(to: &out)
            }
            out += "]"
        case .object(let members):
            guard members.allSatisfy(\.value.isFlat) else { return nil }
            out += "{"
            for (index, member) in members.enumerated() {
                if index > 0 { out += ", " }
                JSONValue.writeString(member.key, to: &out)
                out += ": "
                member.value.write(to: &out)
            }
            out += "}"
        default:
            return nil
        }
        return out
    }

    /// A scalar, `[]` or `{}`: written the same on one line or several.
    private var isFlat: Bool {
        switch self {
        case .array(let items): items.isEmpty
        case .object(let members): members.isEmpty
        default: true
        }
    }
}
