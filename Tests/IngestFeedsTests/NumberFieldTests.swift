import Foundation
import IngestFeeds
import Testing

/// Numbers a feed writes (sizes, durations) that no `Int64` holds, or that are no
/// size at all, are left out of their field; the feed is read all the same.
@Suite("numbers in feeds: out of range is left out, never a trap")
struct NumberFieldTests {
    @Test("JSON Feed size_in_bytes: 1e19, 1e400, -5 and \"abc\" are left out; sizes an Int64 holds are kept")
    func jsonFeedSizes() throws {
        let parsed = try feed(
            """
            {"version": "https://jsonfeed.org/version/1.1", "title": "Sizes", "items": [{"id": "1", "attachments": [
              {"url": "https://example.org/a.mp3", "size_in_bytes": 1e19},
              {"url": "https://example.org/b.mp3", "size_in_bytes": 1e400},
              {"url": "https://example.org/c.mp3", "size_in_bytes": -5},
              {"url": "https://example.org/d.mp3", "size_in_bytes": "abc"},
              {"url": "https://example.org/e.mp3", "size_in_bytes": 9.2e18},
              {"url": "https://example.org/f.mp3", "size_in_bytes": 1234.7}
            ]}, {"id": "2", "title": "After"}]}
            """)
        #expect(parsed.items.count == 2)
        let enclosures = try #require(parsed.items.first?.enclosures)
        #expect(enclosures.map(\.url) == ["a", "b", "c", "d", "e", "f"].map { "https://example.org/\($0).mp3" })
        #expect(enclosures.map(\.length) == [nil, nil, nil, nil, "9200000000000000000", "1234"])
    }

    @Test("an RSS enclosure length that is negative or past Int is no byte count")
    func enclosureByteCount() {
        #expect(Enclosure(length: " 100 ").byteCount == 100)
        #expect(Enclosure(length: "0").byteCount == 0)
        #expect(Enclosure(length: "-5").byteCount == nil)
        #expect(Enclosure(length: "99999999999999999999").byteCount == nil)
        #expect(Enclosure(length: "1e19").byteCount == nil)
    }

    @Test("an itunes:duration too long for an Int is no number of seconds")
    func durationOverflow() {
        var episode = ITunesItemExtension()
        episode.duration = "1:02:03"
        #expect(episode.durationSeconds == 3723)
        episode.duration = "\(Int.max)"
        #expect(episode.durationSeconds == Int.max)
        episode.duration = "\(Int.max):00"
        #expect(episode.durationSeconds == nil)
        episode.duration = "\(Int.max / 60):59:59"
        #expect(episode.durationSeconds == nil)
    }
}
