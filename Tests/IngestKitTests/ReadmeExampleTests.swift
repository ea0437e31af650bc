// swift-format-ignore-file
// (The Swift blocks of the documentation are checked to stand here as written.)
import Foundation
import GRDB
import IngestKit
import IngestTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// The Swift samples of the guides (Documentation/Library.md, and one each in
// Documentation/Feeds.md and Documentation/Outputs.md; they were README.md's until it
// became a front page), compiled here as they are written (in this struct, so that
// their names stay out of the test module's), run by the tests below, with a check
// that every Swift block of README.md and of the guides is here.

struct ReadmeSamples {
    /// Documentation/Feeds.md: a feed's items printed as they are read.
    func printFeedItems() throws {
        let url = URL(fileURLWithPath: "Samples/podcast.rss")   // import IngestFeeds (or IngestKit)
        let feed = try FeedReader().read(contentsOf: url) { item, feed in
            let date = item.publishedParsed?.rfc3339 ?? "undated"
            print("\(date)  \(item.title?.plainText ?? "(untitled)")")
            for enclosure in item.enclosures {
                print("    \(enclosure.type ?? "?")  \(enclosure.url ?? "")")
            }
        }
        print("\(feed.title?.plainText ?? "?") (\(feed.format)), well-formed: \(feed.wellFormed)")
        // Or all at once: try Feed(contentsOf: url).items, and .gofeedJSON(prettyPrinted: true)
    }

    struct PersonRecord: Decodable, Equatable { let firstName: String; let lastName: String }

    func loadPeople(plist url: URL) throws -> [PersonRecord] {   // --to plist, XML or binary
        try PropertyListDecoder().decode([PersonRecord].self, from: Data(contentsOf: url))
    }

    func loadPeople(json url: URL) throws -> [PersonRecord] {    // --to json
        try JSONDecoder().decode([PersonRecord].self, from: Data(contentsOf: url))
    }

    struct Person: Equatable { var firstName = "", lastName = "" }

    final class PeopleHandler: ElementHandler {
        var people: [Person] = []
        func handler(forChild element: ElementStart) -> (any ElementHandler)? {
            ["person", "item"].contains(element.name.local) ? PersonHandler() : nil   // nil skips the child
        }
        func didFinish(child: any ElementHandler, element: ElementEnd) {
            people.append((child as! PersonHandler).person)
        }
    }

    final class PersonHandler: ElementHandler {
        var person = Person()
        func handler(forChild element: ElementStart) -> (any ElementHandler)? { TextHandler() }
        func didFinish(child: any ElementHandler, element: ElementEnd) {
            switch element.name.local {
            case "firstName": person.firstName = element.text.string
            case "lastName": person.lastName = element.text.string
            default: break
            }
        }
    }

    func readPeople(from path: String) throws -> [Person] {
        let people = PeopleHandler()
        try ExpatParser().parse(InputFile(path: path), into: HandlerStack(root: people))
        return people.people   // Matt Neuburg, Snidely Whiplash, Dudley Doright
    }

    final class FolksHandler: ElementHandler {        // the top-level object
        let people = PeopleHandler()                   // its "people" member
        func handler(forChild element: ElementStart) -> (any ElementHandler)? {
            element.name.local == "people" ? people : nil
        }
    }

    func readPeople(fromJSON path: String) throws -> [Person] {
        let folks = FolksHandler()
        try JSONParser(documentName: "folks").parse(InputFile(path: path), into: HandlerStack(root: folks))
        return folks.people.people   // the same three people
    }

    func readPeople(fromSocket socket: Int32) throws -> [Person] {
        let people = PeopleHandler()
        let parser = ExpatPushParser(receiver: HandlerStack(root: people), displayName: "socket")
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = read(socket, &buffer, buffer.count)
            if count == 0 { break }                       // the peer closed: the document is whole
            guard count > 0 else { throw IngestError(.io, "cannot read the socket", file: "socket") }
            try parser.feed(buffer[..<count])             // a piece may end anywhere
        }
        try parser.finish()                               // an unclosed document fails here
        return people.people
    }

    func importItems(of feed: String, into database: String, json: String) throws -> ImportSummary {
        let importer = Importer(options: .init(recordPath: try RecordPath("rss/channel/item")))
        try importer.run([InputFile(path: feed).decompressed()],
                         into: FileOutput(path: json, format: .json, replace: true))
        return try importer.run([InputFile(path: feed).decompressed()],
                                into: SQLiteOutput(path: database, mode: .append)) { progress in
            print("\(progress.input): \(progress.bytesRead) bytes, \(progress.records) records")
        }
    }

    struct Visit: Encodable { let id: Int; let page: String }

    func save(_ visits: [Visit], to database: String) throws {
        try SQLiteOutput(path: database, mode: .replace).writeAndCommit { sink in
            try writeRecords(visits, as: "visits", to: sink)
        }
    }

    struct Member: Decodable { let firstName: String; let lastName: String }

    func lastNames(in url: URL) async throws -> [String] {
        var names: [String] = []
        for try await member in records(Member.self, at: "people/person", from: url,
                                        onFailure: .skip { error in print("skipped \(error)") }) {
            names.append(member.lastName)   // Neuburg, Whiplash, Doright
        }
        return names
    }

    func dorights(in path: String) throws -> [[String]] {
        let tree = try XMLTree(contentsOf: path)                     // the whole document
        return try tree.select("//person[lastName='Doright']").map { $0.children.map(\.text) }
    }

    func importDorights(from path: String, into database: String) throws -> ImportSummary {
        let reader = XPathReader(selection: XPathSelection("//person[lastName='Doright']"))
        return try reader.run([InputFile(path: path)], into: SQLiteOutput(path: database, mode: .replace))
    }

    func isValid(_ path: String, against schema: String) throws -> Bool {
        try ValidationSchema(contentsOf: schema).validate(InputFile(path: path)).isValid
    }

    // Documentation/Errors.md: a failure told apart by its reason's code.
    /// Appends `path` to `database`; false when another run held it for a second.
    func appendUnlessBusy(_ path: String, to database: String) throws -> Bool {
        let output = SQLiteOutput(path: database, mode: .append)
        output.lockTimeout = 1
        do {
            try Importer().run([InputFile(path: path)], into: output)
            return true
        } catch let error as IngestError where error.reason?.code == .outputBusy {
            return false  // try again later; any other error goes up
        }
    }
}

extension ReadmeSamples {
    @Suite("The Swift samples of README.md and Documentation/") struct Tests {
        let samples = ReadmeSamples()
        let seedPeople = [ReadmeSamples.Person(firstName: "Matt", lastName: "Neuburg"),
                          ReadmeSamples.Person(firstName: "Snidely", lastName: "Whiplash"),
                          ReadmeSamples.Person(firstName: "Dudley", lastName: "Doright")]

        func sample(_ name: String) -> String { packageRoot.appendingPathComponent(name).path }

        /// The pages with Swift blocks and how many each has; README.md and every other
        /// guide in Documentation/ have none.
        static let swiftBlocks = ["Documentation/Library.md": 7, "Documentation/Feeds.md": 1,
                                  "Documentation/Outputs.md": 1, "Documentation/Errors.md": 1]

        @Test func everySwiftBlockOfTheReadmeAndTheGuidesIsCompiledHere() throws {
            let guides = try FileManager.default
                .contentsOfDirectory(atPath: packageRoot.appendingPathComponent("Documentation").path)
                .filter { $0.hasSuffix(".md") }.map { "Documentation/\($0)" }.sorted()
            #expect(Set(Self.swiftBlocks.keys).isSubset(of: guides), "guides: \(guides)")
            #expect(Self.swiftBlocks.values.reduce(0, +) == 10)
            for article in ["README.md"] + guides {
                #expect(try swiftCodeBlocks(inArticle: article).count == Self.swiftBlocks[article, default: 0],
                        "the Swift blocks of \(article)")
                for block in try codeBlocks(ofArticle: article, missingFrom: #filePath) {
                    Issue.record("a Swift block of \(article) is not compiled here:\n\(block)")
                }
            }
        }

        @Test func anAppendToADatabaseAnotherRunHoldsIsToldApartByItsReasonCode() throws {
            let directory = try TemporaryDirectory()
            let database = directory.path("folks.db")
            try Importer().run([InputFile(path: sample("Samples/folks.xml"))], into: SQLiteOutput(path: database, mode: .create))
            let holder = SQLiteOutput(path: database, mode: .replace)
            try holder.open()
            #expect(try samples.appendUnlessBusy(sample("Samples/folks.xml"), to: database) == false)
            holder.discard()
            #expect(try samples.appendUnlessBusy(sample("Samples/folks.xml"), to: database) == true)
            let rows = try DatabaseQueue(path: database).read { try Int.fetchOne($0, sql: "SELECT count(*) FROM people") }
            #expect(rows == 6)
            let error = #expect(throws: IngestError.self) {
                try samples.appendUnlessBusy(sample("Samples/missing.xml"), to: database)
            }
            #expect(error?.kind == .input)
        }

        @Test func theHandlersReadTheSeedPeopleFromXMLAndFromJSON() throws {
            #expect(try samples.readPeople(from: sample("Samples/folks.xml")) == seedPeople)
            #expect(try samples.readPeople(fromJSON: sample("Samples/folks.json")) == seedPeople)
        }

        /// Writes `bytes` into one end of a socket pair, `pieceSize` bytes at a time from
        /// another thread, and reads the people from the other end.
        func readPeopleThroughASocket(_ bytes: [UInt8], pieceSize: Int) throws -> [ReadmeSamples.Person] {
            var ends: [Int32] = [0, 0]
            #if canImport(Glibc)
            let streamType = Int32(SOCK_STREAM.rawValue)
            #else
            let streamType = SOCK_STREAM
            #endif
            #expect(socketpair(AF_UNIX, streamType, 0, &ends) == 0)
            let writer = ends[1]
            let thread = Thread {
                var offset = 0
                while offset < bytes.count {
                    let count = min(pieceSize, bytes.count - offset)
                    let written = bytes[offset..<offset + count].withUnsafeBytes { write(writer, $0.baseAddress, count) }
                    if written <= 0 { break }
                    offset += written
                }
                close(writer)
            }
            thread.start()
            defer { close(ends[0]) }
            return try samples.readPeople(fromSocket: ends[0])
        }

        @Test(arguments: [1, 7, 4096])
        func aSocketFedInPiecesGivesTheSamePeople(pieceSize: Int) throws {
            let bytes = try [UInt8](Data(contentsOf: folksURL))
            #expect(try readPeopleThroughASocket(bytes, pieceSize: pieceSize) == seedPeople)
        }

        @Test func aSocketClosedMidDocumentFailsAtFinish() throws {
            let bytes = Array("<people><person><firstName>Matt</firstName>".utf8)
            #expect(throws: IngestError.self) { try readPeopleThroughASocket(bytes, pieceSize: 5) }
        }

        @Test func theFeedItemsGoToJSONAndToTheDatabaseAlike() throws {
            let directory = try TemporaryDirectory()
            let database = directory.path("items.db"), json = directory.path("items.json")
            let summary = try samples.importItems(of: sample("Samples/feed.rss"), into: database, json: json)
            #expect(summary.recordCount > 0)
            #expect(summary.tables.map(\.name) == ["item"])
            let items = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: json))) as? [Any]
            #expect(items?.count == summary.recordCount)
            let rows = try DatabaseQueue(path: database).read { try Int.fetchOne($0, sql: "SELECT count(*) FROM item") }
            #expect(rows == summary.recordCount)
        }

        @Test func encodableValuesBecomeRows() throws {
            let directory = try TemporaryDirectory()
            let database = directory.path("visits.db")
            try samples.save([.init(id: 1, page: "/"), .init(id: 2, page: "/née")], to: database)
            let pages = try DatabaseQueue(path: database).read { try String.fetchAll($0, sql: "SELECT page FROM visits ORDER BY id") }
            #expect(pages == ["/", "/née"])
        }

        @Test func decodableRecordsStreamAndSkipWhatDoesNotDecode() async throws {
            #expect(try await samples.lastNames(in: folksURL) == ["Neuburg", "Whiplash", "Doright"])
            let directory = try TemporaryDirectory()
            let partial = directory.url.appendingPathComponent("partial.xml")
            try Data("""
                <people><person><firstName>Matt</firstName><lastName>Neuburg</lastName></person>
                <person><firstName>Snidely</firstName></person>
                <person><firstName>Dudley</firstName><lastName>Doright</lastName></person></people>
                """.utf8).write(to: partial)
            #expect(try await samples.lastNames(in: partial) == ["Neuburg", "Doright"])
        }

        @Test func theTreeSelectsImportsAndValidates() throws {
            #expect(try samples.dorights(in: folksURL.path) == [["Dudley", "Doright"]])
            let directory = try TemporaryDirectory()
            let summary = try samples.importDorights(from: folksURL.path, into: directory.path("doright.db"))
            #expect(summary.recordCount == 1)
            #expect(summary.tables.map(\.name) == ["people"])
            #expect(try samples.isValid(folksURL.path, against: sample("Schemas/folks.xsd")))
            #expect(try !samples.isValid(sample("Tests/Fixtures/folks-invalid.xml"), against: sample("Schemas/folks.xsd")))
        }

        @Test(arguments: [FileOutput.Format.propertyList(.xml), .propertyList(.binary)])
        func aPropertyListLoadsInOneCall(format: FileOutput.Format) throws {
            let directory = try TemporaryDirectory()
            let path = directory.path("folks.plist")
            try Importer().run([InputFile(path: folksURL.path)], into: FileOutput(path: path, format: format, replace: true))
            let people = try samples.loadPeople(plist: URL(fileURLWithPath: path))
            #expect(people.map(\.lastName) == ["Neuburg", "Whiplash", "Doright"])
        }

        @Test func aJSONOutputLoadsInOneCall() throws {
            let directory = try TemporaryDirectory()
            let path = directory.path("folks.json")
            try Importer().run([InputFile(path: folksURL.path)], into: FileOutput(path: path, format: .json, replace: true))
            #expect(try samples.loadPeople(json: URL(fileURLWithPath: path)).map(\.firstName) == ["Matt", "Snidely", "Dudley"])
        }
    }
}
