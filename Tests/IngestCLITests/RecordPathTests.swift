import Foundation
import Testing

@Suite("--records")
struct RecordPathTests {
    static let rss = """
        <?xml version="1.0"?>
        <rss version="2.0">
          <channel>
            <title>Example feed</title>
            <link>https://example.org/</link>
            <item>
              <title>First</title>
              <link>https://example.org/1</link>
              <guid>id-1</guid>
            </item>
            <item>
              <title>Second</title>
              <link>https://example.org/2</link>
              <guid>id-2</guid>
            </item>
          </channel>
        </rss>
        """

    @Test("rss/channel/item gives a table item with the two items")
    func rssItems() throws {
        let box = try Sandbox()
        try box.write("feed.rss", Self.rss)

        let result = try box.run(["-v", "feed.rss", "--records", "rss/channel/item"])

        #expect(result.status == 0, "\(result)")
        #expect(try box.tables("feed.db") == ["item"])
        #expect(
            try box.rows("feed.db", "SELECT title, link, guid FROM item ORDER BY rowid") == [
                ["First", "https://example.org/1", "id-1"],
                ["Second", "https://example.org/2", "id-2"]
            ])
        #expect((result.summary ?? "").hasPrefix("ingest: 2 records"), "\(result)")
    }

    @Test("people/person on folks.xml: the document element is the collection, table people")
    func twoStepPath() throws {
        let box = try Sandbox()
        try box.copyFolks()

        let result = try box.run(["folks.xml", "--records", "people/person"])

        #expect(result.status == 0, "\(result)")
        #expect(try box.tables("folks.db") == ["people"])
        #expect(try box.rows("folks.db", "SELECT firstName, lastName FROM people ORDER BY rowid") == folks)
    }

    @Test("A path that matches nothing exits 65 and writes nothing")
    func unmatchedPath() throws {
        let box = try Sandbox()
        try box.write("feed.rss", Self.rss)

        let result = try box.run(["feed.rss", "--records", "nope/x"])

        #expect(result.status == 65, "\(result)")
        #expect(try box.listing() == ["feed.rss"])
    }
}
