/// One record on its way from the mapping to a sink: the table (or entity) it
/// belongs to and its fields in the order they were met.
///
/// Field names are interned ``Name``s, so a sink can cache per-name decisions
/// (which column, which type) in an array indexed by ``Name/id``.
public struct Record {
    public struct Field {
        public var name: Name
        public var value: FieldValue

        public init(name: Name, value: FieldValue) {
            self.name = name
            self.value = value
        }
    }

    /// The table the record belongs to.
    public var table: String
    public var fields: [Field]
    /// Where the record's element started.
    public var position: SourcePosition

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
