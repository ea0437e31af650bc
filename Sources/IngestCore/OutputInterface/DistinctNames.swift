/// The names an output gives the columns of one table, the keys of one table's
/// records, or its tables: each different from all the others, as the output
/// compares names.
///
/// A name from the input is kept as it is when nothing else has it. When something
/// has — a name differing only in case, or one the output had to change (a NUL
/// SQLite cannot hold, a PostgreSQL name cut to 63 bytes, a table named `sqlite_…`)
/// and that lands on another — it gets the first free of `name_2`, `name_3`…, and
/// that name is then taken like any other: a field literally named `id_2`, met after
/// `id` became `id_2`, becomes `id_2_2` rather than share a column. Names are given
/// in the order they are asked for, so the same input gets the same names in every run.
///
/// Names that exist already — the columns of a table an import appends to — are
/// given only to a name that spells them exactly: the field that ran into them in the
/// run that made them, when the input is the same. A candidate that only compares
/// equal to an existing name (`id` where the table has `ID`) is passed over, so the
/// field `id` finds again the column `id_2` an earlier run gave it.
package struct DistinctNames {
    /// How the output tells two names apart.
    package enum Comparison {
        /// By their UTF-8 bytes with the ASCII letters folded to lower case, as SQLite
        /// compares identifiers (see ``DistinctNames/foldingASCIICase(_:)``); the PostgreSQL
        /// output compares so too, to name columns as the SQLite output does.
        case asciiCaseInsensitive
        /// By their UTF-8 bytes (property list and JSON keys).
        case bytes
    }

    /// The name chosen for something, and whether it exists already.
    package struct Choice {
        package let name: String
        /// Whether `name` is one of the existing names (no column needs adding).
        package let exists: Bool
    }

    private let comparison: Comparison
    /// The names given out, as compared.
    private var taken: Set<[UInt8]> = []
    /// The existing names, by their exact bytes.
    private var existing: Set<[UInt8]> = []
    /// The existing names, as compared.
    private var existingCompared: Set<[UInt8]> = []
    /// The existing names given out, by their exact bytes.
    private var takenExisting: Set<[UInt8]> = []

    /// - Parameters:
    ///   - comparison: how the output compares names.
    ///   - existing: names already there, none given out yet.
    package init(comparing comparison: Comparison, existing names: [String] = []) {
        self.comparison = comparison
        for name in names {
            existing.insert(Array(name.utf8))
            existingCompared.insert(compared(name))
        }
    }

    /// The name for something the input calls `name`, not given out yet (see
    /// ``take(_:)``): `name` itself, else the first free of `name_2`, `name_3`….
    /// `fitted` shortens a candidate to the output's longest name, leaving room for
    /// the given number of bytes of suffix.
    package func choose(for name: String, fitted: (_ name: String, _ reserving: Int) -> String = { name, _ in name })
        -> Choice
    {
        var candidate = fitted(name, 0)
        var suffix = 2
        while true {
            let bytes = Array(candidate.utf8)
            if existing.contains(bytes) {
                if !takenExisting.contains(bytes) { return Choice(name: candidate, exists: true) }
            } else {
                let key = compared(candidate)
                if !taken.contains(key), !existingCompared.contains(key) {
                    return Choice(name: candidate, exists: false)
                }
            }
            let tail = "_\(suffix)"
            candidate = fitted(name, tail.utf8.count) + tail
            suffix += 1
        }
    }

    /// Gives out `choice`'s name.
    package mutating func take(_ choice: Choice) {
        taken.insert(compared(choice.name))
        if choice.exists { takenExisting.insert(Array(choice.name.utf8)) }
    }

    /// Chooses a name for `name` and gives it out (see ``choose(for:fitted:)``).
    package mutating func claim(_ name: String) -> String {
        let choice = choose(for: name)
        take(choice)
        return choice.name
    }

    /// Gives `name` back: something that had it (a renamed table) has another now.
    package mutating func release(_ name: String) {
        taken.remove(compared(name))
        takenExisting.remove(Array(name.utf8))
    }

    /// `name` as SQLite compares identifiers: its UTF-8 bytes with the ASCII letters
    /// folded to lower case, and nothing else (`ID` and `id` are one name; `É` and `é`,
    /// or "Á" precomposed and decomposed, are two).
    package static func foldingASCIICase(_ name: String) -> [UInt8] {
        name.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
    }

    private func compared(_ name: String) -> [UInt8] {
        switch comparison {
        case .asciiCaseInsensitive: Self.foldingASCIICase(name)
        case .bytes: Array(name.utf8)
        }
    }
}
