/// The type the automatic mapping gives a column, widened as values demand:
/// no values yet < INTEGER < REAL < TEXT. Widening never loses a value, because
/// only numbers that convert exactly are numbers (see ``FieldValue/Number``).
public enum ColumnType: Int, Comparable, Sendable {
    case untyped, integer, real, text

    public static func < (lhs: ColumnType, rhs: ColumnType) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The declared type in `CREATE TABLE`, which gives the column its affinity.
    public var sql: String {
        switch self {
        case .untyped: ""
        case .integer: "INTEGER"
        case .real: "REAL"
        case .text: "TEXT"
        }
    }

    /// The narrowest type that holds `value`, or `nil` for NULL (which fits any).
    public init?(holding value: FieldValue) {
        switch value {
        case .null: return nil
        case .bool: self = .integer
        case .number(let number): self = number.kind == .integer ? .integer : .real
        case .text, .json: self = .text
        }
    }

    /// The type of an existing column, from its declared type, as SQLite's affinity
    /// rules read it.
    init(declared: String) {
        let type = declared.uppercased()
        if type.contains("INT") { self = .integer }
        else if type.contains("CHAR") || type.contains("CLOB") || type.contains("TEXT") { self = .text }
        else if type.contains("REAL") || type.contains("FLOA") || type.contains("DOUB") { self = .real }
        else if type.isEmpty { self = .untyped }
        else { self = .text }
    }
}
