import Foundation
@testable import IngestFeedArchive
import IngestFeeds
import Testing

@Suite("The archive's keys: SHA-256, stable and unambiguous")
struct ArchiveKeyTests {
    @Test("keys are non-negative, the same each time, and parts cannot run together")
    func keys() {
        var one = ArchiveKey("x"), two = ArchiveKey("x")
        one.add("ab")
        one.add("c")
        two.add("a")
        two.add("bc")
        #expect(one.value != two.value)
        #expect(one.value >= 0 && two.value >= 0)
        var none = ArchiveKey("x"), empty = ArchiveKey("x")
        none.add(nil)
        empty.add("")
        #expect(none.value != empty.value)
        #expect(ArchiveKey.feed("https://example.org/") == ArchiveKey.feed("https://example.org/"))
        // The key must never change between versions, or re-runs into an old archive would
        // duplicate: its value as Python's hashlib computes it (tag 1, 8-byte big-endian
        // length, UTF-8, for "feed" then the name; the first 63 bits of the digest).
        #expect(ArchiveKey.feed("https://example.org/feed.xml") == 8_843_994_953_193_493_337)
        var item = FeedItem()
        item.guid = "  g-1 "
        var same = FeedItem()
        same.guid = "g-1"
        same.link = "https://example.org/other"
        #expect(ArchiveKey.item(item, feedID: 7) == ArchiveKey.item(same, feedID: 7))
        #expect(ArchiveKey.item(item, feedID: 7) != ArchiveKey.item(item, feedID: 8))
    }

    @Test(
        "a key's text is trimmed of white space, ASCII or not, and kept whole when there is none",
        arguments: [
            ("g-1", "g-1"), ("\tg-1\n", "g-1"), ("g-1\u{00A0}", "g-1"), ("\u{3000}g-1", "g-1"),
            ("üg-1é", "üg-1é"), ("a", "a"), ("~", "~")
        ])
    func trimmed(_ text: String, _ expected: String) {
        #expect(text.nonEmptyTrimmed == expected)
    }

    @Test("nothing but white space is no text", arguments: ["", " ", "\n\t", "\u{00A0}", "\u{2028}"])
    func blank(_ text: String) {
        #expect(text.nonEmptyTrimmed == nil)
    }
}
