/// Tables declared up front, as a mapping schema declares them, rather than grown
/// from the records: what a database output creates before the first row and how
/// it inserts into each table. It names no database: each output renders it in its
/// own SQL (IngestSQLite's `SQLiteOutput`, and any other database output).
public struct TableDesign: Sendable, Equatable {
    /// What a column holds; each output picks its own type for it.
    public enum ColumnType: String, Sendable, Equatable {
        case text, integer, real, bool, date, datetime, data, json
    }

    public struct Column: Sendable, Equatable {
        public var name: String
        public var type: ColumnType
        public var notNull: Bool

        public init(name: String, type: ColumnType, notNull: Bool = false) {
            self.name = name
            self.type = type
            self.notNull = notNull
        }
    }

    /// A child table's first column, which refers to its parent row's key.
    public struct ForeignKey: Sendable, Equatable {
        public var column: String
        public var parentTable: String
        public var parentColumn: String
        public var type: ColumnType

        public init(column: String, parentTable: String, parentColumn: String, type: ColumnType) {
            self.column = column
            self.parentTable = parentTable
            self.parentColumn = parentColumn
            self.type = type
        }
    }

    public struct Table: Sendable, Equatable {
        public var name: String
        /// The columns after the foreign key, if any, in order.
        public var columns: [Column]
        public var primaryKey: [String]
        public var unique: [[String]]
        public var indexes: [[String]]
        /// Set on a child table: its rows belong to rows of ``ForeignKey/parentTable``,
        /// and a batch never ends between a parent row and its children.
        public var foreignKey: ForeignKey?
        /// The tables whose rows belong to this table's rows.
        public var childTables: [String]

        public init(name: String, columns: [Column], primaryKey: [String] = [], unique: [[String]] = [],
                    indexes: [[String]] = [], foreignKey: ForeignKey? = nil, childTables: [String] = []) {
            self.name = name
            self.columns = columns
            self.primaryKey = primaryKey
            self.unique = unique
            self.indexes = indexes
            self.foreignKey = foreignKey
            self.childTables = childTables
        }

        /// The single-column primary key child tables refer to, if there is one.
        public var keyColumn: String? { primaryKey.count == 1 ? primaryKey[0] : nil }
    }

    /// The tables, parents before their children.
    public var tables: [Table]
    /// Whether a row whose primary key is already stored updates that row instead of
    /// failing. An upsert never deletes: rows the input does not mention stay.
    public var upsert: Bool

    public init(tables: [Table], upsert: Bool) {
        self.tables = tables
        self.upsert = upsert
    }

    /// The table called `name`.
    public func table(named name: String) -> Table? { tables.first { $0.name == name } }
}
