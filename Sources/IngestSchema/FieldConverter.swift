import IngestCore
import Foundation

/// Turns a field's text (or JSON scalar) into the value its declared type stores,
/// or says why it cannot: the check that decides whether a record fits its schema.
///
/// | type | accepts | stores |
/// | --- | --- | --- |
/// | text | anything | the text |
/// | integer | `-12`, `+7`, `007`, a JSON integer; 64 bits | an integer |
/// | real | a decimal or floating-point number, finite | a real |
/// | bool | `true`, `false`, `1`, `0`, a JSON boolean | a boolean |
/// | date | `YYYY-MM-DD`, or text in ``format`` | `YYYY-MM-DD` |
/// | datetime | ISO 8601 (`2024-05-01T09:30:00Z`, `…+02:00`, `….250Z`; no zone means UTC), or text in ``format`` | `YYYY-MM-DDTHH:MM:SSZ` in UTC (fractions kept when not zero) |
/// | data | base64 (white space ignored) | bytes |
/// | json | anything | JSON text |
///
/// XML white space around numbers, booleans, dates and base64 is ignored. An empty
/// element is text `""` for a text field and a missing value for the others.
final class FieldConverter {
    let type: ColumnType
    private let parser: DateFormatter?
    private let output: DateFormatter?

    init(type: ColumnType, format: String?) {
        self.type = type
        if let format, type == .date || type == .datetime {
            let parser = DateFormatter()
            parser.locale = Locale(identifier: "en_US_POSIX")
            parser.timeZone = TimeZone(identifier: "UTC")
            parser.dateFormat = format
            self.parser = parser
        } else {
            parser = nil
        }
        if type == .date || type == .datetime {
            let output = DateFormatter()
            output.locale = Locale(identifier: "en_US_POSIX")
            output.timeZone = TimeZone(identifier: "UTC")
            output.dateFormat = type == .date ? "yyyy-MM-dd" : "yyyy-MM-dd'T'HH:mm:ss'Z'"
            self.output = output
        } else {
            output = nil
        }
    }

    /// Why a value does not fit its type, e.g. `"abc" is not an integer`.
    struct Mismatch: Error {
        let reason: String
    }

    /// The stored value of `bytes`, or nil when the value counts as missing (JSON
    /// `null`; an empty element for anything but text).
    func convert(_ bytes: UnsafeBufferPointer<UInt8>, kind: ContentKind) throws(Mismatch) -> FieldValue? {
        if kind == .null { return nil }
        switch type {
        case .text:
            return .text(String(decoding: bytes, as: UTF8.self))
        case .json:
            return .json(JSONValue(scalar: kind == .markup ? .string : kind, TextBytes(bytes)).serialized, .object)
        default:
            break
        }
        let trimmed = Self.trimmed(bytes)
        if trimmed.isEmpty { return nil }
        if kind == .boolean, type != .bool {
            throw Mismatch(reason: "\(Self.quoted(bytes)) is a boolean, not \(article) \(type.rawValue)")
        }
        switch type {
        case .integer: return try integer(trimmed)
        case .real: return try real(trimmed)
        case .bool: return try bool(trimmed)
        case .date, .datetime: return try date(trimmed)
        case .data: return try data(trimmed)
        case .text, .json: preconditionFailure("handled above")
        }
    }

    private var article: String { type == .integer ? "an" : "a" }

    private func integer(_ bytes: UnsafeBufferPointer<UInt8>) throws(Mismatch) -> FieldValue {
        if NumberSyntax.isCanonicalInteger(bytes), bytes.count < 19 {
            return .number(.init(text: String(decoding: bytes, as: UTF8.self), kind: .integer))
        }
        // `+7`, `007`, `-0`, and values near the 64-bit limits.
        guard let value = Int64(String(decoding: bytes, as: UTF8.self)) else {
            throw Mismatch(reason: "\(Self.quoted(bytes)) is not an integer (64-bit)")
        }
        return .number(.init(text: String(value), kind: .integer))
    }

    private func real(_ bytes: UnsafeBufferPointer<UInt8>) throws(Mismatch) -> FieldValue {
        let text = String(decoding: bytes, as: UTF8.self)
        if NumberSyntax.kind(of: bytes, text: text) != nil {
            return .number(.init(text: text, kind: .real))
        }
        guard NumberSyntax.looksDecimal(bytes) || bytes.first == UInt8(ascii: "+"),
            let value = Double(text), value.isFinite
        else {
            throw Mismatch(reason: "\(Self.quoted(bytes)) is not a real number")
        }
        return .number(.init(text: value.description, kind: .real))
    }

    private func bool(_ bytes: UnsafeBufferPointer<UInt8>) throws(Mismatch) -> FieldValue {
        switch String(decoding: bytes, as: UTF8.self) {
        case "true", "1": return .bool(true)
        case "false", "0": return .bool(false)
        default: throw Mismatch(reason: "\(Self.quoted(bytes)) is not a boolean (true, false, 1 or 0)")
        }
    }

    private func date(_ bytes: UnsafeBufferPointer<UInt8>) throws(Mismatch) -> FieldValue {
        let text = String(decoding: bytes, as: UTF8.self)
        let expected = parser?.dateFormat ?? (type == .date ? "YYYY-MM-DD" : "ISO 8601 such as 2024-05-01T09:30:00Z")
        if type == .date, parser == nil {
            guard bytes.count == 10, PlistDate(iso8601: text) != nil else {
                throw Mismatch(reason: "\(Self.quoted(bytes)) is not a date (\(expected))")
            }
            return .text(text)
        }
        guard let date = parser?.date(from: text) ?? (parser == nil ? Self.iso8601(text) : nil) else {
            throw Mismatch(
                reason: "\(Self.quoted(bytes)) is not a \(type == .date ? "date" : "date and time") (\(expected))")
        }
        var stored = output!.string(from: date)
        let fraction = date.timeIntervalSince1970 - date.timeIntervalSince1970.rounded(.down)
        if type == .datetime, fraction > 0.000_000_5 {
            // Keep the fraction as the input gave it, to microseconds.
            var digits = String(format: "%.6f", fraction).dropFirst(2)
            while digits.last == "0" { digits = digits.dropLast() }
            stored = String(stored.dropLast()) + "." + digits + "Z"
        }
        return .text(stored)
    }

    /// ISO 8601 with a zone, fractions or neither (UTC assumed).
    private static func iso8601(_ text: String) -> Date? {
        for formatter in isoFormatters {
            if let date = formatter.date(from: text) { return date }
        }
        return nil
    }

    nonisolated(unsafe) private static let isoFormatters: [ISO8601DateFormatter] = {
        let plain = ISO8601DateFormatter()
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions.insert(.withFractionalSeconds)
        let local = ISO8601DateFormatter()
        local.formatOptions = [.withFullDate, .withTime, .withColonSeparatorInTime, .withDashSeparatorInDate]
        local.timeZone = TimeZone(identifier: "UTC")
        return [plain, fractional, local]
    }()

    private func data(_ bytes: UnsafeBufferPointer<UInt8>) throws(Mismatch) -> FieldValue {
        let compact = bytes.filter { !Self.isSpace($0) }
        guard let data = Data(base64Encoded: Data(compact)) else {
            throw Mismatch(reason: "\(Self.quoted(bytes)) is not base64")
        }
        return .data([UInt8](data))
    }

    static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D }

    private static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        guard let first = bytes.firstIndex(where: { !isSpace($0) }) else {
            return UnsafeBufferPointer(rebasing: bytes[0..<0])
        }
        let last = bytes.lastIndex(where: { !isSpace($0) })!
        return UnsafeBufferPointer(rebasing: bytes[first...last])
    }

    /// The value for a message: quoted, and cut short when long.
    static func quoted(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        let text = String(decoding: bytes.prefix(40), as: UTF8.self)
        return "\"\(text)\(bytes.count > 40 ? "…" : "")\""
    }
}
