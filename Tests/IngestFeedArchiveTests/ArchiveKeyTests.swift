import Foundation
@testable import IngestFeedArchive
import IngestFeeds
import Testing

@Suite("The archive's keys: SHA-256, stable and unambiguous")
struct ArchiveKeyTests {
    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    static func digest(_ text: String, pieces: Int = 1) -> String {
        var hash = SHA256()
        let bytes = Array(text.utf8)
        let size = max(1, (bytes.count + pieces - 1) / pieces)
        var offset = 0
        while offset < bytes.count {
            let end = min(offset + size, bytes.count)
            bytes[offset..<end].withUnsafeBytes { hash.update($0) }
            offset = end
        }
        return hex(hash.finalize())
    }

    @Test("FIPS 180-4's examples, fed whole and in pieces", arguments: [1, 3, 64])
    func vectors(pieces: Int) {
        #expect(Self.digest("", pieces: pieces) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(
            Self.digest("abc", pieces: pieces) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            Self.digest("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", pieces: pieces)
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(
            Self.digest(String(repeating: "a", count: 1_000_000), pieces: pieces)
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

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
}
