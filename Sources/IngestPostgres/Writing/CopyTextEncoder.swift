import IngestCore
import PostgresNIO  // ByteBuffer, from NIO

/// Writes rows in `COPY … FROM STDIN` text format: one line per row, columns
/// separated by tabs, `\N` for NULL, and in values a backslash, newline, carriage
/// return and tab escaped as `\\`, `\n`, `\r`, `\t`.
///
/// Values go from a ``/IngestCore/RecordBatch``'s bytes straight into the buffer, escaped
/// on the way: nothing is materialised as a `String` or a ``/IngestCore/FieldValue``.
///
/// Text is what the server parses into any column type, so one encoder serves the
/// output's own types and the columns of tables that existed before the import. The
/// binary format is faster for a raw COPY, but PostgresNIO's `copyFrom` offers only
/// text, and an import is bound by parsing, not by the server's COPY (BENCHMARKS.md
/// has the figures).
package enum CopyTextEncoder {
    /// Appends a field's `bytes`, holding `value`, as a column of type `type` reads it.
    ///
    /// - Parameter emptyJSON: what an empty text becomes in a `jsonb` column of the
    ///   automatic mapping (an empty nested element, `[]` or `{}`); `nil` for a schema's
    ///   column, where text in a `jsonb` column is a JSON string.
    /// - Throws: ``NULCharacter`` for text that holds U+0000, which PostgreSQL text cannot.
    @inline(__always)
    static func append(
        _ bytes: UnsafeRawBufferPointer, holding value: HeldValue, typed type: PostgresColumnType,
        emptyJSON: String?, to buffer: inout ByteBuffer
    ) throws(NULCharacter) {
        switch value {
        case .null:
            buffer.writeStaticString("\\N")
        case .boolean(let flag):
            switch type {
            case .boolean: buffer.writeStaticString(flag ? "t" : "f")
            case .bigint, .double: buffer.writeStaticString(flag ? "1" : "0")
            case .bytea: appendHex(flag ? trueBytes : falseBytes, to: &buffer)
            default: buffer.writeStaticString(flag ? "true" : "false")
            }
        case .integer, .real:
            // Digits, a sign, a point: nothing to escape.
            if type == .bytea { appendHex(bytes, to: &buffer) } else { buffer.writeBytes(bytes) }
        case .text:
            switch type {
            case .jsonb:
                if let emptyJSON, bytes.isEmpty {
                    buffer.writeString(emptyJSON)
                } else {
                    // The literal escapes every control character: no NUL is left to refuse.
                    jsonString(bytes).withUnsafeBytes { literal in try? appendEscaped(literal, to: &buffer) }
                }
            case .bytea:
                appendHex(bytes, to: &buffer)
            default:
                try appendEscaped(bytes, to: &buffer)
            }
        case .json:
            if type == .bytea { appendHex(bytes, to: &buffer) } else { try appendEscaped(bytes, to: &buffer) }
        case .data:
            if type == .bytea { appendHex(bytes, to: &buffer) } else { appendBase64(bytes, to: &buffer) }
        }
    }

    /// Text holds U+0000, which no PostgreSQL text value can.
    package struct NULCharacter: Error {}

    /// `bytes` with COPY's four escapes, written straight into the buffer's free space.
    package static func appendEscaped(_ bytes: UnsafeRawBufferPointer, to buffer: inout ByteBuffer) throws(NULCharacter)
    {
        let count = bytes.count
        guard count > 0 else { return }
        var sawNUL = false
        buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: count * 2) { free in
            let source = bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
            let target = free.baseAddress!.assumingMemoryBound(to: UInt8.self)
            var written = 0
            for index in 0..<count {
                let byte = source[index]
                // Every byte that needs care is a backslash or below 14.
                if byte != UInt8(ascii: "\\"), byte >= 14 || (byte != 10 && byte != 13 && byte != 9 && byte != 0) {
                    target[written] = byte
                    written += 1
                    continue
                }
                switch byte {
                case 0: sawNUL = true
                case 10:
                    target[written] = UInt8(ascii: "\\")
                    target[written + 1] = UInt8(ascii: "n")
                    written += 2
                case 13:
                    target[written] = UInt8(ascii: "\\")
                    target[written + 1] = UInt8(ascii: "r")
                    written += 2
                case 9:
                    target[written] = UInt8(ascii: "\\")
                    target[written + 1] = UInt8(ascii: "t")
                    written += 2
                default:
                    target[written] = UInt8(ascii: "\\")
                    target[written + 1] = UInt8(ascii: "\\")
                    written += 2
                }
            }
            return written
        }
        if sawNUL { throw NULCharacter() }
    }

    /// Bytes as COPY text reads a `bytea`: `\x` then two hex digits a byte (the
    /// backslash itself escaped for COPY).
    static func appendHex(_ bytes: UnsafeRawBufferPointer, to buffer: inout ByteBuffer) {
        buffer.writeStaticString("\\\\x")
        let count = bytes.count
        guard count > 0 else { return }
        buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: count * 2) { free in
            let target = free.baseAddress!.assumingMemoryBound(to: UInt8.self)
            for (index, byte) in bytes.enumerated() {
                target[2 * index] = hexDigit(byte >> 4)
                target[2 * index + 1] = hexDigit(byte & 0xF)
            }
            return count * 2
        }
    }

    /// Binary data in a column that is not `bytea`: base64 text, as every output shows
    /// bytes it cannot store as bytes (its alphabet needs no COPY escapes).
    private static func appendBase64(_ bytes: UnsafeRawBufferPointer, to buffer: inout ByteBuffer) {
        let length = Base64.encodedCount(bytes.count)
        guard length > 0 else { return }
        buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: length) { free in
            Base64.encode(
                bytes.assumingMemoryBound(to: UInt8.self),
                into: UnsafeMutableBufferPointer(
                    start: free.baseAddress!.assumingMemoryBound(to: UInt8.self), count: length))
        }
    }

    private static func appendHex(_ bytes: StaticString, to buffer: inout ByteBuffer) {
        appendHex(UnsafeRawBufferPointer(start: bytes.utf8Start, count: bytes.utf8CodeUnitCount), to: &buffer)
    }

    private static let trueBytes: StaticString = "true"
    private static let falseBytes: StaticString = "false"

    @inline(__always)
    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }

    /// UTF-8 text as a JSON string literal, for text in a schema's `json` column:
    /// quotes and backslashes escaped, control characters as `\n`, `\u001f`…
    static func jsonString(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
        var result: [UInt8] = [UInt8(ascii: "\"")]
        result.reserveCapacity(bytes.count + 2)
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "\""): result += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
            case UInt8(ascii: "\\"): result += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case 10: result += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case 13: result += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case 9: result += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case ..<0x20:
                result += Array("\\u00".utf8) + [hexDigit(byte >> 4), hexDigit(byte & 0xF)]
            default: result.append(byte)
            }
        }
        result.append(UInt8(ascii: "\""))
        return result
    }
}
