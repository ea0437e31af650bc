import IngestCore
/// One property list value that is not a container, as the plist outputs write it.
///
/// The rules from a record's ``/IngestCore/FieldValue``:
///
/// | field value | plist |
/// | --- | --- |
/// | `.number`, integer | `integer` |
/// | `.number`, real | `real` |
/// | `.bool` | `true` / `false` |
/// | `.text` that ``/IngestCore/PlistDate`` accepts | `date` |
/// | any other `.text` (integers beyond 64 bits included) | `string` |
/// | `.data` (a schema's `data` field) | `data` |
/// | `.json` | `array` / `dict`, recursively (see `PlistContent`) |
/// | `.null` | left out |
///
/// Text never becomes `data`: nothing in a record says that a text is base64 rather
/// than words that happen to look like it. Only a field that is already bytes
/// (``/IngestCore/FieldValue/data(_:)``) is written as `data`.
public enum PlistScalar: Equatable, Sendable {
    /// `<string>`.
    case string(String)
    /// `<integer>`: a canonical integer that fits in 64 bits.
    case integer(Int64)
    /// `<real>`.
    case real(Double)
    /// `<true/>` or `<false/>`.
    case bool(Bool)
    /// `<date>`: UTC, whole seconds.
    case date(PlistDate)
    /// Bytes: `<data>` (base64) in XML, a `0x4_` object in a binary plist.
    case data([UInt8])

    /// A text value: a date when it follows the date rule (and `dates` is on), else a string.
    static func text(_ text: String, dates: Bool) -> PlistScalar {
        if dates, let date = PlistDate(iso8601: text) { return .date(date) }
        return .string(text)
    }

    /// A number from nested JSON: integer when it is a canonical 64-bit integer,
    /// else real when its `Double` is finite (as a field's number is), else its text.
    static func number(_ text: String) -> PlistScalar {
        var copy = text
        let isInteger = copy.withUTF8 { NumberSyntax.isCanonicalInteger($0) }
        if isInteger, let value = Int64(text) { return .integer(value) }
        if let value = Double(text), value.isFinite { return .real(value) }
        return .string(text)
    }
}

/// What one field or nested value becomes in a property list.
enum PlistContent {
    case scalar(PlistScalar)
    /// An array or object, as JSON text (see ``PlistEventWriter/write(json:dates:names:)``).
    case nested(String)
    /// Nothing: `null`, which plists cannot hold.
    case absent

    init(_ value: FieldValue, dates: Bool) throws {
        switch value {
        case .null: self = .absent
        case .bool(let flag): self = .scalar(.bool(flag))
        case .number(let number):
            self = .scalar(number.kind == .integer ? .integer(number.int64Value) : .real(number.doubleValue))
        case .text(let text): self = .scalar(.text(text, dates: dates))
        case .json(let text, _): self = .nested(text)
        case .data(let bytes): self = .scalar(.data(bytes))
        }
    }

    init(_ value: JSONValue, dates: Bool) {
        switch value {
        case .null: self = .absent
        case .bool(let flag): self = .scalar(.bool(flag))
        case .number(let text): self = .scalar(.number(text))
        case .string(let text): self = .scalar(.text(text, dates: dates))
        case .array, .object: self = .nested(value.serialized)
        }
    }
}
