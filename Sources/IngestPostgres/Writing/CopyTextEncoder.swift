import IngestKit
import PostgresNIO  // ByteBuffer, from NIO

/// Writes rows in `COPY … FROM STDIN` text format: one line per row, columns
/// separated by tabs, `\N` for NULL, and in values a backslash, newline, carriage
/// return and tab escaped as `\\`, `\n`, `\r`, `\t`.
///
/// Text is what the server parses into any column type, so one encoder serves the
/// output's own types and the columns of tables that existed before the import. The
/// binary format measured 15 to 17 % faster for a raw COPY of people-shaped rows, but
/// PostgresNIO 1.33.2's `copyFrom` offers only text, and an import is bound by parsing,
/// not by the server's COPY (BENCHMARKS.md).
package struct CopyTextEncoder {
    /// Appends `value`, as a column of type `type` reads it, to `buffer`.
    ///
    /// - Parameter emptyJSON: what an empty text becomes in a `jsonb` column of the
    ///   automatic mapping (an empty nested element, `[]` or `{}`); `nil` for a schema's
    ///   column, where text in a `jsonb` column is a JSON string.
    /// - Throws: `.data` for text that holds U+0000, which PostgreSQL text cannot.
    static func append(_ value: FieldValue, typed type: PostgresColumnType, emptyJSON: String?, to buffer: inout ByteBuffer) throws(NULCharacter) {
        switch value {
        case .null:
            buffer.writeStaticString("\\N")
        case .bool(let flag):
            switch type {
            case .boolean: buffer.writeStaticString(flag ? "t" : "f")
            case .bigint, .double: buffer.writeStaticString(flag ? "1" : "0")
            case .bytea: appendHex(Array((flag ? "true" : "false").utf8), to: &buffer)
            default: buffer.writeStaticString(flag ? "true" : "false")
            }
        case .number(let number):
            if type == .bytea { appendHex(Array(number.text.utf8), to: &buffer) } else { buffer.writeString(number.text) }
        case .text(let text):
            switch type {
            case .jsonb:
                if let emptyJSON, text.isEmpty { buffer.writeString(emptyJSON) } else { try appendEscaped(jsonString(text), to: &buffer) }
            case .bytea:
                appendHex(Array(text.utf8), to: &buffer)
            default:
                try appendEscaped(text, to: &buffer)
            }
        case .json(let text, _):
            if type == .bytea { appendHex(Array(text.utf8), to: &buffer) } else { try appendEscaped(text, to: &buffer) }
        case .data(let bytes):
            if type == .bytea { appendHex(bytes, to: &buffer) } else { try appendEscaped(value.text ?? "", to: &buffer) }  // base64
        }
    }

    /// Text holds U+0000, which no PostgreSQL text value can.
    package struct NULCharacter: Error {}

    /// `text` with COPY's four escapes; runs without special bytes are copied whole.
    package static func appendEscaped(_ text: String, to buffer: inout ByteBuffer) throws(NULCharacter) {
        var text = text
        let failed = text.withUTF8 { bytes -> Bool in
            var runStart = 0
            for index in 0..<bytes.count {
                let byte = bytes[index]
                guard byte <= UInt8(ascii: "\\"), isSpecial[Int(byte)] else { continue }
                if byte == 0 { return true }
                buffer.writeBytes(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes)[runStart..<index]))
                buffer.writeInteger(UInt8(ascii: "\\"))
                switch byte {
                case UInt8(ascii: "\n"): buffer.writeInteger(UInt8(ascii: "n"))
                case UInt8(ascii: "\r"): buffer.writeInteger(UInt8(ascii: "r"))
                case UInt8(ascii: "\t"): buffer.writeInteger(UInt8(ascii: "t"))
                default: buffer.writeInteger(byte)
                }
                runStart = index + 1
            }
            buffer.writeBytes(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes)[runStart...]))
            return false
        }
        if failed { throw NULCharacter() }
    }

    /// Bytes as COPY text reads a `bytea`: `\x` then two hex digits a byte (the
    /// backslash itself escaped for COPY).
    static func appendHex(_ bytes: [UInt8], to buffer: inout ByteBuffer) {
        buffer.writeStaticString("\\\\x")
        buffer.reserveCapacity(minimumWritableBytes: bytes.count * 2)
        for byte in bytes {
            buffer.writeInteger(hexDigits[Int(byte >> 4)])
            buffer.writeInteger(hexDigits[Int(byte & 0xF)])
        }
    }

    /// `text` as a JSON string literal, for a text value in a schema's `json` column.
    static func jsonString(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// Bytes that COPY text escapes (and NUL, which it cannot carry), by value up to `\`.
    private static let isSpecial: [Bool] = (0...Int(UInt8(ascii: "\\"))).map {
        $0 == 0 || $0 == Int(UInt8(ascii: "\n")) || $0 == Int(UInt8(ascii: "\r")) || $0 == Int(UInt8(ascii: "\t"))
            || $0 == Int(UInt8(ascii: "\\"))
    }
}
