import Foundation
import Testing
@testable import IngestFiles
@testable import IngestCore
import IngestTesting
import IngestTestSupport

/// The seed's Person, as an app declares it to read ingest's archive (named apart
/// from the seed test's `Person` struct; registered for the class name "Person").
final class ArchivedPerson: NSObject, NSSecureCoding {
    static var supportsSecureCoding: Bool { true }
    let firstName: String
    let lastName: String

    init(firstName: String, lastName: String) {
        self.firstName = firstName
        self.lastName = lastName
    }

    func encode(with coder: NSCoder) {
        coder.encode(firstName, forKey: "firstName")
        coder.encode(lastName, forKey: "lastName")
    }

    init?(coder: NSCoder) {
        guard let first = coder.decodeObject(of: NSString.self, forKey: "firstName"),
            let last = coder.decodeObject(of: NSString.self, forKey: "lastName")
        else { return nil }
        firstName = first as String
        lastName = last as String
    }
}

/// A record with one field of every kind, decoded the way NSCoder stores them.
final class Sample: NSObject, NSSecureCoding {
    static var supportsSecureCoding: Bool { true }
    var count: Int64 = 0, ratio = 0.0, flag = false
    var name: String?, tags: NSArray?, address: NSDictionary?, hasMissing = true

    func encode(with coder: NSCoder) {}

    override init() {}

    init?(coder: NSCoder) {
        count = coder.decodeInt64(forKey: "count")
        ratio = coder.decodeDouble(forKey: "ratio")
        flag = coder.decodeBool(forKey: "flag")
        name = coder.decodeObject(of: NSString.self, forKey: "name") as String?
        tags = coder.decodeObject(of: [NSArray.self, NSString.self, NSNumber.self], forKey: "tags") as? NSArray
        address =
            coder.decodeObject(of: [NSDictionary.self, NSArray.self, NSString.self, NSNumber.self], forKey: "address")
            as? NSDictionary
        hasMissing = coder.containsValue(forKey: "missing")
    }
}

/// A record with data fields, decoded as an app declaring `NSData` properties would.
final class DataSample: NSObject, NSSecureCoding {
    static var supportsSecureCoding: Bool { true }
    var blob: NSData?, empty: NSData?

    init(blob: NSData?, empty: NSData?) {
        self.blob = blob
        self.empty = empty
    }

    func encode(with coder: NSCoder) {
        coder.encode(blob, forKey: "blob")
        coder.encode(empty, forKey: "empty")
    }

    init?(coder: NSCoder) {
        blob = coder.decodeObject(of: NSData.self, forKey: "blob")
        empty = coder.decodeObject(of: NSData.self, forKey: "empty")
    }
}

/// The integer inside a keyed archive's UID, as Foundation reads it back.
func uidValue(_ value: Any?) -> Int? {
    guard let value else { return nil }
    if let dict = value as? [String: Any], let number = dict["CF$UID"] as? Int { return number }
    for child in Mirror(reflecting: value).children where child.label == "value" {
        if let number = child.value as? any BinaryInteger { return Int(number) }
    }
    return nil
}

/// What a keyed archive says about its root array's objects, for comparing archives
/// by structure: per object, its class chain and its keys.
struct ArchiveShape: Equatable, CustomStringConvertible {
    var archiver: String?
    var version: Int?
    var topKeys: [String]
    var rootClassChain: [String]
    var objects: [(classes: [String], keys: [String])]

    static func == (a: ArchiveShape, b: ArchiveShape) -> Bool {
        a.archiver == b.archiver && a.version == b.version && a.topKeys == b.topKeys
            && a.rootClassChain == b.rootClassChain
            && a.objects.count == b.objects.count
            && zip(a.objects, b.objects).allSatisfy { $0.classes == $1.classes && $0.keys == $1.keys }
    }

    var description: String { "\(archiver ?? "-") \(version ?? 0) \(topKeys) \(rootClassChain) \(objects)" }

    init(_ data: Data) throws {
        let archive = try #require(try readPlist(data) as? [String: Any])
        archiver = archive["$archiver"] as? String
        version = archive["$version"] as? Int
        let top = try #require(archive["$top"] as? [String: Any])
        topKeys = top.keys.sorted()
        let objects = try #require(archive["$objects"] as? [Any])
        #expect(objects.first as? String == "$null")
        func entry(_ uid: Any?) throws -> [String: Any] {
            let index = try #require(uidValue(uid))
            return try #require(objects[index] as? [String: Any])
        }
        func classChain(_ object: [String: Any]) throws -> [String] {
            let classDict = try entry(object["$class"])
            let chain = try #require(classDict["$classes"] as? [String])
            #expect(classDict["$classname"] as? String == chain.first)
            return chain
        }
        let root = try entry(top["root"])
        rootClassChain = try classChain(root)
        let members = try #require(root["NS.objects"] as? [Any])
        self.objects = try members.map { member in
            let dict = try entry(member)
            return (try classChain(dict), dict.keys.filter { $0 != "$class" }.sorted())
        }
    }
}

@Suite struct KeyedArchiveTests {
    let factory = RecordFactory()

    func archiveOfFolks(_ format: PlistFormat, className: String? = nil) throws -> Data {
        let directory = try TemporaryDirectory()
        let path = directory.path("folks.archive")
        try importSample("folks.xml", to: path, format: .keyedArchive(format, className: className))
        return try Data(contentsOf: URL(fileURLWithPath: path))
    }

    func unarchive(_ data: Data, classes: [AnyClass], names: [String: AnyClass]) throws -> NSArray? {
        let unarchiver = try NSKeyedUnarchiver(forReadingFrom: data)
        unarchiver.decodingFailurePolicy = .setErrorAndReturn
        for (name, type): (String, AnyClass) in names { unarchiver.setClass(type, forClassName: name) }
        defer { unarchiver.finishDecoding() }
        return unarchiver.decodeObject(of: [NSArray.self] + classes, forKey: NSKeyedArchiveRootObjectKey) as? NSArray
    }

    @Test(arguments: PlistFormat.allCases)
    func folksUnarchiveAsThreePeopleInOrder(format: PlistFormat) throws {
        let data = try archiveOfFolks(format)
        #expect(data.starts(with: Array((format == .binary ? "bplist00" : "<?xml").utf8)))
        let people = try #require(
            try unarchive(data, classes: [ArchivedPerson.self], names: ["Person": ArchivedPerson.self])
                as? [ArchivedPerson])
        #expect(people.map(\.firstName) == ["Matt", "Snidely", "Dudley"])
        #expect(people.map(\.lastName) == ["Neuburg", "Whiplash", "Doright"])
    }

    @Test(arguments: PlistFormat.allCases)
    func sameStructureAsFoundationsOwnArchive(format: PlistFormat) throws {
        let people: NSArray = [
            ArchivedPerson(firstName: "Matt", lastName: "Neuburg"),
            ArchivedPerson(firstName: "Snidely", lastName: "Whiplash"),
            ArchivedPerson(firstName: "Dudley", lastName: "Doright")
        ]
        let foundation = try NSKeyedArchiver.archivedData(withRootObject: people, requiringSecureCoding: true)
        let expected = try ArchiveShape(foundation)
        // swift-corelibs-foundation ignores setClassName(_:for:) and archives a Swift
        // class under its module-qualified name: give ingest that name to compare.
        let swiftName = NSStringFromClass(ArchivedPerson.self)
        let ours = try ArchiveShape(archiveOfFolks(format, className: swiftName))
        #expect(ours == expected)
        #expect(ours.archiver == "NSKeyedArchiver")
        #expect(ours.version == 100_000)
        #expect(ours.topKeys == ["root"])
        #expect(ours.rootClassChain == ["NSArray", "NSObject"])
        #expect(ours.objects.map(\.classes) == Array(repeating: [swiftName, "NSObject"], count: 3))
        #expect(ours.objects.map(\.keys) == Array(repeating: ["firstName", "lastName"], count: 3))
        #expect(
            try ArchiveShape(archiveOfFolks(format)).objects.map(\.classes)
                == Array(repeating: ["Person", "NSObject"], count: 3))
        // Top level keys and $top → UID 1, as Foundation writes them.
        let archive = try #require(try readPlist(archiveOfFolks(format)) as? [String: Any])
        #expect(archive.keys.sorted() == ["$archiver", "$objects", "$top", "$version"])
        #expect(uidValue((archive["$top"] as? [String: Any])?["root"]) == 1)
    }

    @Test(arguments: PlistFormat.allCases)
    func fieldsAreEncodedAsNSCoderStoresThem(format: PlistFormat) throws {
        let record = factory.record(
            "samples",
            [
                ("count", factory.inferred("-12345678901")),
                ("ratio", factory.inferred("2.5")),
                ("flag", .bool(true)),
                ("name", .text("Zürich 😀")),
                ("missing", .null),
                ("tags", .json(#"["a","b",null,"a"]"#, .array)),
                ("address", .json(#"{"city":"Bern","zip":3000,"codes":[1,"x"],"ok":false}"#, .object))
            ])
        let directory = try TemporaryDirectory()
        let data = try writeFile([record], in: directory, format: .keyedArchive(format))
        let decoded = try #require(
            try unarchive(
                data, classes: [Sample.self, NSString.self, NSNumber.self, NSDictionary.self],
                names: ["Sample": Sample.self]) as? [Sample])
        let sample = try #require(decoded.first)
        #expect(decoded.count == 1)
        #expect(sample.count == -12_345_678_901)
        #expect(sample.ratio == 2.5)
        #expect(sample.flag)
        #expect(sample.name == "Zürich 😀")
        #expect(!sample.hasMissing, "null fields are left out")
        #expect(sample.tags as? [String] == ["a", "b", "a"])
        let address = try #require(sample.address as? [String: Any])
        #expect(address["city"] as? String == "Bern")
        #expect((address["zip"] as? NSNumber)?.intValue == 3000)
        #expect((address["codes"] as? [Any])?.count == 2)
        #expect((address["ok"] as? NSNumber)?.boolValue == false)

        // Numbers and booleans sit in the object itself; strings are referenced by UID.
        let archive = try #require(try readPlist(data) as? [String: Any])
        let objects = try #require(archive["$objects"] as? [Any])
        let root = try #require(objects[1] as? [String: Any])
        let first = try #require(uidValue((root["NS.objects"] as? [Any])?.first))
        let object = try #require(objects[first] as? [String: Any])
        #expect(object["count"] as? Int64 == -12_345_678_901)
        #expect(object["ratio"] as? Double == 2.5)
        #expect(object["flag"] as? Bool == true)
        let name = try #require(uidValue(object["name"]))
        #expect(objects[name] as? String == "Zürich 😀")
    }

    @Test(arguments: PlistFormat.allCases)
    func dataFieldsAreNSDataAsNSKeyedArchiverStoresIt(format: PlistFormat) throws {
        let bytes: [UInt8] = [0, 1, 2, 0, 0xFF] + Array(repeating: 0xAB, count: 40)
        let record = factory.record("dataSamples", [("blob", .data(bytes)), ("empty", .data([])), ("name", .text("x"))])
        let directory = try TemporaryDirectory()
        let data = try writeFile([record], in: directory, format: .keyedArchive(format))
        let decoded = try #require(
            try unarchive(
                data, classes: [DataSample.self, NSData.self],
                names: ["DataSample": DataSample.self]) as? [DataSample])
        #expect(decoded.count == 1)
        #expect(decoded.first?.blob as Data? == Data(bytes))
        #expect(decoded.first?.empty as Data? == Data(), "empty data is an empty NSData, not nil")

        // The record refers by UID to the plist data object itself, with no $class …
        func dataEntry(_ archive: Data) throws -> Any {
            let plist = try #require(try readPlist(archive) as? [String: Any])
            let objects = try #require(plist["$objects"] as? [Any])
            let root = try #require(objects[1] as? [String: Any])
            let first = try #require(uidValue((root["NS.objects"] as? [Any])?.first))
            let object = try #require(objects[first] as? [String: Any])
            let blob = try #require(uidValue(object["blob"]))
            return objects[blob]
        }
        #expect(try dataEntry(data) as? Data == Data(bytes))
        // … just as Foundation's own archiver stores an NSData property.
        let foundation = try NSKeyedArchiver.archivedData(
            withRootObject: [DataSample(blob: NSData(data: Data(bytes)), empty: NSData())] as NSArray,
            requiringSecureCoding: true)
        #expect(try dataEntry(foundation) as? Data == Data(bytes))
    }

    @Test func equalStringsShareOneUID() throws {
        let rows = (0..<10).map {
            factory.record("people", [("firstName", .text("Matt")), ("lastName", .text("L\($0 % 2)"))])
        }
        let directory = try TemporaryDirectory()
        let data = try writeFile(rows, in: directory, format: .keyedArchive(.binary))
        let archive = try #require(try readPlist(data) as? [String: Any])
        let objects = try #require(archive["$objects"] as? [Any])
        #expect(objects.filter { $0 as? String == "Matt" }.count == 1)
        #expect(objects.filter { $0 as? String == "L1" }.count == 1)
        // 0 $null, 1 root, 10 people, their class, Matt, L0, L1, NSArray class.
        let expectedCount = 2 + 10 + 1 + 3 + 1
        #expect(objects.count == expectedCount)
    }

    @Test func classNamesFollowTheTableOrTheOverride() throws {
        let records = [
            factory.record("catalog", [("title", .text("A"))]),
            factory.record("magazines", [("title", .text("M"))]),
            factory.record("book", [("title", .text("B"))])
        ]
        let directory = try TemporaryDirectory()
        for format in PlistFormat.allCases {
            let data = try writeFile(
                records, in: directory, name: "derived-\(format)", renames: [0: ("catalog", "book")],
                format: .keyedArchive(format))
            #expect(
                try ArchiveShape(data).objects.map { $0.classes.first } == ["Book", "Magazine", "Book"], "\(format)")
            let named = try writeFile(
                records, in: directory, name: "named-\(format)",
                format: .keyedArchive(format, className: "Item"))
            #expect(
                try ArchiveShape(named).objects.map { $0.classes } == Array(repeating: ["Item", "NSObject"], count: 3))
        }
    }

    @Test(arguments: PlistFormat.allCases)
    func zeroRecordsUnarchiveAsAnEmptyArray(format: PlistFormat) throws {
        let directory = try TemporaryDirectory()
        let data = try writeFile([], in: directory, format: .keyedArchive(format))
        let array = try #require(try unarchive(data, classes: [], names: [:]))
        #expect(array.count == 0)
    }

    @Test func manyRecordsStillUnarchive() throws {
        // More than 65 536 $objects and bplist objects: 4-byte references and UIDs.
        let rows = (0..<25_000).map {
            factory.record("people", [("firstName", .text("F\($0)")), ("lastName", .text("L\($0)"))])
        }
        let directory = try TemporaryDirectory()
        let data = try writeFile(rows, in: directory, format: .keyedArchive(.binary))
        #expect(BinaryPlistTrailer(data).refSize == 4)
        let people = try #require(
            try unarchive(data, classes: [ArchivedPerson.self], names: ["Person": ArchivedPerson.self])
                as? [ArchivedPerson])
        #expect(people.count == 25_000)
        #expect(people[24_999].firstName == "F24999")
        #expect(people[12_345].lastName == "L12345")
    }

    @Test(arguments: [
        ("people", "Person"), ("items", "Item"), ("item", "Item"), ("categories", "Category"),
        ("boxes", "Box"), ("addresses", "Address"), ("status", "Status"), ("analysis", "Analysis"),
        ("posts", "Post"), ("children", "Child"), ("dc:entries", "Entry"), ("row-set", "Row_set"),
        ("catalog", "Catalog"), ("", "Record"), ("Matches", "Match")
    ])
    func classNameRule(table: String, expected: String) {
        #expect(ArchiveClassName.forTable(table) == expected)
    }
}
