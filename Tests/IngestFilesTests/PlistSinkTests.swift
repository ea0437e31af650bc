import Foundation
import Testing
@testable import IngestFiles
@testable import IngestCore
@testable import IngestParsers
import IngestTesting
import IngestTestSupport

@Suite struct PlistSinkTests {
    let factory = RecordFactory()

    func write(_ records: [IngestRecord], _ format: PlistFormat, renames: [Int: (String, String)] = [:]) throws
        -> Data
    {
        let directory = try TemporaryDirectory()
        return try writeFile(records, in: directory, renames: renames, format: .propertyList(format))
    }

    @Test(arguments: PlistFormat.allCases)
    func folksReadBackInOrder(format: PlistFormat) throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("folks.plist")
        try importSample("folks.xml", to: path, format: .propertyList(format))
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(data.starts(with: Array((format == .xml ? "<?xml" : "bplist00").utf8)))
        let people = try #require(try readPlist(data) as? [[String: String]])
        #expect(
            people == [
                ["firstName": "Matt", "lastName": "Neuburg"],
                ["firstName": "Snidely", "lastName": "Whiplash"],
                ["firstName": "Dudley", "lastName": "Doright"]
            ])
    }

    @Test(arguments: PlistFormat.allCases)
    func valueTypes(format: PlistFormat) throws {
        let record = factory.record(
            "t",
            [
                ("int", factory.inferred("42")),
                ("negative", factory.inferred("-7")),
                ("big", factory.inferred("9223372036854775807")),
                ("min", factory.inferred("-9223372036854775808")),
                ("u32", factory.inferred("4294967295")),
                ("huge", factory.inferred("18446744073709551616")),
                ("leadingZero", factory.inferred("007")),
                ("real", factory.inferred("472.942")),
                ("wholeReal", factory.inferred("73.0")),
                ("yes", .bool(true)),
                ("no", .bool(false)),
                ("day", .text("1961-04-05")),
                ("instant", .text("2024-02-29T23:59:58Z")),
                ("missing", .null),
                ("tags", .json(#"["a","b"]"#, .array)),
                (
                    "address",
                    .json(
                        #"{"@kind":"home","city":"Zürich","n":[1,2.5,"x",true,null],"empty":{},"gone":null}"#, .object)
                )
            ])
        let plist = try #require(try readPlist(write([record], format)) as? [[String: Any]])
        let dict = try #require(plist.first)
        #expect(plist.count == 1)
        #expect(dict["int"] as? Int == 42)
        #expect(dict["negative"] as? Int == -7)
        #expect(dict["big"] as? Int64 == Int64.max)
        #expect(dict["min"] as? Int64 == Int64.min)
        #expect(dict["u32"] as? Int64 == 4_294_967_295)
        #expect(dict["huge"] as? String == "18446744073709551616", "beyond 64 bits stays text")
        #expect(dict["leadingZero"] as? String == "007")
        #expect(dict["real"] as? Double == 472.942)
        #expect(dict["wholeReal"] as? Double == 73.0)
        #expect(dict["yes"] as? Bool == true)
        #expect(dict["no"] as? Bool == false)
        #expect(dict["day"] as? Date == isoDate("1961-04-05"))
        #expect(dict["instant"] as? Date == isoDate("2024-02-29T23:59:58Z"))
        #expect(dict["missing"] == nil, "null is left out")
        #expect(dict["tags"] as? [String] == ["a", "b"])
        let address = try #require(dict["address"] as? [String: Any])
        #expect(address["@kind"] as? String == "home")
        #expect(address["city"] as? String == "Zürich")
        #expect((address["empty"] as? [String: Any])?.isEmpty == true)
        #expect(address["gone"] == nil)
        let list = try #require(address["n"] as? [Any])
        #expect(list.count == 4, "null is left out of arrays too")
        #expect(list[0] as? Int == 1)
        #expect(list[1] as? Double == 2.5)
        #expect(list[2] as? String == "x")
        #expect(list[3] as? Bool == true)
        #expect(Set(dict.keys).count == 15)
    }

    /// Data fields of the sizes around the binary count encodings: in the marker's low
    /// nibble up to 14 bytes, then `0x4F` and a 1-, 2- or 4-byte integer.
    @Test(arguments: PlistFormat.allCases)
    func dataFieldsArePlistData(format: PlistFormat) throws {
        let lengths = [0, 1, 14, 15, 255, 256, 70_000]
        let values = lengths.map { length in (0..<length).map { UInt8(truncatingIfNeeded: $0 * 7 + 3) } }
        var fields: [(String, FieldValue)] = zip(lengths, values).map { ("d\($0)", .data($1)) }
        fields.append(("zero", .data([0, 0, 0])))
        fields.append(("looksBase64", .text("AAEC")))
        let data = try write([factory.record("t", fields)], format)
        let dict = try #require((try readPlist(data) as? [[String: Any]])?.first)
        for (length, bytes) in zip(lengths, values) {
            #expect(dict["d\(length)"] as? Data == Data(bytes), "\(length) bytes, \(format)")
        }
        #expect(dict["zero"] as? Data == Data([0, 0, 0]))
        #expect(dict["looksBase64"] as? String == "AAEC", "text never becomes data")
        switch format {
        case .xml:
            let text = String(decoding: data, as: UTF8.self)
            #expect(text.contains("<key>zero</key>\n\t\t<data>AAAA</data>\n"))
            #expect(text.contains("<data></data>"), "empty data")
        case .binary:
            #expect(data.occurrences(of: [0x43, 0, 0, 0]) == 1)
            #expect(data.occurrences(of: [0x4E] + values[2]) == 1, "14 bytes: length in the marker")
            #expect(data.occurrences(of: [0x4F, 0x10, 15] + values[3]) == 1, "15 bytes: 0x4F, then an integer")
            #expect(data.occurrences(of: [0x4F, 0x11, 0x01, 0x00] + values[5].prefix(8)) == 1, "256: a 2-byte integer")
        }
    }

    @Test(arguments: [
        "2023-02-29", "1900-02-29", "2023-13-01", "2023-00-10", "2023-04-31", "0000-01-01",
        "2023-01-01T24:00:00Z", "2023-01-01T10:60:00Z", "2023-01-01T10:00:60Z",
        "2023-01-01T10:00:00+01:00", "2023-01-01T10:00:00.5Z", "2023-01-01T10:00:00",
        "2023-1-01", "20230101", "2023-01-01 10:00:00Z", "２０２３-01-01"
    ])
    func textThatIsNotADateStaysText(text: String) throws {
        let plist = try readPlist(write([factory.record("t", [("v", .text(text))])], .binary)) as? [[String: Any]]
        #expect(plist?.first?["v"] as? String == text)
    }

    @Test func datesAtTheEdges() throws {
        for text in ["2000-02-29", "0001-01-01", "9999-12-31T23:59:59Z", "2001-01-01T00:00:00Z", "1969-12-31T23:59:59Z"]
        {
            for format in PlistFormat.allCases {
                let plist =
                    try readPlist(write([factory.record("t", [("v", .text(text))])], format)) as? [[String: Any]]
                let date = try #require(plist?.first?["v"] as? Date, "\(text) \(format)")
                if text.hasPrefix("0001") {
                    // Foundation's ISO 8601 formatter uses the Julian calendar before 1582.
                    #expect(date.timeIntervalSinceReferenceDate == -63_113_904_000)
                } else {
                    #expect(date == isoDate(text), "\(text) \(format)")
                }
            }
        }
    }

    @Test(arguments: PlistFormat.allCases)
    func unicodeRoundTrips(format: PlistFormat) throws {
        let texts = ["Zürich", "田中", "😀 grinning", "𝄞", "é\u{301}", "plain ascii"]
        let records = texts.map { factory.record("t", [("v", .text($0)), ("ключ😀", .text("k"))]) }
        let data = try write(records, format)
        let plist = try #require(try readPlist(data) as? [[String: String]])
        #expect(plist.map { $0["v"] } == texts)
        #expect(plist.allSatisfy { $0["ключ😀"] == "k" })
        if format == .binary {
            // The grinning face is a surrogate pair in a UTF-16BE (0x6_) string object.
            #expect(data.occurrences(of: [0xD8, 0x3D, 0xDE, 0x00]) >= 1)
            #expect(data.occurrences(of: Array("plain ascii".utf8)) == 1, "ASCII strings are stored as ASCII")
        }
    }

    @Test func escapingAndCharactersXMLCannotCarry() throws {
        let text =
            "a & b < c > d ]]> \"q\" 'a' tab\t lf\n cr\r nul\u{0} bell\u{7} esc\u{1B} fffe\u{FFFE} ffff\u{FFFF} del\u{7F} end"
        let record = factory.record("t", [("v", .text(text)), ("<&>", .text("key"))])
        let xml = try #require(try readPlist(write([record], .xml)) as? [[String: String]])
        let replaced = text.replacingOccurrences(of: "\u{0}", with: "\u{FFFD}")
            .replacingOccurrences(of: "\u{7}", with: "\u{FFFD}")
            .replacingOccurrences(of: "\u{1B}", with: "\u{FFFD}")
            .replacingOccurrences(of: "\u{FFFE}", with: "\u{FFFD}")
            .replacingOccurrences(of: "\u{FFFF}", with: "\u{FFFD}")
        #expect(
            xml.first?["v"] == replaced, "XML replaces what XML 1.0 cannot carry with U+FFFD, keeps CR, tab, LF and DEL"
        )
        #expect(xml.first?["<&>"] == "key")
        let binary = try #require(try readPlist(write([record], .binary)) as? [[String: String]])
        #expect(binary.first?["v"] == text, "the binary format carries every character exactly")
    }

    @Test(arguments: PlistFormat.allCases)
    func severalTablesMakeARootDictionary(format: PlistFormat) throws {
        let records = [
            factory.record("catalog", [("title", .text("A"))]),
            factory.record("magazine", [("name", .text("M1"))]),
            factory.record("book", [("title", .text("B"))]),
            factory.record("magazine", [("name", .text("M2"))])
        ]
        // After the first record the mapping learns that "catalog" holds books.
        let data = try write(records, format, renames: [0: ("catalog", "book")])
        let root = try #require(try readPlist(data) as? [String: [[String: String]]])
        #expect(root.keys.sorted() == ["book", "magazine"])
        #expect(root["book"] == [["title": "A"], ["title": "B"]])
        #expect(root["magazine"] == [["name": "M1"], ["name": "M2"]])
        if format == .xml {
            let text = String(decoding: data, as: UTF8.self)
            #expect(
                text.range(of: "<key>book</key>")!.lowerBound < text.range(of: "<key>magazine</key>")!.lowerBound,
                "tables in the order first met")
        }
    }

    @Test(arguments: PlistFormat.allCases)
    func zeroRecordsMakeAnEmptyArray(format: PlistFormat) throws {
        let data = try write([], format)
        let plist = try #require(try readPlist(data) as? [Any])
        #expect(plist.isEmpty)
    }

    /// Object counts around the reference-size thresholds: 1 byte up to 256 objects,
    /// 2 up to 65 536, then 4.
    @Test(arguments: [(50, 1), (300, 2), (70_000, 4)])
    func referenceSizeFollowsTheObjectCount(records: Int, expectedRefSize: Int) throws {
        // Distinct strings, so every record adds objects that cannot be shared.
        let rows = (0..<records).map {
            factory.record("t", [("id", .text("id-\($0)")), ("n", factory.inferred(String($0)))])
        }
        let data = try write(rows, .binary)
        let trailer = BinaryPlistTrailer(data)
        #expect(trailer.refSize == expectedRefSize)
        #expect(trailer.objectCount > UInt64(records), "\(trailer.objectCount)")
        let needed = trailer.objectCount <= 256 ? 1 : trailer.objectCount <= 65_536 ? 2 : 4
        #expect(trailer.refSize == needed, "reference size sized to the object count \(trailer.objectCount)")
        #expect(
            trailer.offsetTableOffset + UInt64(trailer.objectCount) * UInt64(trailer.offsetSize) + 32
                == UInt64(data.count))
        let plist = try #require(try readPlist(data) as? [[String: Any]])
        #expect(plist.count == records)
        for index in [0, records / 2, records - 1] {
            #expect(plist[index]["id"] as? String == "id-\(index)")
            #expect(plist[index]["n"] as? Int == index)
        }
    }

    @Test func keysAndRepeatedValuesAreStoredOnce() throws {
        let rows = (0..<1_000).map { index in
            factory.record(
                "t",
                [
                    ("firstName", .text(["Matt", "Snidely", "Dudley"][index % 3])),
                    ("score", factory.inferred("1.5")),
                    ("bio", .text(String(repeating: "long text ", count: 10) + String(index % 2)))
                ])
        }
        let data = try write(rows, .binary)
        #expect(data.occurrences(of: Array("firstName".utf8)) == 1)
        #expect(data.occurrences(of: Array("Snidely".utf8)) == 1)
        // Strings over 64 bytes are not cached: written once per record.
        #expect(data.occurrences(of: Array((String(repeating: "long text ", count: 10) + "1").utf8)) == 500)
        let plist = try #require(try readPlist(data) as? [[String: Any]])
        #expect(plist[4]["firstName"] as? String == "Snidely")
        #expect(plist[999]["score"] as? Double == 1.5)
    }

    @Test func samplesLoadInBothFormats() throws {
        for (sample, records) in [("folks.xml", nil), ("catalog.xml", nil), ("feed.rss", "rss/channel/item")]
            as [(String, String?)]
        {
            let collector = CollectingSink()
            try Importer(options: .init(recordPath: try records.map(RecordPath.init)))
                .read(InputFile(path: packageRoot.appendingPathComponent("Samples/\(sample)").path), into: collector)
            for format in PlistFormat.allCases {
                let directory = try TemporaryDirectory()
                let path = directory.path("out")
                try importSample(sample, records: records, to: path, format: .propertyList(format))
                let plist = try readPlist(Data(contentsOf: URL(fileURLWithPath: path)))
                let tables = Set(collector.records.map(\.table))
                let rows: [[String: Any]]
                if tables.count == 1 {
                    rows = try #require(plist as? [[String: Any]], "\(sample) \(format)")
                } else {
                    rows = try #require(plist as? [String: [[String: Any]]]).values.flatMap { $0 }
                }
                #expect(rows.count == collector.records.count, "\(sample) \(format)")
                // Every non-null field of every record is there, under its name.
                for (row, expected) in zip(rows, collector.records) where tables.count == 1 {
                    #expect(
                        Set(row.keys) == Set(expected.fields.filter { $0.value != .null }.keys), "\(sample) \(format)")
                }
            }
        }
    }

    @Test func catalogNestingBecomesArraysAndDictionaries() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("catalog.plist")
        try importSample("catalog.xml", to: path, format: .propertyList(.binary))
        let books = try #require(try readPlist(Data(contentsOf: URL(fileURLWithPath: path))) as? [[String: Any]])
        #expect(books.count == 3)
        #expect(books[0]["id"] as? Int == 1)
        #expect(books[0]["title"] as? String == "Programming iOS")
        #expect(books[0]["authors"] as? [String] == ["Matt Neuburg"])
        #expect(books[2]["authors"] as? [String] == ["Terry Pratchett", "Neil Gaiman"])
        #expect(books[1]["isbn"] as? String == "0062500000")
        let price = try #require(books[0]["price"] as? [String: String])
        #expect(price == ["@currency": "USD", "#text": "39.99"])
    }

    @Test func failedRunLeavesNoFileAndNoSpools() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("out.plist")
        try Data("old".utf8).write(to: URL(fileURLWithPath: path))
        do {
            try FileOutput(path: path, format: .propertyList(.binary), replace: true).writeAndCommit { sink in
                try sink.write(factory.record("t", [("v", .text("x"))]))
                try sink.write(factory.record("u", [("v", .json("[not json", .array))]))
            }
            Issue.record("malformed nested JSON should throw")
        } catch let error as IngestError {
            #expect(error.kind == .data)
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data("old".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == ["out.plist"])
    }

    @Test func existingFileIsRefusedWithoutReplace() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("out.plist")
        try Data("old".utf8).write(to: URL(fileURLWithPath: path))
        let error = #expect(throws: IngestError.self) { try FileOutput(path: path, format: .propertyList(.xml)).open() }
        #expect(error?.kind == .output)
        #expect(error?.reason == .outputExists(appendable: false))
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data("old".utf8))
    }
}
