import Testing
@testable import IngestCore

/// `FieldColumns`: the column each field of a table goes to, as the SQLite and
/// PostgreSQL outputs both name them.
@Suite struct FieldColumnsTests {
    let names = NameTable()

    /// Resolves `field` as an output does: its column, else a new one if the table may gain it.
    func column(_ field: String, in columns: inout FieldColumns, spelled: [String]? = nil) -> (Int, String)? {
        let name = names.intern(field)
        if let index = columns.column(for: name) { return (index, "found") }
        switch columns.resolve(name, spelled: spelled ?? [field]) {
        case .column(let index): return (index, "existing")
        case .new(let choice):
            guard columns.addsColumns else { return nil }
            return (columns.add(choice, for: name), choice.name)
        }
    }

    @Test func newFieldsGetColumnsNamedApartWithoutCase() throws {
        var columns = FieldColumns(existing: nil, preexisting: false, addsColumns: true)
        #expect(column("id", in: &columns)! == (0, "id"))
        #expect(column("ID", in: &columns)! == (1, "ID_2"))
        // A field named like a suffixed column (without case) gets a suffix of its own.
        #expect(column("id_2", in: &columns)! == (2, "id_2_2"))
        #expect(column("id", in: &columns)! == (0, "found"))
        #expect(columns.count == 3)
        #expect(columns.added.isEmpty)
        #expect(columns.index(named: "ID_2") == 1)
        #expect(columns.index(named: "id_2") == nil)
    }

    @Test func anExistingColumnIsAFieldsOnlyWhenSpelledExactly() throws {
        var columns = FieldColumns(existing: ["ID", "name"], preexisting: true, addsColumns: true)
        #expect(column("name", in: &columns)! == (1, "existing"))
        // `id` is not `ID`: it gets the column an earlier run would have given it.
        #expect(column("id", in: &columns)! == (2, "id_2"))
        #expect(column("ID", in: &columns)! == (0, "existing"))
        #expect(columns.added == ["id_2"])
    }

    @Test func aLaterSpellingIsTriedForAnExistingColumnAndNamesANewOne() throws {
        var columns = FieldColumns(existing: ["title"], preexisting: true, addsColumns: true)
        #expect(column("Title", in: &columns, spelled: ["Title", "title"])! == (0, "existing"))
        // Neither spelling exists: the new column takes the last one's name.
        #expect(column("Body", in: &columns, spelled: ["Body", "body"])! == (1, "body"))
        #expect(columns.added == ["body"])
    }

    @Test func aTableThatMayNotGainColumnsRefusesANewField() throws {
        var columns = FieldColumns(existing: ["a"], preexisting: true, addsColumns: false)
        #expect(column("a", in: &columns)! == (0, "existing"))
        #expect(column("b", in: &columns) == nil)
        #expect(columns.count == 1)
        let error = FieldColumns.missingColumnError(table: "t", field: "b", at: nil)
        #expect(error.kind == .data)
        #expect(error.reason == .missingColumn(table: "t", field: "b"))
    }

    @Test func thePlaceholderColumnIsNamedApartToo() throws {
        var columns = FieldColumns(existing: nil, preexisting: false, addsColumns: true)
        #expect(column("_", in: &columns)! == (0, "_"))
        #expect(columns.addPlaceholder() == "__2")
        #expect(columns.count == 2)
    }

    @Test func namesDifferingBeyondASCIICaseAreTwoColumns() throws {
        var columns = FieldColumns(existing: nil, preexisting: false, addsColumns: true)
        #expect(column("É", in: &columns)! == (0, "É"))
        #expect(column("é", in: &columns)! == (1, "é"))
        #expect(column("e\u{301}", in: &columns)! == (2, "e\u{301}"))
    }
}
