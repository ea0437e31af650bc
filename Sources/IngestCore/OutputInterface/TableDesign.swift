/// Tables declared up front, as a mapping schema declares them, rather than grown
/// from the records: what a database output creates before the first row and how
/// it inserts into each table. It names no database: each output renders it in its
/// own SQL (IngestSQLite's `SQLiteOutput`, and any other database output).
public struct TableDesign: Sendable, Equatable {
    /// What a column holds: `ColumnType`, the vocabulary it shares with
    /// mapping schemas and the automatic mapping.
    @available(*, deprecated, renamed: "IngestCore.ColumnType")
    public typealias ColumnType = IngestCore.ColumnType

    /// One declared column of a ``Table``.
    public struct Column: Sendable, Equatable {
        /// The column's name, as the records' fields name it.
        public var name: String
        /// What the column holds.
        public var type: IngestCore.ColumnType
        /// Whether a row must give the column a value (`NOT NULL`).
        public var notNull: Bool

        /// A column called `name` holding `type`, which may be null unless `notNull`.
        public init(name: String, type: IngestCore.ColumnType, notNull: Bool = false) {
            self.name = name
            self.type = type
            self.notNull = notNull
        }
    }

    /// A child table's first column, which refers to its parent row's key.
    public struct ForeignKey: Sendable, Equatable {
        /// The name of the child table's column that holds the parent's key.
        public var column: String
        /// The table the parent rows are in.
        public var parentTable: String
        /// The parent table's key column (its ``Table/keyColumn``) this column refers to.
        public var parentColumn: String
        /// The type of the key, the same as the parent column's.
        public var type: IngestCore.ColumnType

        /// A foreign key: `column` of the child table refers to `parentColumn` of
        /// `parentTable`.
        public init(column: String, parentTable: String, parentColumn: String, type: IngestCore.ColumnType) {
            self.column = column
            self.parentTable = parentTable
            self.parentColumn = parentColumn
            self.type = type
        }
    }

    /// One declared table: its columns, keys and indexes, and its place in a
    /// parent–child hierarchy.
    public struct Table: Sendable, Equatable {
        /// The table's name, as the records' ``IngestRecord/table`` names it.
        public var name: String
        /// The columns after the foreign key, if any, in order.
        public var columns: [Column]
        /// The columns of the primary key, in order; empty for none.
        public var primaryKey: [String]
        /// Sets of columns whose values together must be unique, one constraint each.
        public var unique: [[String]]
        /// Sets of columns to index, one (non-unique) index each.
        public var indexes: [[String]]
        /// Set on a child table: its rows belong to rows of ``ForeignKey/parentTable``,
        /// and a batch never ends between a parent row and its children.
        public var foreignKey: ForeignKey?
        /// The tables whose rows belong to this table's rows.
        public var childTables: [String]
        /// Whether the primary key's values fall at random over their range (hashes,
        /// UUIDs), as the feed archive's do. An output that would keep the table's rows
        /// in key order (SQLite, for an integer key) keeps them in the order written
        /// instead and finds them through a unique index on the key: inserting at
        /// random places of a large table reads and rewrites pages all over the file.
        public var randomKey: Bool

        /// A table called `name`; every argument but the columns defaults to none.
        public init(
            name: String, columns: [Column], primaryKey: [String] = [], unique: [[String]] = [],
            indexes: [[String]] = [], foreignKey: ForeignKey? = nil, childTables: [String] = [],
            randomKey: Bool = false
        ) {
            self.randomKey = randomKey
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
    /// With ``upsert``: whether a record updating a stored row sets the columns it has
    /// no field for to NULL (the whole row is replaced). By default they keep their
    /// stored values: only the columns the record carries are updated.
    public var upsertNulls: Bool

    /// A design of `tables` (parents before their children); `upsert` makes a row
    /// whose primary key is already stored update it — only the columns the record
    /// carries, unless `upsertNulls`.
    public init(tables: [Table], upsert: Bool, upsertNulls: Bool = false) {
        self.tables = tables
        self.upsert = upsert
        self.upsertNulls = upsertNulls
    }

    /// The table called `name`.
    public func table(named name: String) -> Table? { tables.first { $0.name == name } }
}
