/// Reads JSON text back into a ``JSONValue``: the nested data a ``FieldValue/json(_:_:)``
/// carries, for outputs that have arrays and dictionaries of their own (property
/// lists, archives). Numbers keep their text; strings are unescaped, surrogate
/// pairs joined. Values are small, so this is a plain recursive-descent parser.
extension JSONValue {
    /// Parses `text` (RFC 8259); throws an ``IngestError`` of kind `.data` if it is not JSON.
    public init(parsing text: String) throws {
        var text = text
        self = try text.withUTF8 { bytes in
            var parser = JSONTextParser(bytes: bytes)
            let value = try parser.value(depth: 0)
            parser.skipWhitespace()
            guard parser.index == bytes.count else { throw parser.error("unexpected text after the value") }
            return value
        }
    }
}

struct JSONTextParser {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0
    static let maxDepth = 10_000

    init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    func error(_ message: String) -> IngestError {
        IngestError(.data, "nested JSON value, byte \(index): \(message)")
    }

    mutating func skipWhitespace() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    mutating func value(depth: Int) throws -> JSONValue {
        guard depth < Self.maxDepth else { throw error("nested too deeply") }
        skipWhitespace()
        guard index < bytes.count else { throw error("a value is missing") }
        switch bytes[index] {
        case UInt8(ascii: "{"):
            index += 1
            var members: [(key: String, value: JSONValue)] = []
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
            while true {
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw error("expected a key") }
                let key = try string()
                skipWhitespace()
                try expect(UInt8(ascii: ":"))
                members.append((key, try value(depth: depth + 1)))
                skipWhitespace()
                if try endOrComma(UInt8(ascii: "}")) { return .object(members) }
            }
        case UInt8(ascii: "["):
            index += 1
            var items: [JSONValue] = []
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return .array(items) }
            while true {
                items.append(try value(depth: depth + 1))
                skipWhitespace()
                if try endOrComma(UInt8(ascii: "]")) { return .array(items) }
            }
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        default: return .number(try number())
        }
    }

    private mutating func expect(_ byte: UInt8) throws {
        guard index < bytes.count, bytes[index] == byte else { throw error("expected '\(Character(Unicode.Scalar(byte)))'") }
        index += 1
    }

    private mutating func endOrComma(_ close: UInt8) throws -> Bool {
        guard index < bytes.count else { throw error("unterminated") }
        if bytes[index] == close { index += 1; return true }
        try expect(UInt8(ascii: ","))
        return false
    }

    private mutating func literal(_ word: StaticString) throws {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count,
              (0..<count).allSatisfy({ bytes[index + $0] == word.utf8Start[$0] }) else { throw error("invalid literal") }
        index += count
    }

    private mutating func number() throws -> String {
        let start = index
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        while index < bytes.count, NumberSyntax.isDigit(bytes[index]) || [UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"), UInt8(ascii: "+"), UInt8(ascii: "-")].contains(bytes[index]) {
            index += 1
        }
        guard index > start else { throw error("unexpected character") }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
    }

    private mutating func string() throws -> String {
        index += 1  // the opening quote
        let start = index
        // Fast path: no escapes.
        while index < bytes.count, bytes[index] != UInt8(ascii: "\""), bytes[index] != UInt8(ascii: "\\") { index += 1 }
        guard index < bytes.count else { throw error("unterminated string") }
        if bytes[index] == UInt8(ascii: "\"") {
            defer { index += 1 }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        }
        var result = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        var pendingHigh: UInt32?
        while true {
            guard index < bytes.count else { throw error("unterminated string") }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") { index += 1; break }
            if byte != UInt8(ascii: "\\") {
                let runStart = index
                while index < bytes.count, bytes[index] != UInt8(ascii: "\""), bytes[index] != UInt8(ascii: "\\") { index += 1 }
                if pendingHigh != nil { result.unicodeScalars.append("\u{FFFD}"); pendingHigh = nil }
                result += String(decoding: UnsafeBufferPointer(rebasing: bytes[runStart..<index]), as: UTF8.self)
                continue
            }
            index += 1
            guard index < bytes.count else { throw error("unterminated escape") }
            let escape = bytes[index]
            index += 1
            var scalar: UInt32
            switch escape {
            case UInt8(ascii: "\""): scalar = 0x22
            case UInt8(ascii: "\\"): scalar = 0x5C
            case UInt8(ascii: "/"): scalar = 0x2F
            case UInt8(ascii: "b"): scalar = 0x08
            case UInt8(ascii: "f"): scalar = 0x0C
            case UInt8(ascii: "n"): scalar = 0x0A
            case UInt8(ascii: "r"): scalar = 0x0D
            case UInt8(ascii: "t"): scalar = 0x09
            case UInt8(ascii: "u"):
                guard index + 4 <= bytes.count,
                      let code = UInt32(String(decoding: UnsafeBufferPointer(rebasing: bytes[index..<index + 4]), as: UTF8.self), radix: 16)
                else { throw error("invalid \\u escape") }
                index += 4
                scalar = code
            default: throw error("invalid escape")
            }
            if let high = pendingHigh {
                pendingHigh = nil
                if (0xDC00...0xDFFF).contains(scalar) {
                    result.unicodeScalars.append(Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (scalar - 0xDC00))!)
                    continue
                }
                result.unicodeScalars.append("\u{FFFD}")
            }
            if (0xD800...0xDBFF).contains(scalar) { pendingHigh = scalar; continue }
            result.unicodeScalars.append(Unicode.Scalar(scalar) ?? "\u{FFFD}")
        }
        if pendingHigh != nil { result.unicodeScalars.append("\u{FFFD}") }
        return result
    }
}
