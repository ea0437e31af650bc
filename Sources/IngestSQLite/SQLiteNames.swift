import Foundation

/// The names a SQLite database keeps for the tables and columns records name.
///
/// Records' names are kept as they are (quoted, see
/// ``Swift/String/quotedSQLIdentifier``) but for two things SQLite cannot
/// take: a NUL, which would end the statement's text, is U+FFFD (the replacement
/// character); and a table name starting with `sqlite_`, in any case — a prefix SQLite
/// keeps for itself and refuses to create — gets a `_` in front: records named
/// `sqlite_users` go to `_sqlite_users`. Both are the same in every run, so `--append`
/// finds the tables and columns again. A name so changed can be one another table or
/// column has (`sqlite_x` and `_sqlite_x`): it then gets a suffix, as any name taken
/// does (see ``IngestCore/DistinctNames``).
enum SQLiteNames {
    /// The table records named `name` are kept in (before any suffix that tells it
    /// from another table's name).
    static func table(_ name: String) -> String {
        let name = column(name)
        guard name.utf8.count >= 7 else { return name }
        let reserved = zip(name.utf8, "sqlite_".utf8).allSatisfy { byte, letter in
            (byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte) == letter
        }
        return reserved ? "_" + name : name
    }

    /// The column fields named `name` are kept in (before any suffix that tells it
    /// from another column's name).
    static func column(_ name: String) -> String {
        name.utf8.contains(0) ? name.replacingOccurrences(of: "\u{0}", with: "\u{FFFD}") : name
    }
}
