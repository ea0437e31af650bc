import Testing
@testable import IngestCore
import IngestTesting
import IngestTestSupport

@Suite struct AutomaticMappingTests {
    @Test func folksBecomeThreeRecordsInTablePeople() throws {
        let sink = try mapXML(String(contentsOfFile: folksURL.path, encoding: .utf8))
        #expect(sink.records.map(\.table) == ["people", "people", "people"])
        #expect(sink.records.map { $0.fields["firstName"] } == [.text("Matt"), .text("Snidely"), .text("Dudley")])
        #expect(sink.records.map { $0.fields["lastName"] } == [.text("Neuburg"), .text("Whiplash"), .text("Doright")])
        #expect(sink.records[0].order == ["firstName", "lastName"])
    }

    @Test func attributesAndLeavesBecomeTypedFields() throws {
        let sink = try mapXML(
            #"<people><person id="7" active="true"><score>-1.5</score><zip>007</zip></person></people>"#)
        let row = try #require(sink.records.first)
        #expect(row.order == ["id", "active", "score", "zip"])
        #expect(row.fields["id"] == .number(.init(text: "7", kind: .integer)))
        #expect(row.fields["active"] == .text("true"))
        #expect(row.fields["score"] == .number(.init(text: "-1.5", kind: .real)))
        #expect(row.fields["zip"] == .text("007"))
    }

    @Test func nestedListsAndObjectsBecomeJSON() throws {
        let sink = try mapXML(
            """
            <people><person>
              <tags><tag>a</tag><tag>"b"</tag></tags>
              <address kind="home"><city>Zürich</city><zip>8000</zip></address>
              <empty></empty>
            </person></people>
            """)
        let row = try #require(sink.records.first)
        #expect(row.fields["tags"] == .json(#"["a","\"b\""]"#, .array))
        #expect(row.fields["address"] == .json(#"{"@kind":"home","city":"Zürich","zip":"8000"}"#, .object))
        #expect(row.fields["empty"] == .text(""))
    }

    @Test func aLeafRepeatedInARecordBecomesAList() throws {
        let sink = try mapXML("<r><item><tag>x</tag><n>1</n><tag>y</tag><tag>z</tag></item></r>")
        #expect(sink.records.first?.fields["tag"] == .json(#"["x","y","z"]"#, .array))
        #expect(sink.records.first?.order == ["tag", "n"])
    }

    @Test func aRecordsOwnTextIsAFieldNamedAfterIt() throws {
        let sink = try mapXML("<tags><tag>swift</tag><tag>xml</tag></tags>")
        #expect(sink.records.map { $0.fields["tag"] } == [.text("swift"), .text("xml")])
        #expect(sink.records.map(\.table) == ["tags", "tags"])
    }

    @Test func aCollectionWithOtherContentIsRenamedAfterTheRecords() throws {
        let sink = try mapXML("<root><row a=\"1\"/><row a=\"2\"/><meta>x</meta></root>")
        #expect(sink.renames.map { "\($0.0)->\($0.1)" } == ["root->row"])
        #expect(sink.records.map(\.table) == ["row", "row", "meta"])
    }

    @Test func recordPathSelectsDeepRecordsAndNamesThemAfterThemselves() throws {
        let rss = """
            <rss version="2.0"><channel><title>News</title><link>http://x</link>
            <item><title>One</title><guid>1</guid></item>
            <item><title>Two</title><guid>2</guid></item>
            </channel></rss>
            """
        let sink = try mapXML(rss, records: "rss/channel/item")
        #expect(sink.records.map(\.table) == ["item", "item"])
        #expect(sink.records.map { $0.fields["title"] } == [.text("One"), .text("Two")])
    }

    @Test func aTwoStepRecordPathMakesTheDocumentElementTheCollection() throws {
        let folks = try String(contentsOfFile: folksURL.path, encoding: .utf8)
        let sink = try mapXML(folks, records: "people/person")
        #expect(sink.records.map(\.table) == ["people", "people", "people"])
        #expect(sink.records.map { $0.fields["lastName"] } == [.text("Neuburg"), .text("Whiplash"), .text("Doright")])
        let other = try mapXML("<people><person a=\"1\"/><pet a=\"2\"/></people>", records: "people/person")
        #expect(
            other.records.map(\.table) == ["person"], "a collection holding other elements is named after its records")
        let error = #expect(throws: IngestError.self) { try mapXML(folks, records: "staff/person") }
        #expect(error?.message.contains("document element is <people>") == true)
    }

    @Test func recordPathThatMatchesNothingIsAnError() {
        let error = #expect(throws: IngestError.self) { try mapXML("<a><b/></a>", records: "a/c/d") }
        #expect(error?.message.contains("no element matches") == true)
        let rootError = #expect(throws: IngestError.self) { try mapXML("<a><b/></a>", records: "x/b") }
        #expect(rootError?.message.contains("document element is <a>") == true)
    }

    @Test func recordPathNeedsParentAndRecordInXML() throws {
        #expect(throws: IngestError.self) { try RecordPath("") }
        #expect(throws: IngestError.self) { try RecordPath("people//person") }
        #expect((try? RecordPath("/people/person"))?.steps == ["people", "person"])
        // One step names a top-level JSON array's items; XML needs the parent too.
        let single = try RecordPath("item")
        #expect(throws: IngestError.self) {
            try AutomaticRecordMapping(recordPath: single).mapping(for: .xml, inputName: "x", into: RecordCollector())
                .makeRootHandler()
        }
        #expect(throws: Never.self) {
            try AutomaticRecordMapping(recordPath: single).mapping(for: .json, inputName: "x", into: RecordCollector())
                .makeRootHandler()
        }
        let error = #expect(throws: IngestError.self) { try mapXML("<people><person/></people>", records: "person") }
        #expect(error?.kind == .usage)
        #expect(error?.reason == .invalidRecordPath("person"))
    }
}
