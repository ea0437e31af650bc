import Foundation
import Testing

/// The seed's Person exactly as its `encodeWithCoder:` writes it: keys `first` and `last`.
final class SeedPerson: NSObject, NSSecureCoding {
    static var supportsSecureCoding: Bool { true }
    let first: String
    let last: String

    func encode(with coder: NSCoder) {
        coder.encode(first, forKey: "first")
        coder.encode(last, forKey: "last")
    }

    init?(coder: NSCoder) {
        guard let first = coder.decodeObject(of: NSString.self, forKey: "first"),
            let last = coder.decodeObject(of: NSString.self, forKey: "last")
        else { return nil }
        self.first = first as String
        self.last = last as String
    }
}

@Suite("--schema: declared records, types, keys, child tables, upsert and rejects")
struct SchemaCLITests {
    static let schemas = Locations.packageRoot.appendingPathComponent("Schemas")

    static func schema(_ name: String) -> String { schemas.appendingPathComponent(name).path }

    /// People in the benchmark data's shape, with `tags` of the given sizes.
    static func people(_ tags: [[String]], firstNames: [String]? = nil, id: (Int) -> String = { String($0 + 1) })
        -> String
    {
        var xml = "<?xml version=\"1.0\"?>\n<people>\n"
        for (index, list) in tags.enumerated() {
            xml += """
                  <person id="\(id(index))" active="\(index % 2 == 0)">
                    <firstName>\(firstNames?[index] ?? "First\(index)")</firstName>
                    <lastName>Last\(index)</lastName>
                    <email>user\(index)@example.org</email>
                    <born>1961-04-05</born>
                    <score>\(Double(index) + 0.5)</score>
                    <bio>bio of \(index)</bio>
                    <tags>\(list.map { "<tag>\($0)</tag>" }.joined())</tags>
                  </person>

                """
        }
        return xml + "</people>\n"
    }

    @Test("folks.json --to archive: NSKeyedUnarchiver decodes Person objects that read the keys first and last")
    func folksArchiveUsesSeedKeys() throws {
        let box = try Sandbox()
        try box.copyFolks()

        let result = try box.run(["folks.xml", "--schema", Self.schema("folks.json"), "--to", "archive"])

        #expect(result.status == 0, "\(result)")
        let unarchiver = try NSKeyedUnarchiver(forReadingFrom: try box.contents("folks.archive"))
        unarchiver.decodingFailurePolicy = .setErrorAndReturn
        unarchiver.setClass(SeedPerson.self, forClassName: "Person")
        let people =
            unarchiver.decodeObject(of: [NSArray.self, SeedPerson.self], forKey: NSKeyedArchiveRootObjectKey)
            as? [SeedPerson]
        #expect(unarchiver.error == nil)
        #expect(
            people?.map { [$0.first, $0.last] } == [["Matt", "Neuburg"], ["Snidely", "Whiplash"], ["Dudley", "Doright"]]
        )
    }

    @Test("folks.json names columns after the fields, with NOT NULL for required ones")
    func folksDatabase() throws {
        let box = try Sandbox()
        try box.copyFolks()

        let result = try box.run(["-v", "folks.xml", "--schema", Self.schema("folks.json")])

        #expect(result.status == 0, "\(result)")
        #expect(try box.rows("folks.db", "SELECT firstName, lastName FROM people") == folks)
        #expect(
            try box.rows("folks.db", "SELECT name, type, \"notnull\" FROM pragma_table_info('people')")
                == [["firstName", "TEXT", "1"], ["lastName", "TEXT", "1"]])
        #expect(
            result.stderr.contains("3 records in 1 table (people)") && result.stderr.contains("0 rejected"), "\(result)"
        )
    }

    @Test("people with tags: two tables joined by a foreign key, every tag a row, foreign_key_check empty")
    func childEntity() throws {
        let box = try Sandbox()
        let tags = [["a"], [], ["b", "c", "d"], ["e", "f"]]
        try box.write("people.xml", Self.people(tags))

        let result = try box.run(["people.xml", "--schema", Self.schema("people-with-tags.json")])

        #expect(result.status == 0, "\(result)")
        #expect(try box.rows("people.db", "SELECT count(*) FROM people") == [["4"]])
        #expect(try box.rows("people.db", "SELECT count(*) FROM tags") == [[String(tags.joined().count)]])
        #expect(
            try box.rows("people.db", "SELECT person_id, tag FROM tags ORDER BY rowid")
                == [["1", "a"], ["3", "b"], ["3", "c"], ["3", "d"], ["4", "e"], ["4", "f"]])
        #expect(try box.rows("people.db", "PRAGMA foreign_key_check") == [])
        #expect(
            try box.rows("people.db", "SELECT \"table\", \"from\", \"to\" FROM pragma_foreign_key_list('tags')")
                == [["people", "person_id", "id"]])
        #expect(
            try box.rows("people.db", "SELECT typeof(id), typeof(active), typeof(score), born FROM people WHERE id = 1")
                == [["integer", "integer", "real", "1961-04-05"]])
    }

    @Test(
        "the shared benchmark people.xml: tag rows match the input's <tag> count",
        .enabled(
            if: SharedData.available, "../shared/bench/gen_people.py (beside the clone) or python3 is missing: skipped")
    )
    func benchmarkPeopleTags() throws {
        let box = try Sandbox()
        let data = try SharedData.generate(records: 300, in: box)
        let xml = try String(contentsOfFile: data + "/people.xml", encoding: .utf8)
        let tagCount = xml.components(separatedBy: "<tag>").count - 1

        let result = try box.run([
            data + "/people.xml", "--schema", Self.schema("people-with-tags.json"), "--out", "p.db"
        ])

        #expect(result.status == 0, "\(result)")
        #expect(try box.rows("p.db", "SELECT count(*) FROM people") == [["300"]])
        #expect(try box.rows("p.db", "SELECT count(*) FROM tags") == [[String(tagCount)]])
        #expect(try box.rows("p.db", "PRAGMA foreign_key_check") == [])

        let json = try box.run([
            data + "/people.json", "--schema", Self.schema("people-with-tags-json.json"), "--out", "j.db"
        ])
        #expect(json.status == 0, "\(json)")
        #expect(try box.rows("j.db", "SELECT count(*) FROM tags") == [[String(tagCount)]])
        #expect(
            try box.rows("j.db", "SELECT id, active, firstName, score FROM people ORDER BY id")
                == box.rows("p.db", "SELECT id, active, firstName, score FROM people ORDER BY id"))

        let posts = try box.run([data + "/posts.xml", "--schema", Self.schema("posts.json"), "--out", "posts.db"])
        #expect(posts.status == 0, "\(posts)")
        #expect(
            try box.rows("posts.db", "SELECT count(*), typeof(id), typeof(active), typeof(score) FROM posts")
                == [["300", "integer", "integer", "real"]])
        #expect(
            try box.rows("posts.db", "SELECT firstName, email, born FROM posts ORDER BY id")
                == box.rows("p.db", "SELECT firstName, email, born FROM people ORDER BY id"))
    }

    @Test("--upsert twice: row counts unchanged, newer values taken; child rows added, never deleted")
    func upsertTwice() throws {
        let box = try Sandbox()
        try box.write("people.xml", Self.people([["a", "b"], ["c"], []]))
        let arguments = [
            "people.xml", "--schema", Self.schema("people-with-tags.json"), "--upsert", "--out", "p.db", "-q"
        ]
        try #require(try box.run(arguments).status == 0)
        try #require(try box.run(arguments).status == 0)
        #expect(try box.rows("p.db", "SELECT count(*) FROM people") == [["3"]])
        #expect(try box.rows("p.db", "SELECT count(*) FROM tags") == [["3"]])

        // Newer data: a renamed person whose tags changed, and a new person.
        try box.write(
            "people.xml",
            Self.people(
                [["a", "b"], ["x", "y", "z"], [], ["new"]],
                firstNames: ["First0", "Renamed", "First2", "First3"]))
        let result = try box.run(arguments)

        #expect(result.status == 0, "\(result)")
        #expect(try box.rows("p.db", "SELECT count(*) FROM people") == [["4"]])
        #expect(try box.rows("p.db", "SELECT firstName FROM people WHERE id = 2") == [["Renamed"]])
        // The old tag stays (an upsert never deletes what the input does not mention);
        // the new ones are added once, however often the run is repeated.
        #expect(
            try box.rows("p.db", "SELECT tag FROM tags WHERE person_id = 2 ORDER BY rowid") == [
                ["c"], ["x"], ["y"], ["z"]
            ])
        #expect(try box.rows("p.db", "SELECT count(*) FROM tags") == [["7"]])
        #expect(try box.rows("p.db", "PRAGMA foreign_key_check") == [])
        try #require(try box.run(arguments).status == 0)
        #expect(try box.rows("p.db", "SELECT count(*) FROM tags") == [["7"]])
    }

    @Test("without --upsert, a second run into the same database is refused and the file is unchanged")
    func secondRunWithoutUpsert() throws {
        let box = try Sandbox()
        try box.write("people.xml", Self.people([["a"]]))
        try #require(try box.run(["people.xml", "--schema", Self.schema("people-with-tags.json"), "-q"]).status == 0)
        let before = try box.contents("people.db")

        let result = try box.run(["people.xml", "--schema", Self.schema("people-with-tags.json"), "--append", "-q"])

        #expect(result.status == 65, "\(result)")
        #expect(result.stderr.contains("UNIQUE") || result.stderr.contains("PRIMARY KEY"), "\(result)")
        #expect(try box.contents("people.db") == before)
    }

    @Test("a non-integer id fails the run by default: exit 65 with file:line:column, nothing written")
    func nonIntegerFails() throws {
        let box = try Sandbox()
        try box.write("people.xml", Self.people([["a"], ["b"], ["c"]], id: { $0 == 1 ? "x7" : String($0 + 1) }))

        let result = try box.run(["people.xml", "--schema", Self.schema("people-with-tags.json")])

        #expect(result.status == 65, "\(result)")
        #expect(result.stderr.contains("people.xml:12:"), "\(result)")
        #expect(result.stderr.contains("\"x7\" is not an integer"), "\(result)")
        #expect(!box.exists("people.db"))
        #expect(try box.temporaryLeftovers() == [])
    }

    @Test("--on-error skip --rejects: the record is left out and written with its line and reason")
    func nonIntegerSkipped() throws {
        let box = try Sandbox()
        try box.write("people.xml", Self.people([["a"], ["b"], ["c"]], id: { $0 == 1 ? "x7" : String($0 + 1) }))

        let result = try box.run([
            "-v", "people.xml", "--schema", Self.schema("people-with-tags.json"),
            "--on-error", "skip", "--rejects", "r.ndjson"
        ])

        #expect(result.status == 0, "\(result)")
        #expect(try box.rows("people.db", "SELECT id FROM people ORDER BY id") == [["1"], ["3"]])
        #expect(try box.rows("people.db", "SELECT tag FROM tags ORDER BY rowid") == [["a"], ["c"]])
        #expect(
            result.stderr.contains("2 records") == false && result.stderr.contains("1 rejected (see r.ndjson)"),
            "\(result)")
        let lines = try String(decoding: box.contents("r.ndjson"), as: UTF8.self).split(separator: "\n")
        try #require(lines.count == 1)
        let reject = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        #expect(reject["file"] as? String == "people.xml")
        #expect(reject["line"] as? Int == 12)
        #expect(reject["record_line"] as? Int == 12)
        #expect(reject["entity"] as? String == "person")
        #expect(reject["field"] as? String == "id")
        #expect(reject["value"] as? String == "x7")
        #expect((reject["reason"] as? String)?.contains("not an integer") == true)
    }

    @Test("--max-errors 2 fails the run at the second reject; the rejects file still says why")
    func maxErrors() throws {
        let box = try Sandbox()
        try box.write("people.xml", Self.people([[], [], [], []], id: { $0 == 0 ? String($0 + 1) : "n\($0)" }))

        let result = try box.run([
            "people.xml", "--schema", Self.schema("people-with-tags.json"),
            "--on-error", "skip", "--rejects", "r.ndjson", "--max-errors", "2"
        ])

        #expect(result.status == 65, "\(result)")
        #expect(result.stderr.contains("--max-errors 2"), "\(result)")
        #expect(!box.exists("people.db"))
        #expect(String(decoding: try box.contents("r.ndjson"), as: UTF8.self).split(separator: "\n").count == 2)
    }

    @Test("a missing required field is rejected; a default fills an absent optional one")
    func requiredAndDefault() throws {
        let box = try Sandbox()
        try box.write(
            "p.xml",
            """
            <people>
              <person id="1"><firstName>A</firstName><lastName>B</lastName><email>a@x</email></person>
              <person id="2"><firstName>C</firstName><email>c@x</email></person>
            </people>
            """)

        let result = try box.run([
            "p.xml", "--schema", Self.schema("people-with-tags.json"), "--on-error", "skip", "--rejects", "r.ndjson"
        ])

        #expect(result.status == 0, "\(result)")
        #expect(try box.rows("p.db", "SELECT id, active, born FROM people") == [["1", "0", nil]])
        #expect(String(decoding: try box.contents("r.ndjson"), as: UTF8.self).contains("missing required field"))
    }

    @Test("types: date with a format, datetime to UTC, base64 data, predicates, names per output")
    func typesAndPredicates() throws {
        let box = try Sandbox()
        let schema = try box.write(
            "events.json",
            """
            {"entities": [{
              "name": "event", "records": "log/event[@kind='login']", "table": "logins",
              "fields": [
                {"name": "day", "source": "@day", "type": "date", "format": "dd/MM/yyyy"},
                {"name": "at", "type": "datetime", "column": "at_utc", "plistKey": "when"},
                {"name": "blob", "source": "payload", "type": "data"},
                {"name": "who", "source": "user/@name", "required": true},
                {"name": "meta", "type": "json"}
              ]
            }]}
            """)
        try box.write(
            "log.xml",
            """
            <log>
              <event kind="login" day="03/02/2024"><at>2024-02-03T10:00:00+02:00</at><payload> AAEC
               /w== </payload><user name="ann"/><meta><a>1</a><b>2</b></meta></event>
              <event kind="logout" day="04/02/2024"><at>2024-02-04T10:00:00Z</at><user name="bob"/></event>
              <event kind="login" day="05/02/2024"><at>2024-02-05T23:30:00.250Z</at><user name="cy"/></event>
            </log>
            """)

        let result = try box.run(["log.xml", "--schema", schema, "-q"])

        #expect(result.status == 0, "\(result)")
        #expect(
            try box.rows("log.db", "SELECT day, at_utc, hex(blob), who, meta FROM logins")
                == [
                    ["2024-02-03", "2024-02-03T08:00:00Z", "000102FF", "ann", #"{"a":"1","b":"2"}"#],
                    ["2024-02-05", "2024-02-05T23:30:00.25Z", "", "cy", nil]
                ]  // hex(NULL) is ''
        )
        #expect(
            try box.rows("log.db", "SELECT name, type FROM pragma_table_info('logins')")
                == [["day", "TEXT"], ["at_utc", "TEXT"], ["blob", "BLOB"], ["who", "TEXT"], ["meta", "TEXT"]])

        let plist = try box.run(["log.xml", "--schema", schema, "--to", "plist", "-q"])
        #expect(plist.status == 0, "\(plist)")
        let items =
            try PropertyListSerialization.propertyList(from: box.contents("log.plist"), format: nil) as? [[String: Any]]
        #expect(items?.count == 2)
        #expect(items?.first?["when"] as? Date == ISO8601DateFormatter().date(from: "2024-02-03T08:00:00Z"))
        #expect(items?.first?["blob"] as? Data == Data([0, 1, 2, 0xFF]))
    }

    @Test(
        "ingest schema infer, then --schema with what it printed, gives the automatic mapping's tables and rows",
        arguments: [
            ("folks.xml", []), ("folks.json", []), ("catalog.xml", []), ("feed.rss", ["--records", "rss/channel/item"])
        ])
    func inferredSchemaReproducesAutomaticMapping(sample: String, records: [String]) throws {
        let box = try Sandbox()
        let input = Locations.packageRoot.appendingPathComponent("Samples/\(sample)").path
        let infer = try box.run(["schema", "infer", input, "--out", "inferred.json"] + records)
        try #require(infer.status == 0, "\(infer)")
        let automatic = try box.run([input, "--out", "auto.db", "-q"] + records)
        let declared = try box.run([input, "--schema", box.path("inferred.json"), "--out", "schema.db", "-q"])
        try #require(automatic.status == 0 && declared.status == 0, "\(automatic) \(declared)")

        let tables = try box.tables("auto.db")
        #expect(try box.tables("schema.db") == tables)
        for table in tables {
            #expect(try box.columns("schema.db", table: table) == box.columns("auto.db", table: table))
            let query = "SELECT * FROM \"\(table)\" ORDER BY rowid"
            #expect(try box.rows("schema.db", query) == box.rows("auto.db", query), "\(sample): \(table)")
        }
    }

    @Test(
        "the inferred schema of the benchmark people.xml and people.json reproduces their automatic mapping",
        .enabled(
            if: SharedData.available, "../shared/bench/gen_people.py (beside the clone) or python3 is missing: skipped")
    )
    func inferredSchemaOnBenchmarkData() throws {
        let box = try Sandbox()
        let data = try SharedData.generate(records: 400, in: box)
        for file in ["people.xml", "people.json", "posts.xml", "people.ndjson"] {
            let input = data + "/" + file
            try #require(
                try box.run(["schema", "infer", input, "--out", "\(file).schema.json", "--sample", "50"]).status == 0)
            #expect(try box.run([input, "--out", "\(file).auto.db", "-q"]).status == 0)
            let declared = try box.run([
                input, "--schema", box.path("\(file).schema.json"), "--out", "\(file).schema.db", "-q"
            ])
            #expect(declared.status == 0, "\(declared)")
            for table in try box.tables("\(file).auto.db") {
                let query = "SELECT * FROM \"\(table)\" ORDER BY rowid"
                #expect(
                    try box.rows("\(file).schema.db", query) == box.rows("\(file).auto.db", query), "\(file): \(table)")
            }
        }
    }

    @Test("a bad schema: exit 64 naming the file, a JSON pointer and what would be valid; a missing one exits 66")
    func schemaErrors() throws {
        let box = try Sandbox()
        try box.copyFolks()
        let cases: [(String, String)] = [
            (
                #"{"entities": [{"name": "p", "records": "people/person", "fields": [{"name": "a", "type": "int"}]}]}"#,
                "/entities/0/fields/0/type: \"int\" is not a type; expected one of text, integer"
            ),
            (
                #"{"entities": [{"name": "p", "records": "people/person", "fields": [{"name": "a", "colum": "b"}]}]}"#,
                "/entities/0/fields/0/colum: unknown member \"colum\""
            ),
            (
                #"{"entities": [{"name": "p", "records": "people/person", "primaryKey": "idd", "fields": [{"name": "id"}]}]}"#,
                "/entities/0/primaryKey/0: no field named \"idd\"; fields are id"
            ),
            (
                #"{"entities": [{"name": "p", "records": "people/person", "fields": [{"name": "n", "type": "integer", "default": "x"}]}]}"#,
                "/entities/0/fields/0/default: \"x\" is not an integer"
            ),
            (
                #"{"entities": [{"name": "p", "records": "people/person", "fields": [{"name": "a"}], "children": [{"name": "t", "records": "t", "fields": [{"name": "t"}]}]}]}"#,
                "/entities/0/primaryKey: entity \"p\" has child entities, so it needs a primaryKey"
            ),
            (
                #"{"entities": [{"name": "p", "records": "people/person[x='1']/y", "fields": [{"name": "a"}]}]}"#,
                "/entities/0/records: predicates are allowed on the last step only"
            ),
            (
                #"{"entities": [{"name": "p", "records": "people/person", "fields": [{"name": "a"}]},"#,
                "not valid JSON"
            )
        ]
        for (text, expected) in cases {
            let schema = try box.write("bad.json", text)
            let result = try box.run(["folks.xml", "--schema", schema])
            #expect(result.status == 64, "\(text): \(result)")
            #expect(result.stderr.contains("bad.json: "), "\(result)")
            #expect(result.stderr.contains(expected), "\(text): \(result)")
            #expect(!box.exists("folks.db"))
        }
        let missing = try box.run(["folks.xml", "--schema", "nowhere.json"])
        #expect(missing.status == 66, "\(missing)")
    }

    @Test("--upsert, --on-error, --rejects and --max-errors are usage errors where they cannot apply")
    func optionChecks() throws {
        let box = try Sandbox()
        try box.copyFolks()
        let schema = Self.schema("folks.json")
        for arguments in [
            ["--upsert"], ["--on-error", "skip"], ["--schema", schema, "--rejects", "r.ndjson"],
            ["--schema", schema, "--upsert", "--to", "plist"], ["--schema", schema, "--records", "people/person"],
            ["--schema", schema, "--on-error", "skip", "--max-errors", "0"]
        ] {
            let result = try box.run(["folks.xml"] + arguments)
            #expect(result.status == 64, "\(arguments): \(result)")
        }
        let keyless = try box.run(["folks.xml", "--schema", schema, "--upsert"])
        #expect(keyless.status == 64, "\(keyless)")
        #expect(keyless.stderr.contains("declares none; add \"primaryKey\""), "\(keyless)")
    }
}

/// The benchmark data generator in ../shared beside the clone.
enum SharedData {
    static let generator = Locations.packageRoot.deletingLastPathComponent()
        .appendingPathComponent("shared/bench/gen_people.py")

    /// The generator and a `python3` to run it.
    static var available: Bool {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let python = path.split(separator: ":").contains {
            FileManager.default.isExecutableFile(atPath: "\($0)/python3")
        }
        return python && FileManager.default.fileExists(atPath: generator.path)
    }

    /// Generates `records` people in every shape into `directory` (default `data/`)
    /// in the sandbox; returns its path.
    static func generate(records: Int, in box: Sandbox, directory name: String = "data") throws -> String {
        let directory = box.path(name)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", generator.path, String(records), directory]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "gen_people.py failed")
        return directory
    }
}
