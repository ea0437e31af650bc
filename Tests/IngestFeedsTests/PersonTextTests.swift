import IngestFeeds
import Testing

@Suite("A person written as one string")
struct PersonTextTests {
    @Test(
        "gofeed's forms, and RFC 5322's",
        arguments: [
            ("email@example.org (Author Name)", "Author Name", "email@example.org"),
            ("Author Name (email@example.org)", "Author Name", "email@example.org"),
            ("Author Name", "Author Name", nil),
            ("email@example.org", nil, "email@example.org"),
            ("Author Name <email@example.org>", "Author Name", "email@example.org"),
            ("\"Author, Name\" <email@example.org>", "Author, Name", "email@example.org"),
            ("Zoë Ünïcödé", "Zoë Ünïcödé", nil)
        ] as [(String, String?, String?)])
    func forms(_ text: String, _ name: String?, _ email: String?) throws {
        let parsed = try feed(
            "<rss version=\"2.0\"><channel><managingEditor>\(text.replacingOccurrences(of: "<", with: "&lt;"))</managingEditor></channel></rss>"
        )
        #expect(parsed.author?.name == name)
        #expect(parsed.author?.email == email)
    }

    @Test("text that fits no form gives a person with neither, as gofeed does")
    func neither() throws {
        let parsed = try feed("<rss version=\"2.0\"><channel><item><author>a@b (c@d)</author></item></channel></rss>")
        #expect(parsed.items[0].author == Person())
        #expect(parsed.items[0].authors == [Person()])
    }
}
