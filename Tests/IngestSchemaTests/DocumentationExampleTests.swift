// swift-format-ignore-file
// (The Swift blocks of the documentation are checked to stand here as written.)
import Foundation
import GRDB
import IngestCore
import IngestParsers
import IngestSchema
import IngestSQLite
import IngestTestSupport
import Testing

// The code of IngestSchema's DocC catalog (Sources/IngestSchema/IngestSchema.docc),
// compiled and run, with a check that every Swift block of it is here.

struct IngestSchemaLandingPage {
    func importWithSchema(_ input: String, schema path: String, into database: String) throws {
        let schema = try CompiledSchema.load(path: path, output: .database)
        let importer = Importer(options: .init(mapping: SchemaRecordMapping(schema: schema)))
        let output = SQLiteOutput(path: database, mode: .replace, design: try schema.tableDesign(upsert: false))
        try importer.run([InputFile(path: input)], into: output)
    }

    func inferredSchema(of input: String) throws -> String {
        let inference = SchemaInference(sampleSize: 100)
        try inference.add(InputFile(path: input))
        return inference.schema.jsonText
    }
}

extension IngestSchemaLandingPage {
    @Suite("IngestSchema.md") struct Tests {
        let page = IngestSchemaLandingPage()

        @Test func everySwiftBlockOfTheCatalogIsCompiledHere() throws {
            let path = "Sources/IngestSchema/IngestSchema.docc/IngestSchema.md"
            #expect(try swiftCodeBlocks(inArticle: path).count == 2)
            for block in try codeBlocks(ofArticle: path, missingFrom: #filePath) {
                Issue.record("a Swift block of \(path) is not compiled here:\n\(block)")
            }
        }

        @Test func theFolksSchemaDeclaresRequiredTextColumns() throws {
            let directory = try TemporaryDirectory()
            let database = directory.path("folks.db")
            try page.importWithSchema(folksURL.path, schema: packageRoot.appendingPathComponent("Schemas/folks.json").path,
                                      into: database)
            try DatabaseQueue(path: database).read { (db: Database) throws in
                #expect(try String.fetchAll(db, sql: "SELECT lastName FROM people") == ["Neuburg", "Whiplash", "Doright"])
                #expect(try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'people'")
                        == #"CREATE TABLE "people" ("firstName" TEXT NOT NULL, "lastName" TEXT NOT NULL)"#)
            }
        }

        @Test func theInferredSchemaOfFolksIsTheAutomaticMappingWrittenOut() throws {
            let text = try page.inferredSchema(of: folksURL.path)
            let schema = try JSONDecoder().decode(MappingSchema.self, from: Data(text.utf8))
            #expect(schema.entities.map(\.records) == ["people/person"])
            #expect(schema.entities.first?.fields.map(\.name) == ["firstName", "lastName"])
        }
    }
}
