import Foundation
import Testing

/// A typo in a record path must never replace an output with an empty one
/// (issue 15, item 1), and nested schema entities both get their records (item 2).
@Suite("Record paths that match no record, nested schema entities")
struct UnmatchedRecordsTests {
    static let outputs = ["db", "plist", "archive", "json", "ndjson"]

    @Test(
        "--records people/persn --replace: exit 65 naming the path and people/person; the old output byte for byte",
        arguments: outputs)
    func typoKeepsOutput(to: String) throws {
        let box = try Sandbox()
        try box.copyFolks()
        try #require(try box.run(["folks.xml", "--to", to, "--out", "out"]).status == 0)
        let before = try box.contents("out")

        let result = try box.run(["folks.xml", "--records", "people/persn", "--to", to, "--out", "out", "--replace"])

        #expect(result.status == 65, "\(result)")
        #expect(
            result.stderr
                == "ingest: folks.xml: no record matches the record path people/persn: <people> holds no <persn> (--records); records are at people/person\n",
            "\(result)")
        #expect(try box.contents("out") == before)
        #expect(try box.listing() == ["folks.xml", "out"])
    }

    @Test("JSON: the suggestion is people/item", arguments: ["db", "ndjson"])
    func jsonTypo(to: String) throws {
        let box = try Sandbox()
        try box.write(
            "folks.json", try Data(contentsOf: Locations.packageRoot.appendingPathComponent("Samples/folks.json")))
        let result = try box.run(["folks.json", "--records", "people/persn", "--to", to])
        #expect(result.status == 65, "\(result)")
        #expect(result.stderr.contains("records are at people/item"), "\(result)")
        #expect(try box.listing() == ["folks.json"])
    }

    @Test("A first step that is not the document element: 65 with the suggestion, a wrong document element too")
    func documentElement() throws {
        let box = try Sandbox()
        try box.copyFolks()
        try box.write("feed.rss", RecordPathTests.rss)
        let typo = try box.run(["folks.xml", "--records", "peple/person"])
        #expect(typo.status == 65, "\(typo)")
        #expect(
            typo.stderr.contains(
                "the document element is <people>, but the record path peple/person starts at <peple> (--records); records are at people/person"
            ), "\(typo)")
        let rss = try box.run(["feed.rss", "--records", "rss/channel/itme", "--out", "feed.db"])
        #expect(rss.status == 65, "\(rss)")
        #expect(rss.stderr.contains("records are at rss/channel/item, "), "\(rss)")
        #expect(try box.listing() == ["feed.rss", "folks.xml"])
    }

    @Test(
        "With --schema, a records path that matches nothing: 65 with suggestions; the old output byte for byte",
        arguments: outputs)
    func schemaTypo(to: String) throws {
        let box = try Sandbox()
        try box.copyFolks()
        try box.write(
            "good.json",
            #"{"entities": [{"name": "person", "records": "people/person", "fields": [{"name": "firstName"}]}]}"#)
        try box.write(
            "typo.json",
            #"{"entities": [{"name": "person", "records": "people/persn", "fields": [{"name": "firstName"}]}]}"#)
        try #require(try box.run(["folks.xml", "--schema", "good.json", "--to", to, "--out", "out"]).status == 0)
        let before = try box.contents("out")

        let result = try box.run(["folks.xml", "--schema", "typo.json", "--to", to, "--out", "out", "--replace"])

        #expect(result.status == 65, "\(result)")
        #expect(
            result.stderr
                == "ingest: folks.xml: no record matches the schema's records path people/persn in typo.json: the records' parent holds none; records are at people/person (\"records\" in the schema)\n",
            "\(result)")
        #expect(try box.contents("out") == before)
    }

    @Test("--schema with entities at rss/channel and rss/channel/item: both tables filled")
    func nestedEntities() throws {
        let box = try Sandbox()
        try box.write("feed.rss", RecordPathTests.rss)
        try box.write(
            "s.json",
            """
            {"entities": [
              {"name": "channel", "records": "rss/channel", "table": "channel", "fields": [{"name": "title"}, {"name": "link"}]},
              {"name": "item", "records": "rss/channel/item", "table": "item", "primaryKey": "guid", "fields": [{"name": "guid"}, {"name": "title"}]}]}
            """)

        let result = try box.run(["feed.rss", "--schema", "s.json", "-v"])

        #expect(result.status == 0, "\(result)")
        #expect(
            try box.rows("feed.db", "SELECT title, link FROM channel") == [["Example feed", "https://example.org/"]])
        #expect(
            try box.rows("feed.db", "SELECT guid, title FROM item ORDER BY guid") == [
                ["id-1", "First"], ["id-2", "Second"]
            ])

        let json = try box.run(["feed.rss", "--schema", "s.json", "--to", "json", "--out", "-"])
        #expect(json.status == 0, "\(json)")
        let object = try JSONSerialization.jsonObject(with: json.stdout) as? [String: [[String: String]]]
        #expect(object?["item"]?.map { $0["guid"] } == ["id-1", "id-2"])
        #expect(object?["channel"]?.first?["title"] == "Example feed")
    }
}
