// swift-format-ignore-file
// (The Swift blocks of the documentation are checked to stand here as written.)
import Foundation
import IngestKit
import IngestTestSupport
import Testing

// The code of the IngestKit and IngestCompression DocC landing pages, compiled and run
// here, where every module is imported, with a check that every Swift block of them
// is here.

struct UmbrellaLandingPages {
    func importPossiblyCompressed(_ path: String, into output: any Output) throws -> ImportSummary {
        let input = try InputFile(path: path).decompressed()
        return try Importer().run([input], into: output)
    }

    func importFolks(_ input: String, database: String, plist: String) throws {
        let source = try InputFile(path: input).decompressed()
        try Importer().run([source], into: SQLiteOutput(path: database, mode: .replace))
        try Importer().run([InputFile(path: input)], into: FileOutput(path: plist, format: .propertyList(.xml), replace: true))
    }
}

/// The `gzip` found on the usual paths, if any.
let gzipTool = ["/usr/bin/gzip", "/bin/gzip"].first { FileManager.default.isExecutableFile(atPath: $0) }

extension UmbrellaLandingPages {
    @Suite("IngestKit.md, IngestCompression.md") struct Tests {
        let pages = UmbrellaLandingPages()

        @Test func everySwiftBlockOfTheLandingPagesIsCompiledHere() throws {
            for path in ["Sources/IngestKit/IngestKit.docc/IngestKit.md",
                         "Sources/IngestCompression/IngestCompression.docc/IngestCompression.md"] {
                #expect(try swiftCodeBlocks(inArticle: path).count == 1)
                for block in try codeBlocks(ofArticle: path, missingFrom: #filePath) {
                    Issue.record("a Swift block of \(path) is not compiled here:\n\(block)")
                }
            }
        }

        @Test(.enabled(if: gzipTool != nil, "needs gzip to write the compressed input"))
        func aGzippedAndAPlainInputGiveTheSameRecords() throws {
            let directory = try TemporaryDirectory()
            let plain = directory.path("folks.xml")
            try FileManager.default.copyItem(atPath: folksURL.path, toPath: plain)
            let gzip = Process()
            gzip.executableURL = URL(fileURLWithPath: gzipTool!)
            gzip.arguments = ["-k", plain]
            try gzip.run()
            gzip.waitUntilExit()
            #expect(gzip.terminationStatus == 0)
            let fromPlain = try pages.importPossiblyCompressed(plain, into: DiscardingOutput())
            let fromGzip = try pages.importPossiblyCompressed(plain + ".gz", into: DiscardingOutput())
            #expect(fromPlain.recordCount == 3)
            #expect(fromGzip.recordCount == 3)
            #expect(fromGzip.tables.map(\.name) == ["people"])
            #expect(fromGzip.inputs.map(\.name) == [plain + ".gz"])
        }

        @Test func oneImportWritesADatabaseAndAPropertyList() throws {
            let directory = try TemporaryDirectory()
            try pages.importFolks(folksURL.path, database: directory.path("folks.db"), plist: directory.path("folks.plist"))
            let plist = try PropertyListSerialization.propertyList(
                from: Data(contentsOf: directory.url.appendingPathComponent("folks.plist")), format: nil) as? [[String: String]]
            #expect(plist?.map { $0["lastName"] } == ["Neuburg", "Whiplash", "Doright"])
            #expect(FileManager.default.fileExists(atPath: directory.path("folks.db")))
        }
    }
}
