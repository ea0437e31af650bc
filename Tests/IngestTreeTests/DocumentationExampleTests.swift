// swift-format-ignore-file
// (The Swift blocks of the documentation are checked to stand here as written.)
import Foundation
import IngestCore
import IngestParsers
import IngestTestSupport
import IngestTree
import Testing

// The code of IngestTree's DocC catalog (Sources/IngestTree/IngestTree.docc), compiled
// and run, with a check that every Swift block of it is here.

struct IngestTreeLandingPage {
    func lastNames(in path: String) throws -> [String] {
        let tree = try XMLTree(contentsOf: path)
        return try tree.select("//person[firstName != 'Snidely']/lastName").map(\.text)
    }

    func isValidFolks(_ document: String, schema: String) throws -> Bool {
        try ValidationSchema(contentsOf: schema).validate(InputFile(path: document)).isValid
    }
}

extension IngestTreeLandingPage {
    @Suite("IngestTree.md") struct Tests {
        let page = IngestTreeLandingPage()
        let schema = packageRoot.appendingPathComponent("Schemas/folks.xsd").path

        @Test func everySwiftBlockOfTheCatalogIsCompiledHere() throws {
            let path = "Sources/IngestTree/IngestTree.docc/IngestTree.md"
            #expect(try swiftCodeBlocks(inArticle: path).count == 2)
            for block in try codeBlocks(ofArticle: path, missingFrom: #filePath) {
                Issue.record("a Swift block of \(path) is not compiled here:\n\(block)")
            }
        }

        @Test func thePredicateSelectsEveryoneButSnidely() throws {
            #expect(try page.lastNames(in: folksURL.path) == ["Neuburg", "Doright"])
        }

        @Test func folksIsValidAndAPersonWithoutANameIsNot() throws {
            #expect(try page.isValidFolks(folksURL.path, schema: schema))
            let directory = try TemporaryDirectory()
            let bad = directory.path("bad.xml")
            try Data("<people><person><firstName>Matt</firstName></person></people>".utf8).write(to: URL(fileURLWithPath: bad))
            #expect(try !page.isValidFolks(bad, schema: schema))
        }
    }
}
