import IngestCore

/// A column's type as SQLite declares it, which gives the column its affinity: how the
/// SQLite output renders a ``IngestCore/ColumnType``, ordered by width.
///
/// no values yet < INTEGER < REAL < TEXT < BLOB. Rendering preserves widening: the
/// affinity of `a.widened(toHold: b)` is the wider of `a`'s and `b`'s, so a table of
/// the automatic mapping keeps the affinity alone, compares it per value, and is
/// rebuilt only when a column's affinity changes (a column of booleans that gets
/// integers stays INTEGER; nested data and then text stays TEXT).
///
/// BLOB is the widest because its affinity converts nothing: a column that has held
/// numbers or text and then receives binary data is redeclared BLOB, its rebuild keeps
/// every stored value exactly as it was, and whatever comes next is stored as it
/// comes — data as BLOB, text as TEXT, numbers as INTEGER or REAL. So a column that
/// has held data and then text (or the other way round) keeps both losslessly, and its
/// declared type says that it holds bytes.
enum SQLiteAffinity: Int, Comparable, Sendable {
    /// No value but NULL yet: declared without a type, still open.
    case untyped
    case integer
    case real
    case text
    case blob

    static func < (lhs: SQLiteAffinity, rhs: SQLiteAffinity) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The affinity SQLite gives `type`: booleans are the integers 1 and 0; dates and
    /// JSON are text.
    init(_ type: ColumnType) {
        switch type {
        case .integer, .bool: self = .integer
        case .real: self = .real
        case .text, .date, .datetime, .json: self = .text
        case .data: self = .blob
        }
    }

    /// The declared type in `CREATE TABLE`, which gives the column its affinity.
    var sql: String {
        switch self {
        case .untyped: ""
        case .integer: "INTEGER"
        case .real: "REAL"
        case .text: "TEXT"
        case .blob: "BLOB"
        }
    }

    /// The affinity of an existing column, from its declared type, as SQLite's rules
    /// read it, in their order: `INT`; `CHAR`, `CLOB`, `TEXT`; `BLOB` (an empty
    /// declared type, also BLOB affinity to SQLite, stays ``untyped``); `REAL`,
    /// `FLOA`, `DOUB`.
    init(declared: String) {
        let type = declared.uppercased()
        if type.contains("INT") {
            self = .integer
        } else if type.contains("CHAR") || type.contains("CLOB") || type.contains("TEXT") {
            self = .text
        } else if type.contains("BLOB") {
            self = .blob
        } else if type.contains("REAL") || type.contains("FLOA") || type.contains("DOUB") {
            self = .real
        } else if type.isEmpty {
            self = .untyped
        } else {
            self = .text
        }
    }
}
