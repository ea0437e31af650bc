import Foundation
import GRDB
import IngestCore
import IngestSQLite
import IngestTestSupport
import Testing

/// An upsert into a child table without a primary key of its own: a row already
/// stored is not stored again, also when one of its columns is NULL.
struct UpsertChildRowsTests {
    static let design = TableDesign(
        tables: [
            .init(
                name: "people",
                columns: [.init(name: "id", type: .integer, notNull: true), .init(name: "name", type: .text)],
                primaryKey: ["id"], childTables: ["tags"]),
            .init(
                name: "tags",
                columns: [
                    .init(name: "tag", type: .text, notNull: true), .init(name: "note", type: .text),
                    .init(name: "weight", type: .real)
                ],
                foreignKey: .init(column: "person_id", parentTable: "people", parentColumn: "id", type: .integer))
        ], upsert: true)

    static func records(_ names: NameTable, tags: [(String, String?, String?)]) -> [IngestRecord] {
        func value(_ text: String?) -> FieldValue {
            guard var text else { return .null }
            return text.withUTF8 { FieldValue.inferring($0) }
        }
        let position = SourcePosition.start
        return [
            IngestRecord(
                table: "people",
                fields: [
                    .init(name: names.intern("id"), value: value("1")),
                    .init(name: names.intern("name"), value: .text("one"))
                ], position: position)
        ]
            + tags.map { tag, note, weight in
                IngestRecord(
                    table: "tags",
                    fields: [
                        .init(name: names.intern("person_id"), value: value("1")),
                        .init(name: names.intern("tag"), value: .text(tag)),
                        .init(name: names.intern("note"), value: note.map(FieldValue.text) ?? .null),
                        .init(name: names.intern("weight"), value: value(weight))
                    ], position: position)
            }
    }

    @Test func aChildRowWithNullsIsStoredOnceAcrossRuns() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("tags.db")
        let runs: [[(String, String?, String?)]] = [
            [("a", nil, nil), ("b", "note", nil), ("c", nil, "0.5")],
            [
                ("a", nil, nil), ("b", "note", nil), ("c", nil, "0.5"), ("a", "", nil), ("a", nil, "0"),
                ("d", nil, nil), ("d", nil, nil)
            ]
        ]
        for tags in runs {
            try SQLiteOutput(path: path, mode: .append, design: Self.design).writeAndCommit { sink in
                for record in Self.records(NameTable(), tags: tags) { try sink.write(record) }
            }
        }
        let rows = try DatabaseQueue(path: path).read { db in
            try Row.fetchAll(db, sql: "SELECT tag, note, weight FROM tags ORDER BY tag, note, weight").map {
                [$0[0] as String?, $0[1] as String?, ($0[2] as Double?).map { "\($0)" }]
            }
        }
        // NULL, '' and 0 are three different values; each row once.
        #expect(
            rows == [
                ["a", nil, nil], ["a", nil, "0.0"], ["a", "", nil], ["b", "note", nil], ["c", nil, "0.5"],
                ["d", nil, nil]
            ])
    }
}
