import IngestCore

/// Column types as SQLite declares and reads them.
extension ColumnType {
    /// The declared type in `CREATE TABLE`, which gives the column its affinity.
    public var sql: String {
        switch self {
        case .untyped: ""
        case .integer: "INTEGER"
        case .real: "REAL"
        case .text: "TEXT"
        case .blob: "BLOB"
        }
    }

    /// The type of an existing column, from its declared type, as SQLite's affinity
    /// rules read it, in their order: `INT`; `CHAR`, `CLOB`, `TEXT`; `BLOB` (an empty
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
