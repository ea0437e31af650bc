/// The type the automatic mapping gives a column, widened as values demand:
/// no values yet < INTEGER < REAL < TEXT < BLOB. Widening never loses a value, because
/// only numbers that convert exactly are numbers (see ``FieldValue/Number``).
///
/// BLOB is the widest because its affinity converts nothing: a column that has held
/// numbers or text and then receives binary data is redeclared BLOB, its rebuild keeps
/// every stored value exactly as it was, and whatever comes next is stored as it
/// comes — data as BLOB, text as TEXT, numbers as INTEGER or REAL. So a column that
/// has held data and then text (or the other way round) keeps both losslessly, and its
/// declared type says that it holds bytes. (Placing BLOB below TEXT would lose nothing
/// either, since TEXT affinity leaves BLOBs alone, but a column that holds bytes would
/// then claim to be text.)
public enum ColumnType: Int, Comparable, Sendable {
    /// No value but NULL yet: the column's type is still open.
    case untyped
    /// Integers (and booleans, as 0 and 1), declared `INTEGER`.
    case integer
    /// Numbers that are exact `Double`s but not integers (`472.942`, `73.0`), declared `REAL`.
    case real
    /// Text and nested data (JSON text), declared `TEXT`.
    case text
    /// Binary data (``FieldValue/data(_:)``), declared `BLOB`; holds anything as given.
    case blob

    public static func < (lhs: ColumnType, rhs: ColumnType) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The narrowest type that holds `value`, or `nil` for NULL (which fits any).
    public init?(holding value: FieldValue) {
        switch value {
        case .null: return nil
        case .bool: self = .integer
        case .number(let number): self = number.kind == .integer ? .integer : .real
        case .text, .json: self = .text
        case .data: self = .blob
        }
    }
}
