// swift-format-ignore-file
// (The Swift blocks of the documentation are checked to stand here as written.)
import IngestCore
import IngestParsers
import IngestTestSupport
import IngestTesting
import Testing

// The code of IngestCore's DocC articles (Sources/IngestCore/IngestCore.docc), compiled
// and run. Each article's types live in a namespace of their own, so that its names
// (Person, PeopleParser, ...) do not meet the other tests'; the articles' functions are
// its methods. A test per article checks
// that every Swift block of the article appears in this file, line for line.

// MARK: - GettingStarted.md

struct GettingStartedArticle {
    struct Person: Equatable {
        var firstName = ""
        var lastName = ""

        /// Sets the property called `key`, as Neuburg's `setValue:forKey:` does.
        mutating func setValue(_ value: String, forKey key: String) {
            switch key {
            case "firstName": firstName = value
            case "lastName": lastName = value
            default: break
            }
        }
    }

    class ElementParser: ElementHandler {
        private(set) var name = ""
        private(set) var text = ""

        required init() {}

        func didStart(_ element: ElementStart) throws {
            name = element.name.qualified
        }

        func handler(forChild element: ElementStart) throws -> (any ElementHandler)? {
            nil
        }

        func didEnd(_ element: ElementEnd) throws {
            text = element.text.string
        }

        func didFinish(child: any ElementHandler, element: ElementEnd) throws {}
    }

    final class PersonParser: ElementParser {
        private(set) var person = Person()

        override func handler(forChild element: ElementStart) throws -> (any ElementHandler)? {
            ElementParser()
        }

        override func didFinish(child: any ElementHandler, element: ElementEnd) throws {
            guard let child = child as? ElementParser else { return }
            person.setValue(child.text, forKey: child.name)
        }
    }

    final class PeopleParser: ElementParser {
        private(set) var people: [Person] = []

        override func didStart(_ element: ElementStart) throws {
            try super.didStart(element)
            if element.name.local == "people" { people = [] }
        }

        override func handler(forChild element: ElementStart) throws -> (any ElementHandler)? {
            element.name.local == "person" ? PersonParser() : nil
        }

        override func didFinish(child: any ElementHandler, element: ElementEnd) throws {
            guard let child = child as? PersonParser else { return }
            people.append(child.person)
        }
    }

    func readPeople(from path: String) throws -> [Person] {
        let people = PeopleParser()
        try ExpatParser().parse(InputFile(path: path), into: HandlerStack(root: people))
        return people.people
    }

    func readPeople(pushing pieces: [[UInt8]]) throws -> [Person] {
        let people = PeopleParser()
        let parser = ExpatParser().makePushParser(receiver: HandlerStack(root: people), displayName: "folks.xml")
        for piece in pieces {
            try parser.feed(piece)
        }
        try parser.finish()
        return people.people
    }

    func firstProblem(in xml: String) -> String? {
        do {
            _ = try readPeople(pushing: [Array(xml.utf8)])
            return nil
        } catch {
            return "\(error)"
        }
    }
}

extension GettingStartedArticle {
    static let seedPeople = [
        Person(firstName: "Matt", lastName: "Neuburg"),
        Person(firstName: "Snidely", lastName: "Whiplash"),
        Person(firstName: "Dudley", lastName: "Doright"),
    ]

    /// Every event a handler of the article hears, in order, for the trace the
    /// article lists.
    final class Trace: ParseEventReceiver {
        let stack: HandlerStack
        var log: [String] = []
        init(_ stack: HandlerStack) { self.stack = stack }
        func startElement(_ name: Name, attributes: Attributes, at position: SourcePosition) throws {
            log.append("<\(name)>")
            try stack.startElement(name, attributes: attributes, at: position)
        }
        func text(_ bytes: UnsafeBufferPointer<UInt8>, at position: SourcePosition) throws {
            try stack.text(bytes, at: position)
        }
        func endElement(_ name: Name, at position: SourcePosition) throws {
            log.append("</\(name)>")
            try stack.endElement(name, at: position)
        }
    }

    @Suite("GettingStarted.md") struct Tests {
        @Test func everySwiftBlockOfTheArticleIsCompiledHere() throws {
            #expect(try swiftCodeBlocks(inArticle: "Sources/IngestCore/IngestCore.docc/GettingStarted.md").count == 7)
            try expectEveryBlockCompiledHere("Sources/IngestCore/IngestCore.docc/GettingStarted.md")
            try expectEveryBlockCompiledHere("Sources/IngestCore/IngestCore.docc/IngestCore.md")
            try expectEveryBlockCompiledHere("Sources/IngestParsers/IngestParsers.docc/IngestParsers.md")
        }

        @Test func theSeedsPeopleComeOutInDocumentOrder() throws {
            #expect(try GettingStartedArticle().readPeople(from: folksURL.path) == seedPeople)
        }

        @Test(arguments: [1, 3, 16, 100_000])
        func pushedPiecesOfAnySizeGiveTheSamePeople(size: Int) throws {
            let bytes = try [UInt8](contentsOfFile: folksURL.path)
            let pieces = stride(from: 0, to: bytes.count, by: size).map { Array(bytes[$0..<min($0 + size, bytes.count)]) }
            #expect(try GettingStartedArticle().readPeople(pushing: pieces) == seedPeople)
        }

        @Test func aMismatchedTagIsReportedAsTheArticleSays() {
            #expect(GettingStartedArticle().firstProblem(in: "<people>\n<person></people>") == "folks.xml:2:11: mismatched tag")
            #expect(GettingStartedArticle().firstProblem(in: "<people><person><firstName>Matt</firstName></person></people>") == nil)
        }

        @Test func aPlainElementParserKeepsItsTextAndSkipsItsChildren() throws {
            let xml = "<people><person><firstName>Ma<b>ignored</b>tt</firstName><nickname>M</nickname></person></people>"
            #expect(try GettingStartedArticle().readPeople(pushing: [Array(xml.utf8)]) == [Person(firstName: "Matt")])
        }

        @Test func theHandlersHearTheFirstPersonInTheOrderTheArticleLists() throws {
            // Steps 1-4 of the article: the people parser makes the person parser, the
            // person parser makes a plain parser per name and takes its text back.
            final class Recording: ElementHandler {
                let name: String
                let makesChildren: Bool
                var log: [String]
                init(_ name: String, makesChildren: Bool, log: [String] = []) {
                    self.name = name; self.makesChildren = makesChildren; self.log = log
                }
                var children: [Recording] = []
                func handler(forChild element: ElementStart) -> (any ElementHandler)? {
                    guard makesChildren else { return nil }
                    let child = Recording("\(element.name)", makesChildren: element.name.local == "person")
                    children.append(child)
                    log.append("\(name).handler(forChild: \(element.name))")
                    return child
                }
                func didStart(_ element: ElementStart) { log.append("\(name).didStart") }
                func didEnd(_ element: ElementEnd) { log.append("\(name).didEnd(\(element.text.isWhitespace ? "" : element.text.string))") }
                func didFinish(child: any ElementHandler, element: ElementEnd) {
                    log.append("\(name).didFinish(\((child as! Recording).name))")
                }
                var all: [String] { log + children.flatMap(\.all) }
            }
            let root = Recording("people", makesChildren: true)
            try ExpatParser().parse(bytes: Array("<people><person><firstName>Matt</firstName><lastName>Neuburg</lastName></person></people>".utf8),
                                    into: HandlerStack(root: root))
            let person = root.children[0]
            #expect(root.log == ["people.didStart", "people.handler(forChild: person)", "people.didFinish(person)", "people.didEnd()"])
            #expect(person.log == ["person.didStart", "person.handler(forChild: firstName)", "person.didFinish(firstName)",
                                   "person.handler(forChild: lastName)", "person.didFinish(lastName)", "person.didEnd()"])
            #expect(person.children.map(\.log) == [["firstName.didStart", "firstName.didEnd(Matt)"],
                                                   ["lastName.didStart", "lastName.didEnd(Neuburg)"]])
        }
    }
}

// MARK: - DelegateSwapping.md

struct DelegateSwappingArticle {
    final class TitlesHandler: ElementHandler {
        private(set) var titles: [String] = []
        private let text = TextHandler()

        func handler(forChild element: ElementStart) -> (any ElementHandler)? {
            element.name.local == "title" ? text : nil
        }

        func didFinish(child: any ElementHandler, element: ElementEnd) {
            titles.append(element.text.string)
        }
    }

    final class ParagraphHandler: ElementHandler {
        private(set) var ownText = ""
        private(set) var boldText: [String] = []

        func handler(forChild element: ElementStart) -> (any ElementHandler)? {
            element.name.local == "b" ? TextHandler() : nil
        }

        func didFinish(child: any ElementHandler, element: ElementEnd) {
            boldText.append(element.text.string)
        }

        func didEnd(_ element: ElementEnd) {
            ownText = element.text.string
        }
    }

    final class TextByteCounter: ElementHandler {
        private(set) var byteCount = 0
        var accumulatesText: Bool { false }

        func didReceive(text: UnsafeBufferPointer<UInt8>) {
            byteCount += text.count
        }
    }

    final class LinkHandler: ElementHandler {
        private(set) var links: [String] = []

        func handler(forChild element: ElementStart) -> (any ElementHandler)? {
            if element.name.local == "a", let href = element.attributes["href"] {
                links.append(href)
            }
            return nil
        }
    }

    final class JSONPersonHandler: ElementHandler {
        private(set) var fields: [String: String] = [:]

        func take(scalar element: ElementEnd) -> Bool {
            guard element.kind == .string || element.kind == .number else { return false }
            fields[element.name.local] = element.text.string
            return true
        }
    }

    final class JSONPeopleHandler: ElementHandler {
        private(set) var people: [[String: String]] = []

        func handler(forChild element: ElementStart) -> (any ElementHandler)? {
            element.kind == .object ? JSONPersonHandler() : nil
        }

        func didFinish(child: any ElementHandler, element: ElementEnd) {
            if let person = child as? JSONPersonHandler { people.append(person.fields) }
        }
    }

    func readPeople(json: String) throws -> [[String: String]] {
        let people = JSONPeopleHandler()
        try JSONParser(documentName: "people").parse(bytes: Array(json.utf8), into: HandlerStack(root: people))
        return people.people
    }

    struct UnexpectedElement: Error, CustomStringConvertible {
        let name: String
        var description: String { "unexpected <\(name)>" }
    }

    final class OnlyPeopleHandler: ElementHandler {
        func handler(forChild element: ElementStart) throws -> (any ElementHandler)? {
            guard element.name.local == "person" else { throw UnexpectedElement(name: element.name.qualified) }
            return nil
        }
    }

    @Suite("DelegateSwapping.md") struct Tests {
        @Test func everySwiftBlockOfTheArticleIsCompiledHere() throws {
            #expect(try swiftCodeBlocks(inArticle: "Sources/IngestCore/IngestCore.docc/DelegateSwapping.md").count == 8)
            try expectEveryBlockCompiledHere("Sources/IngestCore/IngestCore.docc/DelegateSwapping.md")
        }

        static func parse(_ xml: String, with root: any ElementHandler, chunkSize: Int = defaultChunkSize,
                          limits: ParseLimits = .default) throws {
            try ExpatParser(chunkSize: chunkSize).parse(bytes: Array(xml.utf8), into: HandlerStack(root: root, limits: limits))
        }

        @Test(arguments: [1, 5, defaultChunkSize])
        func chaptersAreSkippedWithTheirTitles(chunkSize: Int) throws {
            let titles = TitlesHandler()
            try Self.parse("<book><title>Emma</title><chapter><title>Volume I</title></chapter><title>Emma, again</title></book>",
                           with: titles, chunkSize: chunkSize)
            #expect(titles.titles == ["Emma", "Emma, again"])
        }

        @Test(arguments: [1, 4, defaultChunkSize])
        func anElementsTextIsItsOwnAndChildTextIsCutOut(chunkSize: Int) throws {
            let paragraph = ParagraphHandler()
            try Self.parse("<p>Hello <b>big</b> world</p>", with: paragraph, chunkSize: chunkSize)
            #expect(paragraph.ownText == "Hello  world")
            #expect(paragraph.boldText == ["big"])
        }

        @Test func textArrivingAroundEntitiesCDATAAndCommentsIsOnePiece() throws {
            let paragraph = ParagraphHandler()
            try Self.parse("<p>a &amp; <![CDATA[<b>]]><!-- c -->z&#x10348;</p>", with: paragraph, chunkSize: 2)
            #expect(paragraph.ownText == "a & <b>z𐍈")
        }

        @Test func aStreamingHandlerSeesEveryByteAndIsNotBoundByTheTextLimit() throws {
            let counter = TextByteCounter()
            let text = String(repeating: "é", count: 5_000)
            try Self.parse("<t>\(text)</t>", with: counter, chunkSize: 7, limits: ParseLimits(maxTextBytes: 100))
            #expect(counter.byteCount == 10_000)
            // The same text, accumulated, is over the limit.
            let error = try #require(throws: IngestError.self) {
                try Self.parse("<t>\(text)</t>", with: ParagraphHandler(), limits: ParseLimits(maxTextBytes: 100))
            }
            #expect(error.reason == .textLimit(100))
        }

        @Test func linksAreReadFromTheirAttributes() throws {
            let links = LinkHandler()
            try Self.parse(#"<p><a href="https://swift.org">Swift</a><a name="x"/><b href="no"/><a href='a&amp;b'/></p>"#, with: links)
            #expect(links.links == ["https://swift.org", "a&b"])
        }

        @Test func jsonScalarsAreTakenWholeAndNullGoesToHandlerForChild() throws {
            #expect(try DelegateSwappingArticle().readPeople(json: #"[{"firstName":"Matt","age":55,"pets":null}]"#) == [["firstName": "Matt", "age": "55"]])
            #expect(try DelegateSwappingArticle().readPeople(json: #"[{"firstName":"Zo\u00eb","n":-1.50,"ok":true},{}]"#)
                    == [["firstName": "Zoë", "n": "-1.50"], [:]])
        }

        @Test func aHandlersErrorStopsTheParseAtThePositionOfItsEvent() throws {
            let error = try #require(throws: IngestError.self) {
                try Self.parse("<people>\n  <pet/>\n</people>", with: OnlyPeopleHandler())
            }
            #expect(error.description == "<memory>:2:3: unexpected <pet>")
            #expect(error.kind == .data)
        }

        @Test func nestingDeeperThanTheLimitStopsTheParseEvenInsideSkippedElements() throws {
            let xml = "<book>" + String(repeating: "<chapter>", count: 10) + String(repeating: "</chapter>", count: 10) + "</book>"
            let error = try #require(throws: IngestError.self) {
                try Self.parse(xml, with: TitlesHandler(), limits: ParseLimits(maxDepth: 5))
            }
            #expect(error.reason == .depthLimit(5))
            try Self.parse(xml, with: TitlesHandler(), limits: ParseLimits(maxDepth: 11))
        }

        @Test func titlesOfChaptersAreSkipped() throws {
            let titles = TitlesHandler()
            let harness = HandlerHarness(root: titles)
            try harness.start("book")
            try harness.element("title", text: "Emma")
            try harness.start("chapter")
            try harness.element("title", text: "Volume I")
            try harness.end("chapter")
            try harness.end("book")
            try harness.finish()
            #expect(titles.titles == ["Emma"])
        }

        @Test func theHarnessFindsElementsLeftOpen() throws {
            let harness = HandlerHarness(root: TitlesHandler())
            try harness.start("book")
            try harness.start("title")
            let error = try #require(throws: HandlerHarness.Unbalanced.self) { try harness.finish() }
            #expect(error.openElements == 2)
            #expect(error.position.line == 3)
        }

        @Test func theHarnessSendsJSONScalars() throws {
            let person = JSONPersonHandler()
            let harness = HandlerHarness(root: person)
            try harness.start("item")
            try harness.scalar("firstName", kind: .string, text: "Matt")
            try harness.scalar("age", kind: .number, text: "55")
            try harness.scalar("pets", kind: .null, text: "")
            try harness.end("item")
            try harness.finish()
            #expect(person.fields == ["firstName": "Matt", "age": "55"])
        }

        @Test func theAutomaticMappingMakesOneRecordPerPerson() throws {
            let harness = try HandlerHarness(mapping: AutomaticRecordMapping())
            try harness.start("people")
            try harness.start("person")
            try harness.element("firstName", text: "Matt")
            try harness.end("person")
            try harness.end("people")
            try harness.finish()
            let record = try #require(harness.readRecord())
            #expect(record.table == "people")
            #expect(record["firstName"] == .text("Matt"))
        }
    }
}

// MARK: - IngestTesting.md (IngestTesting's landing page)

struct IngestTestingLandingPage {
    @Suite("IngestTesting.md") struct Tests {
        @Test func everySwiftBlockOfThePageIsCompiledHere() throws {
            #expect(try swiftCodeBlocks(inArticle: "Sources/IngestTesting/IngestTesting.docc/IngestTesting.md").count == 1)
            try expectEveryBlockCompiledHere("Sources/IngestTesting/IngestTesting.docc/IngestTesting.md")
        }

        @Test func aPersonBecomesARecordOfThePeopleTable() throws {
            let harness = try HandlerHarness(mapping: AutomaticRecordMapping())
            try harness.start("people")
            try harness.start("person", attributes: ["id": "7"])
            try harness.element("firstName", text: "Matt")
            try harness.end("person")
            try harness.end("people")
            try harness.finish()
            let record = try #require(harness.readRecord())
            #expect(record.table == "people")
            #expect(record.order == ["id", "firstName"])
            #expect(record["id"]?.text == "7")
            #expect(harness.readRecord() == nil)
        }
    }
}

/// Records an issue for each Swift block of `article` that this file does not hold.
func expectEveryBlockCompiledHere(_ article: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    for block in try codeBlocks(ofArticle: article, missingFrom: #filePath) {
        Issue.record("a Swift block of \(article) is not compiled here:\n\(block)", sourceLocation: sourceLocation)
    }
}

extension Array where Element == UInt8 {
    /// The bytes of the file at `path`, read through `InputFile`.
    init(contentsOfFile path: String) throws {
        let input = try InputFile(path: path)
        self = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = try buffer.withUnsafeMutableBytes { try input.read(into: $0) }
            if count == 0 { return }
            self += buffer[..<count]
        }
    }
}
