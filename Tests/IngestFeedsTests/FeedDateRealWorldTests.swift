import Foundation
import IngestFeeds
import IngestTestSupport
import Testing

/// Every distinct date text of the feeds this project tests against (gofeed's
/// corpus, the samples), recorded in `Tests/Fixtures/feed-dates.json` with the
/// instant each stands for.
@Suite("Dates: the real-world date table")
struct FeedDateRealWorldTests {
    /// One row of the fixture: the text, and its instant in RFC 3339 (`nil`: not a date).
    struct Row: Decodable, Sendable, CustomTestStringConvertible {
        let text: String
        let rfc3339: String?
        var testDescription: String { text }
    }

    struct Fixture: Decodable {
        let dates: [Row]
    }

    static let fixtureURL = packageRoot.appendingPathComponent("Tests/Fixtures/feed-dates.json")

    static let rows: [Row] = {
        guard let data = try? Data(contentsOf: fixtureURL),
            let fixture = try? JSONDecoder().decode(Fixture.self, from: data)
        else { return [] }
        return fixture.dates
    }()

    @Test("the fixture is read and holds distinct texts")
    func fixtureLoads() {
        #expect(Self.rows.count >= 20)
        #expect(Set(Self.rows.map(\.text)).count == Self.rows.count)
    }

    @Test("each text gives its instant, or stays text", arguments: rows)
    func row(_ row: Row) {
        #expect(FeedDate(parsing: row.text)?.rfc3339 == row.rfc3339)
    }
}
