/// What a column holds: the one vocabulary of types that mapping schemas declare,
/// designed tables (``TableDesign``) name, schema inference reports, and the database
/// outputs render in their own SQL — SQLite's in parentheses below.
///
/// The automatic mapping gives a column the narrowest type that holds its values
/// (``init(holding:)``, `nil` while the column has held nothing but NULL) and widens
/// it as values demand (``widened(toHold:)``). Widening never loses a value, because
/// only numbers that convert exactly are numbers (see ``FieldValue/Number``):
///
/// | values so far | type |
/// | --- | --- |
/// | booleans | ``bool`` |
/// | integers, and booleans | ``integer`` |
/// | numbers, and booleans | ``real`` |
/// | nested data only | ``json`` |
/// | binary data, with anything | ``data`` |
/// | any other mix, or text | ``text`` |
public enum ColumnType: String, Sendable, Equatable, Codable, CaseIterable {
    /// Any text (TEXT).
    case text
    /// A 64-bit signed integer: `-12`, `+7`, `007` (INTEGER).
    case integer
    /// A finite decimal or floating-point number (REAL).
    case real
    /// `true` or `false`, read from `true`/`false`/`1`/`0` (INTEGER 1 or 0, a
    /// plist `true`/`false`).
    case bool
    /// A calendar date, kept as `YYYY-MM-DD` (TEXT; a plist `date` at midnight UTC).
    case date
    /// A date and time, kept in UTC as `YYYY-MM-DDTHH:MM:SSZ` (TEXT; a plist `date`).
    case datetime
    /// Bytes, read from Base64 text (BLOB, a plist `data`).
    case data
    /// A JSON array or object, kept as its JSON text (TEXT), the way the
    /// automatic mapping keeps nested data.
    case json

    /// The narrowest type that holds `value`, or `nil` for NULL (which fits any).
    public init?(holding value: FieldValue) {
        switch value {
        case .null: return nil
        case .bool: self = .bool
        case .number(let number): self = number.kind == .integer ? .integer : .real
        case .text: self = .text
        case .json: self = .json
        case .data: self = .data
        }
    }

    /// The narrowest type that holds what both `self` and `other` hold (the table
    /// above): binary data holds anything as given; booleans are 1 and 0 among
    /// numbers; integers that convert exactly are reals among reals; any other mix
    /// is text.
    public func widened(toHold other: ColumnType) -> ColumnType {
        if self == other { return self }
        switch (self, other) {
        case (.data, _), (_, .data): return .data
        case (.bool, .integer), (.integer, .bool): return .integer
        case (.bool, .real), (.real, .bool), (.integer, .real), (.real, .integer): return .real
        default: return .text
        }
    }
}
