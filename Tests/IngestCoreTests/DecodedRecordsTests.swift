import Foundation
import Testing
@testable import IngestCore
@testable import IngestParsers
import IngestTesting
import IngestTestSupport

@Suite("Streaming Decodable records")
struct DecodedRecordsTests {
    struct Person: Decodable, Equatable {
        let firstName: String
        let lastName: String
    }

    static let samples = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Samples")
    static let seedPeople = [
        Person(firstName: "Matt", lastName: "Neuburg"),
        Person(firstName: "Snidely", lastName: "Whiplash"),
        Person(firstName: "Dudley", lastName: "Doright")
    ]

    func collect<T: Decodable>(_ type: T.Type, at path: String, from url: URL) async throws -> [T] {
        var values: [T] = []
        for try await value in IngestParsers.records(type, at: path, from: url) { values.append(value) }
        return values
    }

    func file(_ text: String, named name: String, in directory: TemporaryDirectory) throws -> URL {
        let url = URL(fileURLWithPath: directory.path(name))
        try Data(text.utf8).write(to: url)
        return url
    }

    @Test func theSeedsPeopleFromXMLAndFromJSON() async throws {
        #expect(
            try await collect(Person.self, at: "people/person", from: Self.samples.appendingPathComponent("folks.xml"))
                == Self.seedPeople)
        #expect(
            try await collect(Person.self, at: "people/item", from: Self.samples.appendingPathComponent("folks.json"))
                == Self.seedPeople)
    }

    struct Row: Decodable, Equatable {
        let id: Int
        let active: Bool
        let name: String
        let score: Double?
        let tag: [String]
        let address: Address?
        struct Address: Decodable, Equatable {
            let city: String
            let zip: Int
        }
    }

    @Test func xmlAttributesTextAndRepeatedChildrenDecodeAsTypedProperties() async throws {
        let directory = try TemporaryDirectory()
        let url = try file(
            """
            <rows>
              <row id=" 7 " active="true"><name>Zoë 田中</name><score>1.5</score><tag>a</tag>
                <address><city>Łódź</city><zip>90001</zip></address></row>
              <row id="8" active="0"><name></name><tag>x</tag><tag>y</tag></row>
            </rows>
            """, named: "rows.xml", in: directory)
        let rows = try await collect(Row.self, at: "rows/row", from: url)
        #expect(
            rows == [
                Row(
                    id: 7, active: true, name: "Zoë 田中", score: 1.5, tag: ["a"],
                    address: .init(city: "Łódź", zip: 90001)),
                Row(id: 8, active: false, name: "", score: nil, tag: ["x", "y"], address: nil)
            ])
    }

    @Test func jsonTypesAndATopLevelArray() async throws {
        let directory = try TemporaryDirectory()
        let url = try file(
            #"""
            [{"id": 7, "active": true, "name": "a", "score": 2, "tag": ["p", "q"], "address": null},
             {"id": 8, "active": false, "name": "b", "score": null, "tag": "solo",
              "address": {"city": "Paris", "zip": 75001}}]
            """#, named: "rows.json", in: directory)
        let rows = try await collect(Row.self, at: "item", from: url)
        #expect(
            rows == [
                Row(id: 7, active: true, name: "a", score: 2, tag: ["p", "q"], address: nil),
                Row(
                    id: 8, active: false, name: "b", score: nil, tag: ["solo"],
                    address: .init(city: "Paris", zip: 75001))
            ])
    }

    @Test func aRecordThatDoesNotDecodeNamesItsLineAndTheKey() async throws {
        let directory = try TemporaryDirectory()
        let url = try file(
            "<people>\n<person><firstName>A</firstName><lastName>B</lastName></person>\n<person><firstName>C</firstName></person>\n</people>",
            named: "bad.xml", in: directory)
        var seen: [Person] = []
        do {
            for try await person in IngestParsers.records(Person.self, at: "people/person", from: url) {
                seen.append(person)
            }
            Issue.record("the second person lacks lastName and must fail")
        } catch let error as IngestError {
            #expect(error.kind == .data)
            #expect(error.position?.line == 3)
            #expect(error.description.contains("bad.xml:3:"), "\(error)")
            #expect(error.description.contains("lastName"), "\(error)")
        }
        #expect(seen == [Person(firstName: "A", lastName: "B")])

        let wrongType = try file(
            #"[{"id": "seven", "active": true, "name": "a", "tag": []}]"#, named: "bad.json", in: directory)
        await #expect(throws: IngestError.self) { _ = try await collect(Row.self, at: "item", from: wrongType) }
    }

    @Test func malformedInputAndAPathThatMatchesNothingAreErrors() async throws {
        let directory = try TemporaryDirectory()
        let broken = try file("<people><person><firstName>A</firstName></people>", named: "broken.xml", in: directory)
        await #expect(throws: IngestError.self) {
            _ = try await collect(Person.self, at: "people/person", from: broken)
        }
        let folks = Self.samples.appendingPathComponent("folks.xml")
        await #expect(throws: IngestError.self) { _ = try await collect(Person.self, at: "folks/person", from: folks) }
        await #expect(throws: IngestError.self) {
            _ = try await collect(
                Person.self, at: "people/person", from: URL(fileURLWithPath: directory.path("missing.xml")))
        }
    }

    @Test func aPathWhoseParentHoldsNoRecordIsAnErrorThatSuggestsWhereTheRecordsAre() async throws {
        for (name, path, suggestion) in [
            ("folks.xml", "people/persn", "people/person"), ("folks.json", "people/persn", "people/item")
        ] {
            let error = await #expect(throws: IngestError.self) {
                _ = try await collect(Person.self, at: path, from: Self.samples.appendingPathComponent(name))
            }
            #expect(error?.kind == .data)
            #expect(error?.reason == .recordPathMatchedNothing(path, suggestions: [suggestion]), "\(name)")
        }
    }

    @Test func leavingTheLoopEarlyStopsTheParseAndManyRecordsStream() async throws {
        let directory = try TemporaryDirectory()
        let count = 20_000
        var xml = "<people>"
        for index in 0..<count {
            xml += "<person><firstName>F\(index)</firstName><lastName>L\(index)</lastName></person>"
        }
        xml += "</people>"
        let url = try file(xml, named: "many.xml", in: directory)

        // Far more records than the buffer holds: the parser must wait for the
        // consumer, and must stop when the consumer leaves.
        for _ in 0..<20 {
            for try await person in IngestParsers.records(Person.self, at: "people/person", from: url, buffer: 4) {
                #expect(person.firstName == "F0")
                break
            }
        }
        var total = 0
        var last: Person?
        for try await person in IngestParsers.records(Person.self, at: "people/person", from: url, buffer: 8) {
            total += 1
            last = person
        }
        #expect(total == count)
        #expect(last == Person(firstName: "F\(count - 1)", lastName: "L\(count - 1)"))
    }

    /// `count` people as XML, one of them (at `bad`) with an id that is not a number.
    func people(_ count: Int, badAt bad: Int? = nil) -> String {
        var xml = "<people>\n"
        for index in 0..<count {
            xml += "<person><id>\(index == bad ? "x" : String(index))</id><name>n\(index)</name></person>\n"
        }
        return xml + "</people>\n"
    }

    struct Numbered: Decodable {
        let id: Int
        let name: String
    }

    @Test("A slow consumer: the buffer never holds more than it should")
    func slowConsumerKeepsTheBufferBounded() async throws {
        let directory = try TemporaryDirectory()
        let url = try file(people(20_000), named: "many.xml", in: directory)
        let sequence = IngestParsers.records(Numbered.self, at: "people/person", from: url, buffer: 64)
        var iterator = sequence.makeAsyncIterator()
        var count = 0, largest = 0
        while let _ = try await iterator.next() {
            count += 1
            if count % 500 == 0 {
                // Let the parser run ahead as far as it may.
                try await Task.sleep(nanoseconds: 2_000_000)
                largest = max(largest, iterator.session.bufferedItemCount)
            }
        }
        #expect(count == 20_000)
        #expect(largest > 0, "the parser ran ahead")
        #expect(largest <= 2 * 64, "at most twice the buffer is kept: \(largest)")
    }

    @Test("Cancelling the iterating task stops the parse and throws CancellationError")
    func cancellation() async throws {
        let directory = try TemporaryDirectory()
        let url = try file(people(200_000), named: "many.xml", in: directory)
        let task = Task {
            var count = 0
            for try await _ in IngestParsers.records(Numbered.self, at: "people/person", from: url, buffer: 16) {
                count += 1
                if count == 100 { withUnsafeCurrentTask { $0?.cancel() } }
            }
            return count
        }
        let result = await task.result
        #expect(throws: CancellationError.self) { try result.get() }
    }

    @Test("A record that does not decode can be skipped and reported, and the rest go on")
    func skipping() async throws {
        let directory = try TemporaryDirectory()
        let url = try file(people(10, badAt: 4), named: "bad.xml", in: directory)
        let failures = FailureLog()
        var ids: [Int] = []
        for try await person in IngestParsers.records(
            Numbered.self, at: "people/person", from: url,
            onFailure: .skip { failures.add($0) })
        {
            ids.append(person.id)
        }
        #expect(ids == [0, 1, 2, 3, 5, 6, 7, 8, 9])
        #expect(failures.errors.count == 1)
        #expect(failures.errors.first?.position?.line == 6)
        #expect(failures.errors.first?.message.contains("cannot decode Numbered") == true)
    }
}

/// Errors reported from the decoding iterator, collected for a test.
final class FailureLog: @unchecked Sendable {
    private let lock = NSLock()
    private var collected: [IngestError] = []
    func add(_ error: IngestError) {
        lock.lock()
        collected.append(error)
        lock.unlock()
    }
    var errors: [IngestError] {
        lock.lock()
        defer { lock.unlock() }
        return collected
    }
}
