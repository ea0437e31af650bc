/// One value of a record's field, as the mapping hands it to sinks.
///
/// Numbers keep their exact source text (``Number``): a sink converts them to the
/// type its column has, and a value that would not survive the conversion is never
/// classified as a number in the first place.
public enum FieldValue: Equatable, Sendable {
    /// No value: a JSON `null`, or a schema field the record does not have.
    case null
    /// A JSON `true` or `false`, or a schema's `bool` field.
    case bool(Bool)
    /// A number, kept as its source text with the type it fits (see ``Number``).
    case number(Number)
    /// Text: character data that is not a number, or a JSON string.
    case text(String)
    /// Nested or repeated data, serialised as JSON text.
    case json(String, JSONShape)
    /// Binary data (a schema's `data` field, decoded from base64).
    ///
    /// Every output stores the bytes themselves: a BLOB in SQLite, `data` in a
    /// property list, an `NSData` in a keyed archive. Only outputs that have no
    /// bytes type show it as base64 text (``text``, JSON strings).
    case data([UInt8])

    /// Whether nested data was a list or an object, so sinks can tell an empty one.
    public enum JSONShape: Sendable {
        /// A JSON array (repeated data).
        case array
        /// A JSON object (nested data).
        case object
    }

    /// A number exactly as written in the input, with the widest type that holds it
    /// without loss.
    public struct Number: Equatable, Sendable {
        /// The type a ``Number`` is stored as.
        ///
        /// XML text is a number only when the type holds it without loss. A JSON number
        /// is always a number: an integer when it is one that fits, otherwise a real,
        /// the nearest `Double` (``text`` keeps every digit for outputs that can write it).
        public enum Kind: Sendable {
            /// Canonical decimal integer that fits in 64 bits (`-12`, `0`; not `007`, `+1`).
            case integer
            /// From XML: a decimal whose text is exactly the shortest form of its `Double`,
            /// with at most 15 significant digits (`472.942`, `73.0`; not `1.50`, `1e5`).
            /// From JSON: any other finite number (`1.50`, `6.02e23`, an integer past 64 bits).
            case real
        }

        /// The number as the input wrote it (`-12`, `472.942`).
        public let text: String
        /// Whether ``text`` is an exact `Int64` or an exact `Double`.
        public let kind: Kind

        /// `text` must be a number of `kind` by the rules above.
        package init(text: String, kind: Kind) {
            self.text = text
            self.kind = kind
        }

        /// The value as an `Int64`; only for a number of kind ``Kind/integer`` (it
        /// traps on any other).
        public var int64Value: Int64 { Int64(text)! }
        /// The value as a `Double`: exact for kind ``Kind/real``, and for an integer
        /// the nearest `Double`.
        public var doubleValue: Double { Double(text)! }
    }

    /// A JSON number token: an integer or a real by ``Number/Kind``'s JSON rule; a
    /// number too large for a `Double` (`1e400`) is kept as its text.
    public static func jsonNumber(_ bytes: UnsafeBufferPointer<UInt8>) -> FieldValue {
        let string = String(decoding: bytes, as: UTF8.self)
        if let kind = NumberSyntax.jsonKind(of: UnsafeRawBufferPointer(bytes)) {
            return .number(Number(text: string, kind: kind))
        }
        return .text(string)
    }

    /// Classifies character data from XML: a number when ``Number`` says it is one
    /// without loss, otherwise text. Only the kept value becomes a `String`.
    public static func inferring(_ bytes: UnsafeBufferPointer<UInt8>) -> FieldValue {
        let string = String(decoding: bytes, as: UTF8.self)
        if let kind = NumberSyntax.kind(of: bytes, text: string) {
            return .number(Number(text: string, kind: kind))
        }
        return .text(string)
    }

    /// The value as text, the way a TEXT column or a plist string shows it; data as
    /// base64 (standard alphabet, with padding).
    public var text: String? {
        switch self {
        case .null: nil
        case .bool(let value): value ? "true" : "false"
        case .number(let number): number.text
        case .text(let text), .json(let text, _): text
        case .data(let bytes): Base64.encode(bytes)
        }
    }
}

/// The lossless number rules of ``FieldValue/Number``.
package enum NumberSyntax {
    package static func kind(of bytes: UnsafeBufferPointer<UInt8>, text: @autoclosure () -> String) -> FieldValue.Number
        .Kind?
    {
        guard let first = bytes.first, first == UInt8(ascii: "-") || isDigit(first) else { return nil }
        if isCanonicalInteger(bytes) {
            return Int64(text()) != nil ? .integer : nil
        }
        if isPlainShortestDecimal(bytes) { return .real }
        guard bytes.count <= 24, looksDecimal(bytes) else { return nil }
        let string = text()
        guard let double = Double(string), double.isFinite else { return nil }
        let shortest = double.description
        guard shortest == string else { return nil }
        let digits = shortest.utf8.prefix { $0 != UInt8(ascii: "e") && $0 != UInt8(ascii: "E") }.filter(isDigit)
        let significant = digits.drop { $0 == UInt8(ascii: "0") }.count
        return significant <= 15 ? .real : nil
    }

    /// The kind of number `bytes` are, read from the bytes: a `String` is made only
    /// for the rare decimals the fast rule cannot decide.
    package static func kind(of bytes: UnsafeRawBufferPointer) -> FieldValue.Number.Kind? {
        let bytes = bytes.assumingMemoryBound(to: UInt8.self)
        guard let first = bytes.first, first == UInt8(ascii: "-") || isDigit(first) else { return nil }
        if isCanonicalInteger(bytes) { return int64(bytes) != nil ? .integer : nil }
        if isPlainShortestDecimal(bytes) { return .real }
        return kind(of: bytes, text: String(decoding: bytes, as: UTF8.self))
    }

    /// The kind of a JSON number token (valid JSON number syntax): the lossless kind
    /// when it has one, else `.real` when its `Double` is finite, else `nil` (`1e400`).
    package static func jsonKind(of bytes: UnsafeRawBufferPointer) -> FieldValue.Number.Kind? {
        if let kind = kind(of: bytes) { return kind }
        return double(bytes).isFinite ? .real : nil
    }

    /// The value of a canonical decimal integer, or `nil` past 64 bits.
    package static func int64(_ bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
        let negative = bytes.first == UInt8(ascii: "-")
        var value: Int64 = 0
        for byte in bytes[(negative ? 1 : 0)...] {
            let digit = Int64(byte &- UInt8(ascii: "0"))
            // Accumulated negatively, so Int64.min fits.
            let (times, overflowTimes) = value.multipliedReportingOverflow(by: 10)
            let (next, overflowMinus) = times.subtractingReportingOverflow(digit)
            if overflowTimes || overflowMinus { return nil }
            value = next
        }
        if negative { return value }
        return value == Int64.min ? nil : -value
    }

    /// The `Double` of a decimal number's bytes (which ``kind(of:)-(UnsafeRawBufferPointer)`` classified as real).
    /// Out of range, it is infinite (`1e400`), as `strtod` makes it.
    package static func double(_ bytes: UnsafeRawBufferPointer) -> Double {
        if let exact = shortDecimal(bytes.assumingMemoryBound(to: UInt8.self)) { return exact }
        return Double(String(decoding: bytes, as: UTF8.self)) ?? .nan
    }

    /// The `Double` of `-?[0-9]+(\.[0-9]+)?` with at most 15 digits, without `strtod`:
    /// the digits read as an integer are below 2^53, so exact as a `Double`, and so is
    /// 10^k for the k ≤ 15 digits after the point; IEEE division rounds their exact
    /// quotient correctly, which is the value `strtod` returns (Clinger's fast path).
    /// `nil` for any other form, which `strtod` reads.
    package static func shortDecimal(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        guard bytes.count <= 17 else { return nil }  // a sign, 15 digits and a point
        let negative = bytes.first == UInt8(ascii: "-")
        var index = negative ? 1 : 0
        var mantissa: UInt64 = 0
        var digits = 0
        var digitsBeforePoint = -1
        while index < bytes.count {
            let byte = bytes[index]
            if isDigit(byte) {
                mantissa = mantissa &* 10 &+ UInt64(byte &- UInt8(ascii: "0"))
                digits += 1
            } else if byte == UInt8(ascii: "."), digitsBeforePoint < 0, digits > 0 {
                digitsBeforePoint = digits
            } else {
                return nil
            }
            index += 1
        }
        let fractionDigits = digitsBeforePoint < 0 ? 0 : digits - digitsBeforePoint
        guard digits > 0, digits <= 15, digitsBeforePoint < 0 || fractionDigits > 0 else { return nil }
        var powerOfTen = 1.0  // each product an integer below 2^53, so exact
        for _ in 0..<fractionDigits { powerOfTen *= 10 }
        let value = Double(mantissa) / powerOfTen
        return negative ? -value : value
    }

    package static func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

    /// `-?(0|[1-9][0-9]*)`, and not `-0`.
    package static func isCanonicalInteger(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var digits = bytes[...]
        if digits.first == UInt8(ascii: "-") { digits = digits.dropFirst() }
        guard let lead = digits.first, digits.allSatisfy(isDigit) else { return false }
        if lead == UInt8(ascii: "0") { return digits.count == 1 && bytes.count == 1 }
        return true
    }

    /// `-?(0|[1-9][0-9]*)\.[0-9]*[1-9]` with at most 15 significant digits and a value
    /// of at least 0.1: such a decimal is exactly the shortest form of its `Double`
    /// (15 digits always survive the round trip, and `description` writes values
    /// from 0.1 up to 2^53 without an exponent), so no conversion is needed to know.
    package static func isPlainShortestDecimal(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = bytes.first == UInt8(ascii: "-") ? 1 : 0
        let integerStart = index
        while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        let integerDigits = index - integerStart
        guard integerDigits > 0, index < bytes.count, bytes[index] == UInt8(ascii: "."),
            integerDigits == 1 || bytes[integerStart] != UInt8(ascii: "0")
        else { return false }
        index += 1
        let fractionStart = index
        while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        let fractionDigits = index - fractionStart
        guard index == bytes.count, fractionDigits > 0, bytes[index - 1] != UInt8(ascii: "0") else { return false }
        if bytes[integerStart] == UInt8(ascii: "0") {
            return bytes[fractionStart] != UInt8(ascii: "0") && fractionDigits <= 15
        }
        return integerDigits + fractionDigits <= 15
    }

    /// Only characters a decimal literal can have; `Double(_:)` decides the rest.
    package static func looksDecimal(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.allSatisfy {
            isDigit($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-")
                || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "+")
        }
    }
}
