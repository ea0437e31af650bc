import IngestCore

/// The type of a column the PostgreSQL output writes: PostgreSQL's own types for what
/// the records hold.
///
/// The automatic mapping gives a column the narrowest type that holds its values and
/// widens it as values demand, as the SQLite output does (`INTEGER < REAL < TEXT`):
///
/// | values so far | type |
/// | --- | --- |
/// | none but NULL | ``untyped`` (declared `text`) |
/// | booleans | `boolean` |
/// | integers (and booleans, as 1 and 0) | `bigint` |
/// | numbers | `double precision` |
/// | nested data (JSON) only | `jsonb` |
/// | anything else, or a mix | `text` |
/// | binary data, with anything | `bytea` |
///
/// Widening never loses a value: only numbers that convert exactly are numbers
/// (``FieldValue/Number``), a boolean becomes 1 or 0 in a number column and `true` or
/// `false` in a text column, and JSON becomes its text. A mapping schema declares its
/// types instead (``init(designed:)``), and a table that existed before the import
/// keeps its own (``existing(_:)``): the server converts each value's text into it.
enum PostgresColumnType: Equatable, Sendable {
    case untyped
    case boolean
    case bigint
    case double
    case text
    case jsonb
    case bytea
    case date
    case timestamptz
    /// A column of a table that existed before the import, of a type the output does
    /// not write itself (`integer`, `numeric`, `varchar(20)`…); values go as text.
    case existing(String)

    /// The type in `CREATE TABLE` and `ALTER COLUMN … TYPE`.
    var sql: String {
        switch self {
        case .untyped, .text: "text"
        case .boolean: "boolean"
        case .bigint: "bigint"
        case .double: "double precision"
        case .jsonb: "jsonb"
        case .bytea: "bytea"
        case .date: "date"
        case .timestamptz: "timestamp with time zone"
        case .existing(let declared): declared
        }
    }

    /// The type a mapping schema's field type declares.
    init(designed type: TableDesign.ColumnType) {
        switch type {
        case .text: self = .text
        case .integer: self = .bigint
        case .real: self = .double
        case .bool: self = .boolean
        case .date: self = .date
        case .datetime: self = .timestamptz
        case .data: self = .bytea
        case .json: self = .jsonb
        }
    }

    /// The type of a column that already exists, from `format_type()`: the output's own
    /// types are recognised (so values are written the way the type reads them), every
    /// other type is ``existing(_:)``.
    init(declared: String) {
        switch declared {
        case "text", "character varying", "character", "name": self = .text
        case "boolean": self = .boolean
        case "bigint", "integer", "smallint": self = .bigint
        case "double precision", "real": self = .double
        case "jsonb", "json": self = .jsonb
        case "bytea": self = .bytea
        case "date": self = .date
        case "timestamp with time zone": self = .timestamptz
        default: self = .existing(declared)
        }
    }

    /// The type that holds what both `self` and `other` hold, for a column this
    /// import created (see the table above).
    func widened(toHold other: PostgresColumnType) -> PostgresColumnType {
        if self == other { return self }
        switch (self, other) {
        case (.untyped, _): return other
        case (_, .untyped): return self
        case (.bytea, _), (_, .bytea): return .bytea
        case (.boolean, .bigint), (.bigint, .boolean): return .bigint
        case (.boolean, .double), (.double, .boolean), (.bigint, .double), (.double, .bigint): return .double
        default: return .text
        }
    }

    /// The `USING` expression that converts `column` (quoted) from this type to `new`
    /// in `ALTER TABLE … ALTER COLUMN … TYPE new USING …`.
    func conversion(of column: String, to new: PostgresColumnType) -> String {
        switch (self, new) {
        case (.boolean, .bigint): "\(column)::integer::bigint"
        case (.boolean, .double): "\(column)::integer::double precision"
        case (_, .bytea): "convert_to(\(column)::text, 'UTF8')"
        default: "\(column)::\(new.sql)"
        }
    }
}
