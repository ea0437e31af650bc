import Foundation
import Testing

/// An RSS 0.91 feed naming its public DTD and using the entities that DTD declares
/// (`&laquo;`, `&nbsp;`) was refused with 65 by both parsers (issue 27, item 11). It
/// is read now, the DTD never fetched: its entities come from ingest's own table,
/// and one nothing declares is kept as written with a warning.
@Suite("Entities of well-known DTDs")
struct KnownDTDCLITests {
    /// The issue's reproduction, with a Latin-1 byte (é) besides the references.
    static let rss091: Data = {
        var bytes = Array(
            """
            <?xml version="1.0" encoding="ISO-8859-1"?>
            <!DOCTYPE rss PUBLIC "-//Netscape Communications//DTD RSS 0.91//EN" "http://my.netscape.com/publish/formats/rss-0.91.dtd">
            <rss version="0.91"><channel><title>A &laquo;b&raquo; &nbsp;c</title><link>http://example.com/</link>
            <item><title>x &eacute; \u{1}&foo;</title><link>http://example.com/1</link></item></channel></rss>

            """.utf8)
        bytes[bytes.firstIndex(of: 1)!] = 0xE9
        return Data(bytes)
    }()

    static let warning =
        #"r091.rss:4:26: entity 'foo' is not declared in the document (the external DTD "http://my.netscape.com/publish/formats/rss-0.91.dtd" may declare it, and ingest never reads external declarations): kept as written, "&foo;""#

    @Test("Import with Expat and libxml2: exit 0, the values stored, one warning", arguments: ["expat", "libxml2"])
    func importBoth(_ parser: String) throws {
        let box = try Sandbox()
        try box.write("r091.rss", Self.rss091)

        let result = try box.run([
            "r091.rss", "--parser", parser, "--records", "rss/channel/item", "--to", "ndjson", "--out", "-"
        ])

        #expect(result.status == 0, "\(result)")
        #expect(result.stderrLines == ["ingest: warning: \(Self.warning)"], "\(result)")
        let record = try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any]
        #expect(record?["title"] as? String == "x é é&foo;", "\(result)")
    }

    @Test("Import into SQLite keeps the channel title with its expanded entities", arguments: ["expat", "libxml2"])
    func channelIntoSQLite(_ parser: String) throws {
        let box = try Sandbox()
        try box.write("r091.rss", Self.rss091)

        let result = try box.run(["r091.rss", "--parser", parser, "--records", "rss/channel", "--out", "r.db", "-q"])

        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.isEmpty, "quiet: no warning, \(result)")
        #expect(try box.rows("r.db", "select title from rss") == [["A «b» \u{A0}c"]])
    }

    @Test("ingest feed reads it strictly (no recovery), the same values and warning")
    func feed() throws {
        let box = try Sandbox()
        try box.write("r091.rss", Self.rss091)

        let result = try box.run(["feed", "r091.rss", "--to", "ndjson", "--out", "-"])

        #expect(result.status == 0, "\(result)")
        #expect(result.stderrLines == ["ingest: warning: \(Self.warning)"], "\(result)")
        let item = try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any]
        #expect(item?["title"] as? String == "x é é&foo;", "\(result)")

        // The feed's own title, and no recovering read: -v would say "recovering mode".
        let json = try box.run(["feed", "r091.rss", "--to", "json", "--out", "-", "-v"])
        #expect(json.status == 0, "\(json)")
        let feed = try JSONSerialization.jsonObject(with: json.stdout) as? [String: Any]
        #expect(feed?["title"] as? String == "A «b» \u{A0}c", "\(json)")
        #expect(json.stderr.contains("r091.rss: 1 item") && !json.stderr.contains("recovering"), "\(json)")
    }

    @Test("ingest feed from standard input (recovering from the start): the DTD's entities are no repair")
    func feedFromStandardInput() throws {
        let box = try Sandbox()

        let result = try box.run(["feed", "-", "--to", "json", "--out", "-", "-v"], stdin: Self.rss091)

        #expect(result.status == 0, "\(result)")
        let feed = try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any]
        #expect(feed?["title"] as? String == "A «b» \u{A0}c", "\(result)")
        let items = feed?["items"] as? [[String: Any]]
        #expect(items?.first?["title"] as? String == "x é é&foo;", "\(result)")
        #expect(
            result.stderr.contains(
                "ingest: warning: \(Self.warning.replacingOccurrences(of: "r091.rss:", with: "<stdin>:"))"),
            "\(result)")
        #expect(result.stderr.contains("<stdin>: 1 item\n"), "not read as malformed: \(result)")
    }

    @Test("Without the DOCTYPE the same references are malformed: 65", arguments: ["expat", "libxml2"])
    func withoutDoctype(_ parser: String) throws {
        let box = try Sandbox()
        try box.write("plain.rss", "<rss><channel><title>A &laquo;b</title></channel></rss>\n")

        let result = try box.run(["plain.rss", "--parser", parser, "--to", "ndjson", "--out", "-"])

        #expect(result.status == 65, "\(result)")
        #expect(result.stderr.contains("plain.rss:1:"), "\(result)")
    }
}
