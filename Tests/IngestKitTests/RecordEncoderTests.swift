import Foundation
import GRDB
import Testing
import IngestKit
@testable import IngestCore
import IngestTestSupport

@Suite("Writing Encodable values through sinks")
struct RecordEncoderTests {
    struct Person: Codable, Equatable {
        var firstName: String
        var lastName: String
        var age: Int?
        var score: Double
        var member: Bool
        var tags: [String]
        var address: Address?
        struct Address: Codable, Equatable { var city: String }
    }

    static let people = [
        Person(
            firstName: "Matt", lastName: "Neuburg", age: 60, score: 1.5, member: true, tags: ["a", "b"],
            address: .init(city: "Ojai")),
        Person(firstName: "Zoë \"Q\"", lastName: "田中", age: nil, score: 0.1, member: false, tags: [], address: nil)
    ]

    @Test func fieldsFollowTheLosslessRulesAndNestedValuesBecomeJSON() throws {
        let names = NameTable()
        let record = try RecordEncoder.record(Self.people[0], table: "people", names: names)
        #expect(
            record.fields.map(\.name.qualified) == [
                "firstName", "lastName", "age", "score", "member", "tags", "address"
            ])
        #expect(record["firstName"] == .text("Matt"))
        #expect(record["age"] == .number(.init(text: "60", kind: .integer)))
        #expect(record["score"] == .number(.init(text: "1.5", kind: .real)))
        #expect(record["member"] == .bool(true))
        #expect(record["tags"] == .json(#"["a","b"]"#, .array))
        #expect(record["address"] == .json(#"{"city":"Ojai"}"#, .object))

        // Optionals left out by the synthesised encoder are absent, not null.
        let second = try RecordEncoder.record(Self.people[1], table: "people", names: names)
        #expect(second["age"] == nil)
        #expect(second["tags"] == .json("[]", .array))
        // A double needing 17 digits would not survive SQLite's REAL text round trip
        // under the 15-digit rule, so it stays exact, as text.
        struct Sum: Encodable { var x = 0.1 + 0.2 }
        #expect(try RecordEncoder.record(Sum(), table: "t", names: names)["x"] == .text("0.30000000000000004"))
    }

    @Test func valuesRoundTripThroughSQLiteIntoTheDecoder() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("people.db")
        let output = SQLiteOutput(path: path, mode: .create)
        try output.writeAndCommit { sink in try IngestKit.writeRecords(Self.people, as: "people", to: sink) }

        let queue = try DatabaseQueue(path: path)
        let rows = try queue.read { db in
            try Row.fetchAll(
                db, sql: "SELECT firstName, lastName, age, typeof(age), score, member, tags, address FROM people")
        }
        #expect(rows.count == 2)
        #expect(rows[0]["firstName"] as String? == "Matt")
        #expect(rows[0]["typeof(age)"] as String? == "integer")
        #expect(rows[0]["score"] as Double? == 1.5)
        #expect(rows[0]["member"] as Int? == 1)
        #expect(rows[0]["tags"] as String? == #"["a","b"]"#)
        #expect(rows[1]["lastName"] as String? == "田中")
        #expect(rows[1]["age"] as Int? == nil)
    }

    @Test func datesBecomePlistDatesAndDataPlistData() throws {
        struct Event: Encodable {
            var at: Date
            var blob: Data
        }
        let at = Date(timeIntervalSince1970: 1_700_000_000)
        let directory = try TemporaryDirectory()
        let path = directory.path("events.plist")
        try FileOutput(path: path, format: .propertyList(.binary)).writeAndCommit { sink in
            try IngestKit.writeRecords([Event(at: at, blob: Data([0, 1, 2, 255]))], as: "events", to: sink)
        }
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let list = try #require(try PropertyListSerialization.propertyList(from: data, format: nil) as? [[String: Any]])
        #expect(list.first?["at"] as? Date == at)
        #expect(list.first?["blob"] as? Data == Data([0, 1, 2, 255]))
    }

    struct Attachment: Encodable {
        var name: String
        var bytes: Data
        var thumbnail: Data?
        var parts: [Data]
    }

    @Test func dataPropertiesAreBytesAndNestedDataIsBase64() throws {
        let value = Attachment(name: "a", bytes: Data([0, 1, 2, 255]), thumbnail: Data(), parts: [Data([0xFF])])
        let record = try RecordEncoder.record(value, table: "attachments", names: NameTable())
        #expect(record["bytes"] == .data([0, 1, 2, 255]))
        #expect(record["thumbnail"] == .data([]))
        // Inside nested JSON there are no bytes: base64 text, as before.
        #expect(record["parts"] == .json(#"["/w=="]"#, .array))
        let absent = try RecordEncoder.record(
            Attachment(name: "b", bytes: Data(), thumbnail: nil, parts: []), table: "t", names: NameTable())
        #expect(absent["thumbnail"] == nil)
    }

    @Test func dataPropertiesBecomeBlobs() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("attachments.db")
        let output = SQLiteOutput(path: path, mode: .create)
        let values = [Attachment(name: "a", bytes: Data([0, 1, 0]), thumbnail: Data(), parts: [])]
        try output.writeAndCommit { sink in try writeRecords(values, as: "attachments", to: sink) }
        let row = try DatabaseQueue(path: path).read { db in
            try Row.fetchOne(db, sql: "SELECT bytes, typeof(bytes), thumbnail, typeof(thumbnail) FROM attachments")
        }
        #expect(row?[0] as Data? == Data([0, 1, 0]))
        #expect(row?[1] as String? == "blob")
        #expect(row?[2] as Data? == Data())
        #expect(row?[3] as String? == "blob")
    }

    @Test func aValueThatIsNotKeyedIsRefused() {
        #expect(throws: EncodingError.self) { try RecordEncoder.record([1, 2], table: "t", names: NameTable()) }
        struct Bad: Encodable { var x = Double.nan }
        #expect(throws: EncodingError.self) { try RecordEncoder.record(Bad(), table: "t", names: NameTable()) }
    }
}
