/// The `ON CONFLICT` clause of an upsert, which SQLite and PostgreSQL spell alike;
/// each output quotes names its own way.
package enum UpsertSQL {
    /// `ON CONFLICT (key) DO UPDATE SET c = excluded.c, …` for `columns` (the key's
    /// left out), or `DO NOTHING` when no column is left; names quoted by `quote`.
    package static func onConflict(key: [String], updating columns: [String], quote: (String) -> String) -> String {
        let updated = columns.filter { !key.contains($0) }
        let action =
            updated.isEmpty
            ? "DO NOTHING"
            : "DO UPDATE SET " + updated.map { "\(quote($0)) = excluded.\(quote($0))" }.joined(separator: ", ")
        return "ON CONFLICT (\(key.map(quote).joined(separator: ", "))) \(action)"
    }
}
