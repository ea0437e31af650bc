// swift-format-ignore-file
// (The Swift blocks of the documentation are checked to stand here as written.)
import Foundation
import IngestCore
import IngestParsers
import IngestFiles
import IngestPOSIX
import IngestTestSupport
import Testing

// The code of IngestFiles' DocC catalog (Sources/IngestFiles/IngestFiles.docc),
// compiled and run — the loading code too, with swift-corelibs-foundation's decoders
// and NSKeyedUnarchiver — and a check that every Swift block of the articles is here.

struct WritingFilesArticle {
    func exportFolks(from path: String, to plist: String) throws {
        let output = FileOutput(path: plist, format: .propertyList(.binary), replace: true)
        try Importer().run([InputFile(path: path)], into: output)
    }

    func export(_ input: String, to path: String, as format: FileOutput.Format) throws {
        let output = FileOutput(path: path, format: format, replace: true)
        try Importer().run([InputFile(path: input)], into: output)
    }

    struct PersonRecord: Decodable, Equatable {
        let firstName: String
        let lastName: String
    }

    func loadPeople(fromPropertyList url: URL) throws -> [PersonRecord] {
        try PropertyListDecoder().decode([PersonRecord].self, from: Data(contentsOf: url))
    }

    final class Person: NSObject, NSSecureCoding {
        static var supportsSecureCoding: Bool { true }
        let firstName: String
        let lastName: String

        init?(coder: NSCoder) {
            guard let first = coder.decodeObject(of: NSString.self, forKey: "firstName"),
                  let last = coder.decodeObject(of: NSString.self, forKey: "lastName") else { return nil }
            firstName = first as String
            lastName = last as String
        }

        func encode(with coder: NSCoder) {
            coder.encode(firstName, forKey: "firstName")
            coder.encode(lastName, forKey: "lastName")
        }
    }

    func loadPeople(fromArchive url: URL) throws -> [Person] {
        NSKeyedUnarchiver.setClass(Person.self, forClassName: "Person")
        let people = try NSKeyedUnarchiver.unarchivedObject(ofClasses: [NSArray.self, Person.self], from: Data(contentsOf: url))
        return people as? [Person] ?? []
    }

    func loadPeople(fromJSON url: URL) throws -> [PersonRecord] {
        try JSONDecoder().decode([PersonRecord].self, from: Data(contentsOf: url))
    }

    func loadPeople(fromJSONLines url: URL) throws -> [PersonRecord] {
        let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n")
        return try lines.map { try JSONDecoder().decode(PersonRecord.self, from: Data($0.utf8)) }
    }
}

extension WritingFilesArticle {
    @Suite("WritingFiles.md") struct Tests {
        let article = WritingFilesArticle()
        let seedPeople = [PersonRecord(firstName: "Matt", lastName: "Neuburg"),
                          PersonRecord(firstName: "Snidely", lastName: "Whiplash"),
                          PersonRecord(firstName: "Dudley", lastName: "Doright")]

        @Test func everySwiftBlockOfTheCatalogIsCompiledHere() throws {
            for (article, count) in [("WritingFiles.md", 4), ("IngestFiles.md", 1)] {
                let path = "Sources/IngestFiles/IngestFiles.docc/\(article)"
                #expect(try swiftCodeBlocks(inArticle: path).count == count)
                for block in try codeBlocks(ofArticle: path, missingFrom: #filePath) {
                    Issue.record("a Swift block of \(path) is not compiled here:\n\(block)")
                }
            }
        }

        func contents(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

        @Test func theLandingPagesExportIsABinaryPlistOfTheSeedsPeople() throws {
            let directory = try TemporaryDirectory()
            let path = directory.path("folks.plist")
            try article.exportFolks(from: folksURL.path, to: path)
            #expect(try contents(path).starts(with: Array("bplist00".utf8)))
            #expect(try article.loadPeople(fromPropertyList: URL(fileURLWithPath: path)) == seedPeople)
        }

        @Test(arguments: [PlistFormat.xml, .binary])
        func aPropertyListLoadsInOneCall(format: PlistFormat) throws {
            let directory = try TemporaryDirectory()
            let path = directory.path("folks.plist")
            try article.export(folksURL.path, to: path, as: .propertyList(format))
            #expect(try contents(path).starts(with: Array((format == .xml ? "<?xml" : "bplist00").utf8)))
            #expect(try article.loadPeople(fromPropertyList: URL(fileURLWithPath: path)) == seedPeople)
        }

        @Test(arguments: [PlistFormat.xml, .binary])
        func anArchiveUnarchivesInOneCallAsPersonObjects(format: PlistFormat) throws {
            let directory = try TemporaryDirectory()
            let path = directory.path("folks.archive")
            try article.export(folksURL.path, to: path, as: .keyedArchive(format))
            let people = try article.loadPeople(fromArchive: URL(fileURLWithPath: path))
            #expect(people.map(\.firstName) == ["Matt", "Snidely", "Dudley"])
            #expect(people.map(\.lastName) == ["Neuburg", "Whiplash", "Doright"])
        }

        @Test func jsonAndJSONLinesLoadAsTheArticleShows() throws {
            let directory = try TemporaryDirectory()
            try article.export(folksURL.path, to: directory.path("folks.json"), as: .json)
            try article.export(folksURL.path, to: directory.path("folks.ndjson"), as: .jsonLines)
            #expect(try article.loadPeople(fromJSON: directory.url.appendingPathComponent("folks.json")) == seedPeople)
            #expect(try article.loadPeople(fromJSONLines: directory.url.appendingPathComponent("folks.ndjson")) == seedPeople)
            #expect(String(decoding: try contents(directory.path("folks.ndjson")), as: UTF8.self).split(separator: "\n").count == 3)
        }

        @Test func anExistingFileIsRefusedWithoutReplace() throws {
            let directory = try TemporaryDirectory()
            let path = directory.path("folks.plist")
            try article.export(folksURL.path, to: path, as: .propertyList(.xml))
            let before = try contents(path)
            let error = try #require(throws: IngestError.self) {
                try Importer().run([InputFile(path: folksURL.path)], into: FileOutput(path: path, format: .propertyList(.binary)))
            }
            #expect(error.kind == .output)
            #expect(try contents(path) == before)
        }

        @Test(arguments: [PlistFormat.xml, .binary])
        func valuesAreTypedAsTheTableSaysAndTablesKeyTheRoot(format: PlistFormat) throws {
            let directory = try TemporaryDirectory()
            let input = directory.path("mixed.json")
            try Data(#"""
                {"people": [{"name": "Matt", "born": "1961-04-05", "age": 64, "height": 1.85, "zip": "007",
                             "ok": true, "gone": null, "tags": ["a", "b"], "big": 18446744073709551616, "odd": "a\u0001b"}],
                 "pets": [{"name": "Rex"}]}
                """#.utf8).write(to: URL(fileURLWithPath: input))
            let path = directory.path("mixed.plist")
            try article.export(input, to: path, as: .propertyList(format))
            let root = try #require(try PropertyListSerialization.propertyList(from: contents(path), format: nil) as? [String: Any])
            #expect(Set(root.keys) == ["people", "pets"])
            let person = try #require((root["people"] as? [[String: Any]])?.first)
            #expect(person["born"] as? Date == Date(timeIntervalSince1970: -275_875_200))
            #expect(person["age"] as? Int == 64)
            #expect(person["height"] as? Double == 1.85)
            #expect(person["zip"] as? String == "007")
            #expect(person["ok"] as? Bool == true)
            #expect(person["gone"] == nil)
            #expect(person["tags"] as? [String] == ["a", "b"])
            #expect(person["big"] as? Double == 18446744073709551616)
            // XML cannot carry U+0001: written as U+FFFD; binary keeps it.
            #expect(person["odd"] as? String == (format == .xml ? "a\u{FFFD}b" : "a\u{1}b"))
            #expect((root["pets"] as? [[String: String]]) == [["name": "Rex"]])
        }

        @Test func classNamesAreTheTableSingularisedAndCapitalised() {
            #expect(["people", "categories", "boxes", "posts", "item", "dc:entries"].map(ArchiveClassName.forTable)
                    == ["Person", "Category", "Box", "Post", "Item", "Entry"])
        }
    }
}

// MARK: - IngestPOSIX.md

/// IngestPOSIX's catalog: its one block, a signal handler, compiled here but never
/// installed (the tests' process keeps its signals).
enum IngestPOSIXCatalog {
    static func installSignalHandler() {
        signal(SIGINT) { number in
            TemporaryFiles.removeAll()
            signal(number, SIG_DFL)
            raise(number)
        }
    }

    @Suite("IngestPOSIX.md") struct Tests {
        @Test func everySwiftBlockOfTheCatalogIsCompiledHere() throws {
            let path = "Sources/IngestPOSIX/IngestPOSIX.docc/IngestPOSIX.md"
            #expect(try swiftCodeBlocks(inArticle: path).count == 1)
            for block in try codeBlocks(ofArticle: path, missingFrom: #filePath) {
                Issue.record("a Swift block of \(path) is not compiled here:\n\(block)")
            }
        }
    }
}
