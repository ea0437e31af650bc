// MOVES TO IngestCore WITH THE MODULE CUT: the lead's planned `Output` protocol, write mode
// and database-neutral table design, declared here so the PostgreSQL output can be built
// against them before the cut lands. Delete this file when merging; the rest of
// IngestPostgres then needs only `import IngestCore` instead of `import IngestKit`.
import IngestKit

/// A destination an import writes atomically: open, write records, commit or discard.
///
/// With the cut this is `protocol Output: RecordSink`, RecordSink having lost `finish()`.
/// Until then IngestKit's `RecordSink` still requires `finish()`, so its two other
/// requirements are restated here instead of inherited.
public protocol Output: AnyObject {
    /// Writes one record into `record.table` (from `RecordSink`).
    func write(_ record: Record) throws
    /// The mapping learned that table `old` should be called `new` (from `RecordSink`).
    func renameTable(_ old: String, to new: String) throws

    /// What the user named as the destination, for messages (never a password).
    var displayName: String { get }
    /// Before the first record: connect, begin, create declared tables.
    func open() throws
    /// All records written: publish atomically (rename/swap/commit).
    func commit() throws
    /// After a failure: previous state untouched; idempotent.
    func discard()
}

/// How an import treats what the destination already holds.
public enum WriteMode: Sendable {
    /// Refuse a destination table that already exists.
    case create
    /// Rebuild the destination tables atomically.
    case replace
    /// Add to the destination tables (creating missing ones). An upsert is an append
    /// with a ``TableDesign`` whose ``TableDesign/upsert`` is set.
    case append
}

/// Tables declared by a mapping schema, independent of the database.
public struct TableDesign: Sendable {
    /// The type a schema gives a field.
    public enum ColumnType: Sendable { case text, integer, real, bool, date, datetime, data, json }

    public struct Column: Sendable {
        public var name: String
        public var type: ColumnType
        public var notNull: Bool

        public init(name: String, type: ColumnType, notNull: Bool = false) {
            self.name = name
            self.type = type
            self.notNull = notNull
        }
    }

    /// A child table's first column, referring to its parent's single-column key.
    public struct ForeignKey: Sendable {
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

    public struct Table: Sendable {
        public var name: String
        /// The table's own columns; a child table's foreign-key column comes before them.
        public var columns: [Column]
        public var primaryKey: [String]
        public var unique: [[String]]
        public var indexes: [[String]]
        public var foreignKey: ForeignKey?
        /// Tables whose foreign key refers to this one.
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
    }

    /// Parents before their children.
    public var tables: [Table]
    /// Rows whose primary key exists are updated (never deleted because absent).
    public var upsert: Bool

    public init(tables: [Table], upsert: Bool = false) {
        self.tables = tables
        self.upsert = upsert
    }
}
