import Foundation
import IngestFeedFetch
import Podcast
import Testing
import TinyHTTPServer

/// Samples/podcast.rss as the app's model, read from the file and over HTTP.
@Suite("PodcastModel's show and episodes")
struct PodcastTests {
    static let sample = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../../../Samples/podcast.rss").standardized

    @Test("the show and its newest episode, every typed field")
    func fromFile() throws {
        check(try Show(contentsOf: Self.sample.path))
    }

    @Test("the same show fetched from 127.0.0.1")
    func overHTTP() async throws {
        let server = try TinyHTTPServer()
        defer { server.stop() }
        let body = try [UInt8](Data(contentsOf: Self.sample))
        server.route("/podcast.rss") { _ in .init(headers: [("Content-Type", "application/rss+xml")], body: body) }
        let fetcher = FeedFetcher()
        let show: Show
        do {
            show = try await Show.fetch(server.url("/podcast.rss"), with: fetcher)
        } catch {
            try await fetcher.shutdown()
            throw error
        }
        try await fetcher.shutdown()
        check(show)
        #expect(show == (try Show(contentsOf: Self.sample.path)))
    }

    func check(_ show: Show) {
        #expect(show.title == "Low Tide Radio")
        #expect(show.author == "Maren Holt")
        #expect(show.artwork == URL(string: "https://lowtide.example.org/art/cover-3000.jpg"))
        #expect(show.categories == ["Society & Culture", "Leisure"])
        #expect(show.kind == "episodic")
        #expect(!show.isExplicit)
        #expect(show.episodes.count == 3)
        guard let newest = show.episodes.first else { return }
        #expect(newest.id == "lowtide-ep-42")
        #expect(newest.title == "Episode 42: The Last Sailmaker in Polperro")
        #expect(newest.durationSeconds == 50 * 60 + 13)
        #expect(newest.season == 3)
        #expect(newest.number == 42)
        #expect(newest.kind == "full")
        #expect(newest.audio?.url == URL(string: "https://media.lowtide.example.org/ep42.mp3"))
        #expect(newest.audio?.length == 48_213_760)
        #expect(newest.audio?.type == "audio/mpeg")
        #expect(
            newest.chapters.map(\.title) == ["Welcome", "Up to the loft", "Cotton duck and tarred twine", "Letters"])
        #expect(newest.chapters.map(\.start) == [0, 130, 1305.5, 2820])
        #expect(newest.chaptersURL == URL(string: "https://lowtide.example.org/chapters/42.json"))
        #expect(newest.transcripts.map(\.url) == [URL(string: "https://lowtide.example.org/transcripts/42.vtt")!])
        #expect(newest.transcripts.map(\.type) == ["text/vtt"])
        #expect(newest.summary.hasPrefix("Jory Pascoe has cut canvas"))
    }
}
