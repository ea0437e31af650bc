// The pull reader of the nested JSON text ingest itself writes (a record's nested
// fields): the property-list and archive writers take its events straight from the
// text, so a value nested however deep costs no stack and builds no tree. Text from
// outside is read with JSONValue(parsing:), which is the input's own reader.

/// One step of JSON text, as ``JSONTextParser/next()`` reads it.
package enum JSONTextEvent {
    case beginArray, endArray, beginObject, endObject
    /// A member's key; its value follows.
    case key(String)
    /// A string, number, `true`, `false` or `null`.
    case value(JSONValue)
}

/// A pull reader of JSON text: ``next()`` gives the events of one value in order,
/// then `nil` (after checking that nothing but white space follows). It keeps the
/// open arrays and objects on a stack of its own, not the thread's.
package struct JSONTextParser {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0
    /// The most arrays and objects open at once: well past what ingest itself writes
    /// (an XML element nested ``ParseLimits/maxSupportedDepth`` deep, each level an
    /// object holding a list).
    static let maxDepth = 4 * ParseLimits.maxSupportedDepth

    /// What may come next.
    private enum Expecting { case value, firstItemOrEnd, firstKeyOrEnd, commaOrEnd, nothing }
    private var expecting = Expecting.value
    /// The open containers, innermost last: true for an object.
    private var open: [Bool] = []

    package init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    func error(_ message: String) -> IngestError {
        IngestError(.data, "nested JSON value, byte \(index): \(message)")
    }

    mutating func skipWhitespace() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    /// The next event; `nil` once the value is complete.
    package mutating func next() throws -> JSONTextEvent? {
        skipWhitespace()
        switch expecting {
        case .nothing:
            guard index == bytes.count else { throw error("unexpected text after the value") }
            return nil
        case .firstKeyOrEnd:
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") { return close() }
            return .key(try key())
        case .firstItemOrEnd:
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") { return close() }
        case .commaOrEnd:
            guard index < bytes.count else { throw error("unterminated") }
            let isObject = open[open.count - 1]
            if bytes[index] == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) { return close() }
            try expect(UInt8(ascii: ","))
            if isObject { return .key(try key()) }
            skipWhitespace()
        case .value:
            break
        }
        return try value()
    }

    /// A value starts at `index`: a scalar, or the beginning of an array or object.
    private mutating func value() throws -> JSONTextEvent {
        guard index < bytes.count else { throw error("a value is missing") }
        switch bytes[index] {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            guard open.count < Self.maxDepth else { throw error("nested too deeply") }
            let isObject = bytes[index] == UInt8(ascii: "{")
            index += 1
            open.append(isObject)
            expecting = isObject ? .firstKeyOrEnd : .firstItemOrEnd
            return isObject ? .beginObject : .beginArray
        case UInt8(ascii: "\""): return scalar(.string(try string()))
        case UInt8(ascii: "t"): try literal("true"); return scalar(.bool(true))
        case UInt8(ascii: "f"): try literal("false"); return scalar(.bool(false))
        case UInt8(ascii: "n"): try literal("null"); return scalar(.null)
        default: return scalar(.number(try number()))
        }
    }

    private mutating func scalar(_ value: JSONValue) -> JSONTextEvent {
        expecting = open.isEmpty ? .nothing : .commaOrEnd
        return .value(value)
    }

    /// The closing bracket at `index`.
    private mutating func close() -> JSONTextEvent {
        index += 1
        let isObject = open.removeLast()
        expecting = open.isEmpty ? .nothing : .commaOrEnd
        return isObject ? .endObject : .endArray
    }

    /// `"key"` and its colon.
    private mutating func key() throws -> String {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw error("expected a key") }
        let key = try string()
        skipWhitespace()
        try expect(UInt8(ascii: ":"))
        skipWhitespace()
        expecting = .value
        return key
    }

    private mutating func expect(_ byte: UInt8) throws {
        guard index < bytes.count, bytes[index] == byte else { throw error("expected '\(Character(Unicode.Scalar(byte)))'") }
        index += 1
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
