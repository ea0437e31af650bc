import IngestCore
import PostgresNIO  // ByteBuffer

/// One table the PostgreSQL output writes: its columns and their types, which of them
/// the rows being copied fill, and the rows encoded since the last batch went out.
///
/// Column names follow the SQLite output's rules, so one mapping names its columns the
/// same in both: a field's name — folded to lower case unless the output keeps names
/// exact (``PostgresOutput/IdentifierCase``) — and a field whose name another column
/// has, differing only in case included, gets `_2`, `_3`… (SQLite compares names
/// without case; PostgreSQL, for quoted names, with; see ``IngestCore/FieldColumns``).
/// Folding comes before that, so `ID` and `id` are the columns `id` and `id_2`: the
/// SQLite output's names in lower case.
/// PostgreSQL keeps at most 63 bytes of a name, so a longer name is cut there
/// (``PostgresIdentifier/fitted(_:reserving:)``), and a field with an empty name (a
/// JSON key `""`), which PostgreSQL cannot name a column after, is called `_`.
final class PostgresTable {
    struct Column {
        var name: String
        var type: PostgresColumnType
        /// Whether the type may widen: for a column this import added, never for one
        /// that existed or that a schema declares.
        var widens: Bool
        /// The shape of the JSON values seen, so an empty nested element can become `[]`/`{}`.
        var jsonShape: FieldValue.JSONShape?
        /// Whether '' was stored in this text column, which the commit may turn into `[]`/`{}`.
        var holdsEmptyText = false
        /// Whether every value stored so far is '' or NULL: the column can still
        /// become `jsonb` when nested data comes.
        var holdsOnlyEmptyText = false
    }

    /// The table's name when the import is committed.
    var name: String
    /// Where rows go now: a temporary name while a replaced table is built, else ``name``.
    var physicalName: String
    /// Whether this import created the table (from the records, not a design).
    let createdHere: Bool
    /// The declared table, when a schema's design is written.
    let designed: TableDesign.Table?
    /// Whether the design declares this a child table, whose rows follow their parent's.
    let isChild: Bool
    /// The session-private staging table an upsert copies into before merging.
    var stagingName: String?
    /// Whether the staging table must be made again (the table's columns changed)
    /// before rows are copied into it.
    var stagingIsStale = false
    /// The staging table's column counting rows in input order, and its column of
    /// each row's set of columns carried, named apart from the table's own.
    var orderColumn = "ingest order"
    var carriedColumn = "ingest fields"
    /// Whether rows are merged from a staging table (an upsert).
    var stages = false
    /// With ``stages``: whether a staged row updates only the columns its record
    /// carries (keyed tables, unless ``/IngestCore/TableDesign/upsertNulls``).
    var keepsUncarried = false
    /// The primary key's columns (a design's, or `--pk`'s as this table names them).
    var keyColumns: [String] = []
    /// With an upsert that keeps the columns a record does not carry: the sets of
    /// columns (a `0` or `1` per column) the rows staged since the last merge carry,
    /// in the order first met, and each staged key's set.
    var stagedColumnSets: [String] = []
    var stagedKeys: [[UInt8]: Int] = [:]

    // Safety (`@exclusivity(unchecked)` here and below): a table belongs to one
    // PostgresSink, which only the import's writer thread calls; the session's
    // executor thread gets copies (the buffer, the column names), never the table. No
    // two accesses can overlap, so the runtime check per row and value is left out.
    @exclusivity(unchecked) private(set) var columns: [Column] = []
    /// The columns the rows in ``buffer`` fill, in order: every column of a table
    /// created here; of a table that existed, those the records have used, so the
    /// others get their defaults (a serial key, a timestamp).
    @exclusivity(unchecked) private(set) var copiedColumns: [Int] = []
    @exclusivity(unchecked) private var isCopied: [Bool] = []
    /// Which column each field goes to, and the column names, distinct as SQLite
    /// compares identifiers (ASCII letters without case), so that both outputs give a
    /// mapping's fields the same column names; those of a table that existed, or that
    /// a design declares, exist already.
    @exclusivity(unchecked) private var fieldColumns: FieldColumns
    /// Whether a new column's name is the field's folded to lower case.
    private let foldsNames: Bool
    /// Columns added to a table that existed (with `--alter`), in order.
    var addedColumns: [String] { fieldColumns.added }

    /// Rows encoded for ``copiedColumns``, not yet sent, and where each came from.
    /// (Touched per value on one thread: exclusivity is checked statically only.)
    @exclusivity(unchecked) var buffer = ByteBuffer()
    @exclusivity(unchecked) var positions: [SourcePosition] = []
    @exclusivity(unchecked) private(set) var rowCount = 0

    /// - Parameter foldsNames: whether columns are named after their fields in lower
    ///   case (``PostgresOutput/IdentifierCase/lower``); never for a designed table.
    init(
        name: String, physicalName: String, existingColumns: [Column]?, altersExisting: Bool = false,
        designed: TableDesign.Table? = nil, foldsNames: Bool = false
    ) {
        self.name = name
        self.foldsNames = foldsNames && designed == nil
        self.physicalName = physicalName
        createdHere = existingColumns == nil && designed == nil
        self.designed = designed
        isChild = designed?.foreignKey != nil
        // A field without a column adds one: always to a table created here, to a table
        // that existed only with `--alter`, never to a designed one.
        fieldColumns = FieldColumns(
            existing: existingColumns?.map(\.name), preexisting: !createdHere,
            addsColumns: designed == nil && (existingColumns == nil || altersExisting))
        for column in existingColumns ?? [] { append(column, copied: designed != nil) }
    }

    /// What resolving a field's column asks of the database first.
    enum ColumnChange {
        case none
        /// A new column: `ALTER TABLE … ADD COLUMN`.
        case add(Int)
        /// An existing column the rows start filling: only the COPY column list changes.
        case startCopying(Int)
    }

    /// The column for field `name`, registering a new one (untyped until its first
    /// value, see ``widening(_:toHold:empty:)``) if the table has none and may gain one.
    /// A table that may not refuses with `.data` at `position`.
    @inline(__always)
    func column(for name: Name, at position: SourcePosition) throws -> (index: Int, change: ColumnChange) {
        if let index = fieldColumns.column(for: name) {
            return (index, isCopied[index] ? .none : .startCopying(index))
        }
        return try resolveColumn(for: name, at: position)
    }

    /// ``column(for:at:)`` for a name this table has no column for yet.
    private func resolveColumn(for name: Name, at position: SourcePosition) throws -> (index: Int, change: ColumnChange)
    {
        // The field's name cut to 63 bytes, or the first free of `…_2`, `…_3`: an existing
        // column of exactly that name (cut by an earlier import too) is the field's. With
        // folded names, an existing column named after the field as it is spelled (with
        // exact names, or before names were folded) comes first, then the folded name.
        let field = name.qualified.isEmpty ? "_" : name.qualified
        let spellings = foldsNames ? [field, PostgresIdentifier.folded(field)] : [field]
        switch fieldColumns.resolve(name, spelled: spellings, fitted: PostgresIdentifier.fitted) {
        case .column(let index):
            return (index, isCopied[index] ? .none : .startCopying(index))
        case .new(let choice):
            guard fieldColumns.addsColumns else {
                if designed != nil {
                    throw IngestError(
                        .data, "the table \(self.name) declares no column \(name.qualified)", position: position)
                }
                throw FieldColumns.missingColumnError(table: self.name, field: name.qualified, at: position)
            }
            try PostgresIdentifier.check(name.qualified, what: "column", position: position)
            let index = fieldColumns.add(choice, for: name)
            append(Column(name: choice.name, type: .untyped, widens: true), copied: false)
            return (index, .add(index))
        }
    }

    /// The index of the column `name` names: exactly, or folded as the table folds
    /// the names of new columns.
    func columnIndex(named name: String) -> Int? {
        fieldColumns.index(named: name)
            ?? (foldsNames ? fieldColumns.index(named: PostgresIdentifier.folded(name)) : nil)
    }

    /// Registers the column `_` for a table whose records all had no fields, as the
    /// SQLite output gives one (SQLite has no table without columns): both outputs give
    /// the same tables. Returns its index, for the caller to add it to the table.
    func addPlaceholderColumn() -> Int {
        append(Column(name: fieldColumns.addPlaceholder(), type: .untyped, widens: true), copied: false)
        return columns.count - 1
    }

    /// Adds the column to the COPY column list (after the rows buffered for the old list
    /// have gone out).
    func startCopying(_ index: Int) {
        guard !isCopied[index] else { return }
        isCopied[index] = true
        copiedColumns.append(index)
    }

    private func append(_ column: Column, copied: Bool) {
        columns.append(column)
        isCopied.append(false)
        if copied { startCopying(columns.count - 1) }
    }

    /// The type column `index` needs to hold `value` as well as what it holds, or `nil`
    /// when it holds it already; `empty` says the value is text without characters (an
    /// empty element). Only columns this import added widen; the others keep their
    /// types and the server converts each value's text (or says why it cannot).
    @inline(__always)
    func widening(_ index: Int, toHold value: HeldValue, empty: Bool) -> PostgresColumnType? {
        if columns[index].type == .text, !columns[index].holdsOnlyEmptyText, !empty {
            // A text column that has held text holds any text, number or boolean as it
            // is: the common case, decided without copying the column.
            switch value {
            case .data, .json: break
            default: return nil
            }
        }
        return widening(index, toHold: value, needed: value.columnType, empty: empty)
    }

    private func widening(_ index: Int, toHold value: HeldValue, needed: PostgresColumnType?, empty: Bool)
        -> PostgresColumnType?
    {
        var column = columns[index]
        defer { columns[index] = column }
        if let shape = value.jsonShape, column.jsonShape == nil { column.jsonShape = shape }
        guard column.widens, let needed else { return nil }
        if value == .text, empty {
            // An empty element: '' in a text column, the empty JSON value in a jsonb one.
            switch column.type {
            case .jsonb: return nil
            case .untyped:
                column.holdsOnlyEmptyText = true
                column.holdsEmptyText = true
                return .text
            case .text:
                column.holdsEmptyText = true
                return nil
            default:
                column.holdsEmptyText = true
                return column.type.widened(toHold: .text)
            }
        }
        if needed == .jsonb, column.type == .text, column.holdsOnlyEmptyText { return .jsonb }
        column.holdsOnlyEmptyText = false
        let widened = column.type.widened(toHold: needed)
        return widened == column.type ? nil : widened
    }

    /// Records that column `index` was altered to `type`.
    func didChangeType(_ index: Int, to type: PostgresColumnType) {
        if type != .text { columns[index].holdsOnlyEmptyText = false }
        columns[index].type = type
    }

    /// What an empty text is written as in column `index`: its JSON shape's empty
    /// value in a `jsonb` column of the automatic mapping.
    func emptyJSON(forColumn index: Int) -> String? {
        guard designed == nil else { return nil }
        return columns[index].jsonShape == .array ? "[]" : "{}"
    }

    func didEncodeRow(at position: SourcePosition) {
        positions.append(position)
        rowCount += 1
    }
}
