/// One record on its way from the mapping to a sink: the table (or entity) it
/// belongs to and its fields in the order they were met.
///
/// Field names are interned ``Name``s, so a sink can cache per-name decisions
/// (which column, which type) in an array indexed by ``Name/id``.
public struct IngestRecord {
    /// One named value of a record.
    public struct Field {
        /// The field's name: the child element's, attribute's or JSON member's; for
        /// the record's own text, the record element's (``origin`` tells which).
        public var name: Name
        /// The field's value.
        public var value: FieldValue
        /// Where in the record element the value was: schema inference needs it to
        /// write the field's `source`. One byte, which fits the padding after `value`.
        public var origin: Origin

        /// A field called `name` holding `value`, from a child element unless
        /// `origin` says otherwise.
        public init(name: Name, value: FieldValue, origin: Origin = .element) {
            self.name = name
            self.value = value
            self.origin = origin
        }

        /// What part of the record element a field comes from.
        public enum Origin: UInt8, Sendable {
            /// A child element, or a member of a JSON object (`firstName`).
            case element
            /// An attribute (`@id`).
            case attribute
            /// The record element's own text, or a JSON record that is a plain value (`.`).
            case ownText
        }
    }

    /// The table the record belongs to.
    public var table: String
    /// The fields in the order they were met.
    public var fields: [Field]
    /// Where the record's element started.
    public var position: SourcePosition

    /// A record of `table` with `fields`, which started at `position`.
    public init(table: String, fields: [Field] = [], position: SourcePosition = .start) {
        self.table = table
        self.fields = fields
        self.position = position
    }

    /// The value of the first field called `name`, if any.
    public subscript(name: String) -> FieldValue? {
        fields.first { $0.name.qualified == name }?.value
    }
}
