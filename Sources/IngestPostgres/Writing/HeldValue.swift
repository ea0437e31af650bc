import IngestCore

/// What one field of a ``/IngestCore/RecordBatch`` holds, decided once from its kind
/// and, for XML text and JSON numbers, its bytes: by ``/IngestCore/FieldValue``'s
/// rules, `42` is an integer, `2.5` a real, `007` and `1.50` text in XML, and in JSON
/// `1.50` and `6.02e23` reals. The bytes
/// themselves are written as they are (``CopyTextEncoder``); nothing is materialised.
enum HeldValue: Equatable {
    case null
    case boolean(Bool)
    /// The bytes are the integer's canonical decimal text.
    case integer
    /// The bytes are the real's decimal text (as the input wrote it).
    case real
    /// The bytes are UTF-8 text.
    case text
    /// The bytes are compact JSON text of this shape.
    case json(FieldValue.JSONShape)
    /// The bytes are binary data.
    case data

    init(_ field: RecordBatch.Field, bytes: UnsafeRawBufferPointer) {
        switch field.kind {
        case .null: self = .null
        case .false: self = .boolean(false)
        case .true: self = .boolean(true)
        case .text: self = .text
        case .inferred, .number:
            switch field.kind == .number ? NumberSyntax.jsonKind(of: bytes) : NumberSyntax.kind(of: bytes) {
            case .integer?: self = .integer
            case .real?: self = .real
            case nil: self = .text
            }
        case .integer: self = .integer
        case .real: self = .real
        case .jsonArray: self = .json(.array)
        case .jsonObject: self = .json(.object)
        case .data: self = .data
        }
    }

    /// The narrowest column type that holds the value, or `nil` for NULL (which fits any).
    var columnType: PostgresColumnType? {
        switch self {
        case .null: nil
        case .boolean: .boolean
        case .integer: .bigint
        case .real: .double
        case .text: .text
        case .json: .jsonb
        case .data: .bytea
        }
    }

    /// The shape of nested data, so an empty nested element can become `[]` or `{}`.
    var jsonShape: FieldValue.JSONShape? {
        if case .json(let shape) = self { return shape }
        return nil
    }
}
