import IngestCore
/// What the values of one field seen in a sample say about its schema type.
///
/// Numbers and text widen the way ``ColumnType`` widens a column — integer < real
/// < text — so the type names the column the automatic mapping would have made.
/// On top of that, a field is `bool` only when every non-null value was a JSON
/// boolean (mixed with numbers a boolean counts as the integer SQLite stores),
/// `json` as soon as one value was nested or repeated, and `text` when every value
/// was null: nothing narrower is known.
struct FieldTypeEvidence: Equatable, Sendable {
    /// The widest column type of the non-null values; `.untyped` when there were none.
    private(set) var column: ColumnType = .untyped
    private(set) var sawBool = false
    /// Whether a non-null value was something other than a boolean.
    private(set) var sawNonBool = false
    private(set) var sawJSON = false

    mutating func add(_ value: FieldValue) {
        guard let type = ColumnType(holding: value) else { return }
        if type > column { column = type }
        switch value {
        case .bool: sawBool = true
        case .json:
            sawJSON = true
            sawNonBool = true
        default: sawNonBool = true
        }
    }

    /// Both samples' evidence: what a field seen in two inputs (or two tables that
    /// turned out to be one) has to hold.
    mutating func merge(_ other: FieldTypeEvidence) {
        column = max(column, other.column)
        sawBool = sawBool || other.sawBool
        sawNonBool = sawNonBool || other.sawNonBool
        sawJSON = sawJSON || other.sawJSON
    }

    var type: MappingSchema.FieldType {
        if sawJSON { return .json }
        if sawBool && !sawNonBool { return .bool }
        switch column {
        case .untyped, .text: return .text
        case .integer: return .integer
        case .real: return .real
        case .blob: return .data
        }
    }
}
