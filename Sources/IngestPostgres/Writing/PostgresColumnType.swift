import IngestCore

/// The type of a column the PostgreSQL output writes: how it renders a
/// ``IngestCore/ColumnType`` in PostgreSQL's own types, plus the two states a column
/// of its can be in that the vocabulary has no word for.
///
/// | `ColumnType` | PostgreSQL |
/// | --- | --- |
/// | none yet (only NULL) | ``untyped`` (declared `text`) |
/// | `bool` | `boolean` |
/// | `integer` | `bigint` |
/// | `real` | `double precision` |
/// | `text` | `text` |
/// | `json` | `jsonb` |
/// | `data` | `bytea` |
/// | `date` | `date` |
/// | `datetime` | `timestamp with time zone` |
///
/// The automatic mapping widens a column as ``IngestCore/ColumnType/widened(toHold:)``
/// does, so its columns widen as their SQLite twins do, in PostgreSQL's words: a
/// boolean becomes 1 or 0 in a number column and `true` or `false` in a text column,
/// and JSON becomes its text. A mapping schema declares its types instead
/// (``init(designed:)``), and a table that existed before the import keeps its own
/// (``existing(_:)``): the server converts each value's text into it.
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

    /// How PostgreSQL stores `type`: the type a mapping schema's field or a designed
    /// column declares, and the one a widened column is altered to.
    init(designed type: ColumnType) {
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

    /// The type of the vocabulary this one renders; `nil` for ``untyped``. A column of
    /// a type of its own (``existing(_:)``) is given its values as text.
    var columnType: ColumnType? {
        switch self {
        case .untyped: nil
        case .boolean: .bool
        case .bigint: .integer
        case .double: .real
        case .text, .existing: .text
        case .jsonb: .json
        case .bytea: .data
        case .date: .date
        case .timestamptz: .datetime
        }
    }

    /// The type that holds what both `self` and `other` hold, for a column this
    /// import created: ``IngestCore/ColumnType/widened(toHold:)``, rendered.
    func widened(toHold other: PostgresColumnType) -> PostgresColumnType {
        guard let mine = columnType else { return other }
        guard let theirs = other.columnType else { return self }
        return PostgresColumnType(designed: mine.widened(toHold: theirs))
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
