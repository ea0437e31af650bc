import Foundation
import IngestTestSupport
import IngestFeeds
import Testing

@Suite("The sample feeds")
struct SampleFeedTests {
    static func sample(_ name: String) -> URL { packageRoot.appendingPathComponent("Samples/\(name)") }

    @Test("podcast.rss: an RSS 2.0 podcast with iTunes and podcast: tags and enclosures")
    func podcast() throws {
        let podcast = try Feed(contentsOf: Self.sample("podcast.rss"))
        #expect(podcast.format == FeedFormat(.rss, version: "2.0"))
        #expect(podcast.wellFormed)
        #expect(podcast.title?.plainText == "Low Tide Radio")
        #expect(podcast.feedLink == "https://lowtide.example.org/podcast.rss")
        #expect(podcast.author == Person(name: "Maren Holt"))
        #expect(podcast.image?.url == "https://lowtide.example.org/art/cover-3000.jpg")
        #expect(podcast.categories == ["Society & Culture", "Places & Travel", "Leisure"])
        #expect(podcast.iTunes?.owner?.email == "maren@lowtide.example.org")
        #expect(podcast.extensions["podcast"]?["funding"]?.first?.value == "Keep the boats afloat")
        #expect(podcast.items.count == 3)
        let episode = podcast.items[0]
        #expect(episode.guid == "lowtide-ep-42")
        #expect(
            episode.enclosures == [
                Enclosure(
                    url: "https://media.lowtide.example.org/ep42.mp3", length: "48213760",
                    type: "audio/mpeg")
            ])
        #expect(episode.iTunes?.durationSeconds == 3013)
        #expect(episode.image?.url == "https://lowtide.example.org/img/ep42.jpg")
        #expect(episode.content?.plainText.hasPrefix("Jory Pascoe has cut canvas for sixty years.") == true)
        #expect(episode.extensions["podcast"]?["transcript"]?.first?.attributes["type"] == "text/vtt")
        #expect(podcast.items[1].title == FeedText("Episode 41: Harbour Masters & Their Ledgers", type: .text))
        #expect(podcast.items[1].image?.url == "https://lowtide.example.org/art/ep41.jpg")
        #expect(podcast.items[2].iTunes?.durationSeconds == 723)
        #expect(
            podcast.items.map { $0.publishedParsed?.rfc3339 } == [
                "2026-11-19T06:00:00Z", "2026-11-05T06:00:00Z", "2026-10-26T17:30:00Z"
            ])
    }

    @Test("news.atom: Atom 1.0 with xml:base, XHTML and HTML content, an enclosure")
    func atom() throws {
        let news = try Feed(contentsOf: Self.sample("news.atom"))
        #expect(news.format == FeedFormat(.atom, version: "1.0"))
        #expect(news.language == "en")
        #expect(news.link == "https://notes.example.net/")
        #expect(news.feedLink == "https://notes.example.net/news.atom")
        #expect(news.image?.url == "https://notes.example.net/images/logo.png")
        #expect(news.description == FeedText("Short posts on <em>maps</em>, trains and open data", type: .html))
        #expect(news.generator == "Hand-made v2.1 https://notes.example.net/colophon")
        #expect(news.authors.first?.url == "https://notes.example.net/about")
        #expect(news.updatedParsed?.rfc3339 == "2026-11-20T08:15:00Z")
        let trains = news.items[0]
        #expect(trains.link == "https://notes.example.net/2026/11/night-trains")
        #expect(trains.categories == ["Trains", "europe"])
        #expect(trains.content?.type == .xhtml)
        #expect(trains.content?.value.contains(#"<a href="https://notes.example.net/timetables/nj-468.pdf">"#) == true)
        #expect(
            trains.content?.plainText
                == "The sleeper returns three nights a week from December, calling at Munich & Strasbourg. Timetable: NJ 468 (PDF)"
        )
        let maps = news.items[1]
        #expect(maps.title?.plainText == "Mapping osm2pgsql output in five minutes")
        #expect(maps.publishedParsed == maps.updatedParsed)
        #expect(maps.author?.name == "Tomás Herrera")
        #expect(maps.enclosures.first?.url == "https://notes.example.net/media/osm2pgsql-demo.mp4")
        #expect(maps.content?.value.contains(#"src="https://notes.example.net/images/osm.png""#) == true)
    }

    @Test("feed.json: JSON Feed 1.1 with authors, tags and an attachment")
    func jsonFeed() throws {
        let recipes = try Feed(contentsOf: Self.sample("feed.json"))
        #expect(recipes.format == FeedFormat(.json, version: "1.1"))
        #expect(recipes.language == "en-US")
        #expect(recipes.authors.first?.avatar == "https://kitchentable.example.com/dana.jpg")
        #expect(recipes.items.count == 2)
        #expect(recipes.items[0].categories == ["soup", "vegetarian", "autumn"])
        #expect(recipes.items[0].publishedParsed?.rfc3339 == "2026-11-18T23:30:00Z")
        #expect(recipes.updated == "2026-11-19T08:05:12-05:00")
        #expect(
            recipes.items[1].links.map(\.href) == [
                "https://kitchentable.example.com/2026/11/kitchen-radio-ep-7",
                "https://radio.example.org/kitchen-table/7"
            ])
        #expect(recipes.items[1].enclosures.first?.byteCount == 23_761_904)
        #expect(recipes.items[1].authors.count == 2)
    }
}
