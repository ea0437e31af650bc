/// What an element holds. XML elements are all ``markup``: their text is untyped
/// character data. The JSON reader tells objects, arrays and the scalar types apart,
/// so a mapping keeps JSON's types: `true` stays a boolean, `null` stays absent,
/// `"42"` stays a string and `[]` stays an empty list.
public enum ContentKind: UInt8, Sendable {
    /// An XML element: attributes, child elements and character data.
    case markup
    /// A JSON object: one child element per member, named by its key.
    case object
    /// A JSON array: one child element per item, each named `item`.
    case array
    /// A JSON string; the text is the decoded string.
    case string
    /// A JSON number; the text is the number exactly as written.
    case number
    /// `true` or `false`; the text is the literal.
    case boolean
    /// `null`; no text.
    case null

    /// Whether the kind is a JSON scalar (string, number, boolean or null).
    public var isScalar: Bool { rawValue >= ContentKind.string.rawValue }
}
