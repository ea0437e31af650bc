// swift-format-ignore-file
// (The Swift blocks of the documentation are checked to stand here as written.)
import Foundation
import GRDB
import IngestCore
import IngestParsers
import IngestSQLite
import IngestTestSupport
import Testing

// The code of IngestSQLite's DocC catalog (Sources/IngestSQLite/IngestSQLite.docc),
// compiled and run: the article's functions are this namespace's methods, and a test
// checks that every Swift block of the articles appears here, line for line.

struct WritingADatabaseArticle {
    func importFolks(from path: String, into database: String) throws -> ImportSummary {
        let output = SQLiteOutput(path: database, mode: .replace)
        return try Importer().run([InputFile(path: path)], into: output)
    }

    func appendFolks(from path: String, to database: String) throws {
        let output = SQLiteOutput(path: database, mode: .append)
        try Importer().run([InputFile(path: path)], into: output)
    }

    func replaceKeepsTheOldDatabaseOnFailure(input: String, database: String) -> String? {
        do {
            try Importer().run([InputFile(path: input)], into: SQLiteOutput(path: database, mode: .replace))
            return nil
        } catch {
            return "\(error)"   // e.g. "broken.xml:3:5: mismatched tag"; the database is as it was
        }
    }

    struct Person: Encodable {
        let id: Int
        let firstName: String
        let lastName: String
    }

    func save(_ people: [Person], to database: String) throws {
        try SQLiteOutput(path: database, mode: .replace).writeAndCommit { sink in
            try writeRecords(people, as: "people", to: sink)
        }
    }

    func appendAddingColumns(from path: String, to database: String) throws -> [(table: String, columns: [String])] {
        let output = SQLiteOutput(path: database, mode: .append, altersExistingTables: true)
        try Importer().run([InputFile(path: path)], into: output)
        return output.columnsAddedToExistingTables
    }

    let peopleByID = TableDesign(tables: [
        TableDesign.Table(name: "people",
                          columns: [TableDesign.Column(name: "id", type: .integer, notNull: true),
                                    TableDesign.Column(name: "firstName", type: .text),
                                    TableDesign.Column(name: "lastName", type: .text)],
                          primaryKey: ["id"]),
    ], upsert: true)

    func upsert(_ people: [Person], into database: String) throws {
        try SQLiteOutput(path: database, mode: .append, design: peopleByID).writeAndCommit { sink in
            try writeRecords(people, as: "people", to: sink)
        }
    }
}

extension WritingADatabaseArticle {
    @Suite("WritingADatabase.md") struct Tests {
        let article = WritingADatabaseArticle()

        @Test func everySwiftBlockOfTheCatalogIsCompiledHere() throws {
            for (article, count) in [("WritingADatabase.md", 6), ("IngestSQLite.md", 1)] {
                let path = "Sources/IngestSQLite/IngestSQLite.docc/\(article)"
                #expect(try swiftCodeBlocks(inArticle: path).count == count)
                for block in try codeBlocks(ofArticle: path, missingFrom: #filePath) {
                    Issue.record("a Swift block of \(path) is not compiled here:\n\(block)")
                }
            }
        }

        func rows(_ database: String, _ sql: String) throws -> [[String]] {
            try DatabaseQueue(path: database).read { db in
                try Row.fetchAll(db, sql: sql).map { row in row.databaseValues.map { $0.isNull ? "NULL" : "\($0.storage.value!)" } }
            }
        }

        func write(_ text: String, to path: String) throws {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        }

        @Test func folksBecomeThePeopleTableTheArticleShows() throws {
            let directory = try TemporaryDirectory()
            let database = directory.path("folks.db")
            let summary = try article.importFolks(from: folksURL.path, into: database)
            #expect(summary.recordCount == 3)
            #expect(summary.tables.map(\.name) == ["people"])
            #expect(summary.tables.map(\.records) == [3])
            #expect(try rows(database, "SELECT * FROM people") == [["Matt", "Neuburg"], ["Snidely", "Whiplash"], ["Dudley", "Doright"]])
            #expect(try rows(database, "SELECT sql FROM sqlite_master WHERE name = 'people'")
                    == [[#"CREATE TABLE "people" ("firstName" TEXT, "lastName" TEXT)"#]])
        }

        @Test func createRefusesAnExistingDatabaseAndLeavesIt() throws {
            let directory = try TemporaryDirectory()
            let database = directory.path("folks.db")
            _ = try article.importFolks(from: folksURL.path, into: database)
            let before = try Data(contentsOf: URL(fileURLWithPath: database))
            let error = try #require(throws: IngestError.self) {
                try Importer().run([InputFile(path: folksURL.path)], into: SQLiteOutput(path: database, mode: .create))
            }
            #expect(error.kind == .output)
            #expect(error.reason == .outputExists(appendable: true))
            #expect(try Data(contentsOf: URL(fileURLWithPath: database)) == before)
        }

        @Test func appendAddsRowsToTheTableThatIsThere() throws {
            let directory = try TemporaryDirectory()
            let database = directory.path("folks.db")
            try article.appendFolks(from: folksURL.path, to: database)   // a missing file is built
            try article.appendFolks(from: folksURL.path, to: database)
            #expect(try rows(database, "SELECT count(*) FROM people") == [["6"]])
        }

        @Test func aFailedReplaceLeavesTheDatabaseByteForByteAndNoTemporaryFile() throws {
            let directory = try TemporaryDirectory()
            let database = directory.path("folks.db")
            _ = try article.importFolks(from: folksURL.path, into: database)
            let before = try Data(contentsOf: URL(fileURLWithPath: database))
            let broken = directory.path("broken.xml")
            try write("<people>\n  <person><firstName>Matt</firstName></person>\n  <person></people>\n", to: broken)
            let message = try #require(article.replaceKeepsTheOldDatabaseOnFailure(input: broken, database: database))
            #expect(message == "\(broken):3:13: mismatched tag")
            #expect(try Data(contentsOf: URL(fileURLWithPath: database)) == before)
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted() == ["broken.xml", "folks.db"])
        }

        @Test func aFailedAppendIsRolledBack() throws {
            let directory = try TemporaryDirectory()
            let database = directory.path("folks.db")
            _ = try article.importFolks(from: folksURL.path, into: database)
            let broken = directory.path("broken.xml")
            try write("<people><person><firstName>Zoë</firstName></person><person>", to: broken)
            #expect(throws: IngestError.self) { try article.appendFolks(from: broken, to: database) }
            #expect(try rows(database, "SELECT count(*) FROM people") == [["3"]])
        }

        @Test func savedValuesAreTypedRows() throws {
            let directory = try TemporaryDirectory()
            let database = directory.path("people.db")
            try article.save([Person(id: 1, firstName: "Matt", lastName: "Neuburg"),
                              Person(id: 2, firstName: "Zoë", lastName: "Ōtsuka")], to: database)
            #expect(try rows(database, "SELECT id, typeof(id), firstName, lastName FROM people")
                    == [["1", "integer", "Matt", "Neuburg"], ["2", "integer", "Zoë", "Ōtsuka"]])
        }

        @Test func columnsFollowFieldsWidenWithoutLossAndTakeNamesAsData() throws {
            let directory = try TemporaryDirectory()
            let input = directory.path("t.json")
            try write(#"""
                [{"n": 1, "id": 1},
                 {"n": 2.5, "ID": "x", "flag": true, "nested": {"a": [1]}},
                 {"n": "007", "x\"); DROP TABLE t; --": null}]
                """#, to: input)
            let database = directory.path("t.db")
            _ = try article.importFolks(from: input, into: database)
            #expect(try rows(database, "SELECT name, type FROM pragma_table_info('t')")
                    == [["n", "TEXT"], ["id", "INTEGER"], ["ID_2", "TEXT"], ["flag", "INTEGER"], ["nested", "TEXT"],
                        [#"x"); DROP TABLE t; --"#, ""]])
            // 1 was stored as an integer, became the real 1.0 when 2.5 came, and is the
            // text 1.0 in the TEXT column "007" made of it: the same number throughout.
            #expect(try rows(database, "SELECT n, typeof(n), flag, nested FROM t")
                    == [["1.0", "text", "NULL", "NULL"], ["2.5", "text", "1", #"{"a":[1]}"#], ["007", "text", "NULL", "NULL"]])
        }

        @Test func anExistingTableGainsAColumnOnlyWhenAsked() throws {
            let directory = try TemporaryDirectory()
            let database = directory.path("folks.db")
            _ = try article.importFolks(from: folksURL.path, into: database)
            let more = directory.path("more.xml")
            try write("<people><person><firstName>Nell</firstName><age>30</age></person></people>", to: more)

            let error = try #require(throws: IngestError.self) { try article.appendFolks(from: more, to: database) }
            #expect(error.kind == .data)
            #expect(error.reason == .missingColumn(table: "people", field: "age"))
            #expect(try rows(database, "SELECT count(*) FROM people") == [["3"]])

            let added = try article.appendAddingColumns(from: more, to: database)
            #expect(added.map(\.table) == ["people"])
            #expect(added.map(\.columns) == [["age"]])
            #expect(try rows(database, "SELECT firstName, age FROM people WHERE age IS NOT NULL") == [["Nell", "30"]])
        }

        @Test func anUpsertLeavesOneRowPerKeyWithTheLatestValues() throws {
            let directory = try TemporaryDirectory()
            let database = directory.path("people.db")
            try article.upsert([Person(id: 1, firstName: "Matt", lastName: "Neuburg"),
                                Person(id: 2, firstName: "Dudley", lastName: "Doright")], into: database)
            try article.upsert([Person(id: 1, firstName: "Matt", lastName: "Neuburg-Smith")], into: database)
            #expect(try rows(database, "SELECT id, firstName, lastName FROM people ORDER BY id")
                    == [["1", "Matt", "Neuburg-Smith"], ["2", "Dudley", "Doright"]])
            #expect(try rows(database, "SELECT sql FROM sqlite_master WHERE name = 'people'")
                    == [[#"CREATE TABLE "people" ("id" INTEGER NOT NULL, "firstName" TEXT, "lastName" TEXT, PRIMARY KEY ("id"))"#]])
        }
    }
}
