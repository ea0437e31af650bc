import IngestCore

/// What the values of one field seen in a sample say about its schema type.
///
/// The values widen as the automatic mapping widens a column
/// (``/IngestCore/ColumnType/widened(toHold:)``), so the type names the column the
/// automatic mapping would have made — with two differences: a field is `json` as
/// soon as one value was nested or repeated (the mapping keeps such a field's values
/// as JSON text), and `text` when every value was null, since nothing narrower is
/// known.
struct FieldTypeEvidence: Equatable, Sendable {
    /// The widest type of the non-null values; `nil` when there were none.
    private(set) var widest: ColumnType?
    private(set) var sawJSON = false

    mutating func add(_ value: FieldValue) {
        guard let type = ColumnType(holding: value) else { return }
        widest = widest?.widened(toHold: type) ?? type
        if type == .json { sawJSON = true }
    }

    /// Both samples' evidence: what a field seen in two inputs (or two tables that
    /// turned out to be one) has to hold.
    mutating func merge(_ other: FieldTypeEvidence) {
        if let type = other.widest { widest = widest?.widened(toHold: type) ?? type }
        sawJSON = sawJSON || other.sawJSON
    }

    var type: ColumnType { sawJSON ? .json : widest ?? .text }
}
