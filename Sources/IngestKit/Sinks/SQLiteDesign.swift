/// Tables declared up front, as a mapping schema declares them, instead of grown
/// from the records: what ``SQLiteSink`` creates before the first row, and how it
/// inserts into each table.
public struct SQLiteDesign: Sendable {
    /// One declared table.
    public struct Table: Sendable {
        public var name: String
        /// Appended to the table's INSERT: `ON CONFLICT ("id") DO UPDATE SET …`.
        public var conflictClause: String?
        /// The single-column primary key that child tables refer to.
        public var keyColumn: String?
        /// Tables whose rows belong to this table's rows, and their foreign-key column:
        /// with ``replacesChildRows``, a row's children are deleted when the row is
        /// written again, so the children that follow replace them.
        public var childTables: [ChildTable]
        /// Whether the table's rows belong to another table's: a batch never ends
        /// between a parent row and its children.
        public var isChild: Bool

        public init(name: String, conflictClause: String? = nil, keyColumn: String? = nil,
                    childTables: [ChildTable] = [], isChild: Bool = false) {
            self.name = name
            self.conflictClause = conflictClause
            self.keyColumn = keyColumn
            self.childTables = childTables
            self.isChild = isChild
        }
    }

    public struct ChildTable: Sendable {
        public var table: String
        public var foreignKey: String

        public init(table: String, foreignKey: String) {
            self.table = table
            self.foreignKey = foreignKey
        }
    }

    /// `CREATE TABLE IF NOT EXISTS …` and `CREATE INDEX IF NOT EXISTS …`, in order.
    public var statements: [String]
    public var tables: [Table]
    /// Turns on SQLite's foreign key enforcement for the connection.
    public var enforcesForeignKeys: Bool
    /// Rows written again (an upsert) lose their child rows before the new ones come.
    public var replacesChildRows: Bool

    public init(statements: [String], tables: [Table], enforcesForeignKeys: Bool, replacesChildRows: Bool) {
        self.statements = statements
        self.tables = tables
        self.enforcesForeignKeys = enforcesForeignKeys
        self.replacesChildRows = replacesChildRows
    }
}
