/// Which column of one database table each field of its records goes to, and the
/// names of the table's columns: the part of a table's evolution that the SQLite and
/// PostgreSQL outputs share, so one mapping names its columns alike in both.
///
/// A field keeps the column it was first given. A new field gets a column named after
/// it, distinct from every other column as ``DistinctNames`` chooses (ASCII letters
/// compared without case, as SQLite compares identifiers); a column of a table that
/// existed before the import is the field's when it spells the field's name exactly
/// (the column an earlier run made for the same field). Where the table may not gain
/// columns, a field without one is refused with ``missingColumnError(table:field:at:)``.
///
/// Indices count the columns in the order registered: the existing ones first, then
/// each one added. The owner keeps its own column descriptions (types, shapes) at the
/// same indices.
package struct FieldColumns {
    /// What ``resolve(_:spelled:fitted:)`` found for a field.
    package enum Resolution {
        /// A column the table has: the field's from now on.
        case column(Int)
        /// No column yet; a new one would be named as chosen (``add(_:for:)`` adds it).
        case new(DistinctNames.Choice)
    }

    /// Whether the table existed before this import (its new columns are reported in
    /// ``added``).
    package let preexisting: Bool
    /// Whether a field without a column may add one.
    package let addsColumns: Bool
    /// The columns added to a table that existed before this import, in order.
    package private(set) var added: [String] = []
    /// How many columns the table has.
    package private(set) var count = 0

    private var names: DistinctNames
    /// Column index by field name.
    private var columnOfField = NameIndex()
    /// Column index by column name.
    private var columnNamed = NameIndex()

    /// - Parameters:
    ///   - existing: the names of the columns of a table that existed before this
    ///     import, or of the columns a design declares; `nil` for a table this import
    ///     creates from its records.
    ///   - preexisting: whether the table existed before this import.
    ///   - addsColumns: whether a field without a column may add one.
    package init(existing: [String]?, preexisting: Bool, addsColumns: Bool) {
        self.preexisting = preexisting
        self.addsColumns = addsColumns
        names = DistinctNames(comparing: .asciiCaseInsensitive, existing: existing ?? [])
        for name in existing ?? [] { register(name) }
    }

    /// The column field `name` was given, if any: the lookup made per value.
    @inline(__always)
    package mutating func column(for name: Name) -> Int? {
        columnOfField.value(for: name)
    }

    /// The column a field without one (``column(for:)`` is `nil`) goes to: the first
    /// of `candidates` (the field's name as the output spells it, then any other
    /// spelling it accepts) that names an existing column not yet given out, which
    /// becomes the field's; else the name a new column would have, after the last
    /// candidate. `candidates` holds at least one name. `fitted` shortens a name to
    /// the output's longest (see ``DistinctNames/choose(for:fitted:)``).
    package mutating func resolve(
        _ name: Name, spelled candidates: [String],
        fitted: (_ name: String, _ reserving: Int) -> String = { name, _ in name }
    ) -> Resolution {
        var choice = names.choose(for: candidates[0], fitted: fitted)
        for candidate in candidates.dropFirst() where !choice.exists && candidate != candidates[0] {
            choice = names.choose(for: candidate, fitted: fitted)
        }
        // Every existing name was registered by init, so an existing choice has an index.
        guard choice.exists, let index = columnNamed.value(forQualified: choice.name) else { return .new(choice) }
        names.take(choice)
        columnOfField.set(index, for: name)
        return .column(index)
    }

    /// Adds the column `choice` names (from ``resolve(_:spelled:fitted:)``) for field
    /// `name`, and returns its index.
    package mutating func add(_ choice: DistinctNames.Choice, for name: Name) -> Int {
        names.take(choice)
        let index = register(choice.name)
        columnOfField.set(index, for: name)
        if preexisting { added.append(choice.name) }
        return index
    }

    /// Adds the column `_`, which a table whose records have no fields is given (SQLite
    /// has no table without columns; PostgreSQL's output makes the same tables), and
    /// returns its name.
    package mutating func addPlaceholder() -> String {
        let name = names.claim("_")
        register(name)
        return name
    }

    /// The index of the column named exactly `name`.
    package func index(named name: String) -> Int? {
        columnNamed.value(forQualified: name)
    }

    /// The error for field `field`, which the table `table` has no column for and
    /// may not gain one: `.data` at `position`, with a
    /// ``IngestError/Reason/missingColumn(table:field:)`` reason.
    package static func missingColumnError(table: String, field: String, at position: SourcePosition?) -> IngestError {
        IngestError(
            .data, "the existing table \(table) has no column for field \(field)", position: position,
            reason: .missingColumn(table: table, field: field))
    }

    @discardableResult
    private mutating func register(_ name: String) -> Int {
        columnNamed.set(count, forQualified: name)
        count += 1
        return count - 1
    }
}
