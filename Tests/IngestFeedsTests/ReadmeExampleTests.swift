// swift-format-ignore-file
// (The Swift blocks of the documentation are checked to stand here as written.)
import Foundation
import IngestTestSupport
import IngestFeeds
import Testing

/// The example of Documentation/Feeds.md (once the README's), as written there but
/// for the sample's path (the tests do not change the working directory), with `print`
/// caught.
@Suite("The example of Documentation/Feeds.md")
struct ReadmeExampleTests {
    final class Output {
        var lines: [String] = []
    }

    @Test("prints the podcast's items, their enclosures and the feed")
    func example() throws {
        let output = Output()
        func print(_ line: String) { output.lines.append(line) }

        let url = URL(fileURLWithPath: "Samples/podcast.rss", relativeTo: packageRoot)
        let feed = try FeedReader().read(contentsOf: url) { item, feed in
            let date = item.publishedParsed?.rfc3339 ?? "undated"
            let title = item.title?.plainText ?? "(untitled)"
            print("\(date)  \(title)")
            for enclosure in item.enclosures {
                print("    \(enclosure.type ?? "?")  \(enclosure.url ?? "")")
            }
        }
        print("\(feed.title?.plainText ?? "?") (\(feed.format)), well-formed: \(feed.wellFormed)")

        #expect(output.lines == [
            "2026-11-19T06:00:00Z  Episode 42: The Last Sailmaker in Polperro",
            "    audio/mpeg  https://media.lowtide.example.org/ep42.mp3",
            "2026-11-05T06:00:00Z  Episode 41: Harbour Masters & Their Ledgers",
            "    audio/mpeg  https://media.lowtide.example.org/ep41.mp3",
            "2026-10-26T17:30:00Z  Bonus: Listener Letters, Autumn",
            "    audio/mpeg  https://media.lowtide.example.org/bonus-autumn.mp3",
            "Low Tide Radio (rss 2.0), well-formed: true",
        ])
    }
}
