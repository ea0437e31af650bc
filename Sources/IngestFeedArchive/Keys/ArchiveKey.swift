import Crypto
import Foundation
import IngestFeeds

/// The archive's integer keys and content hashes: the first 63 bits of a SHA-256,
/// so they are the same in every run and on every machine, fit a signed 64-bit
/// column, and no feed can make one of its items land on another feed's item.
///
/// Every part is hashed with its length in front, so `("ab", "c")` and
/// `("a", "bc")` differ.
struct ArchiveKey {
    /// The parts, hashed at once by ``value``: one call into the digest instead of
    /// three per part.
    private var bytes: [UInt8] = []

    init(_ kind: String) {
        add(kind)
    }

    /// Adds a text part; `nil` is a part of its own, unlike any text.
    mutating func add(_ text: String?) {
        guard var text else {
            add(tag: 0)
            return
        }
        text.withUTF8 { text in
            add(tag: 1)
            withUnsafeBytes(of: UInt64(text.count).bigEndian) { bytes.append(contentsOf: $0) }
            bytes.append(contentsOf: text)
        }
    }

    /// Adds an integer part.
    mutating func add(_ number: Int64) {
        add(tag: 2)
        withUnsafeBytes(of: number.bigEndian) { bytes.append(contentsOf: $0) }
    }

    private mutating func add(tag: UInt8) {
        bytes.append(tag)
    }

    /// The key: a non-negative 63-bit integer.
    var value: Int64 {
        let number = SHA256.hash(data: bytes).withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
        return Int64(bitPattern: UInt64(bigEndian: number) & 0x7FFF_FFFF_FFFF_FFFF)
    }

    /// The key of a feed, from the name it is archived under.
    static func feed(_ source: String) -> Int64 {
        var key = ArchiveKey("feed")
        key.add(source)
        return key.value
    }

    /// The key of an item of feed `feedID`: by its guid (RSS `guid`, Atom `id`, JSON
    /// Feed `id`), else its link, else its title and date.
    static func item(_ item: FeedItem, feedID: Int64) -> Int64 {
        var key = ArchiveKey("item")
        key.add(feedID)
        if let guid = item.guid?.nonEmptyTrimmed {
            key.add("guid")
            key.add(guid)
        } else if let link = item.link?.nonEmptyTrimmed {
            key.add("link")
            key.add(link)
        } else {
            key.add("title+date")
            key.add(item.title?.value)
            key.add(item.published ?? item.updated)
        }
        return key.value
    }
}

extension String {
    /// The string without surrounding white space, or `nil` when nothing is left.
    var nonEmptyTrimmed: String? {
        // Most keys start and end with a visible ASCII character: nothing to trim.
        if let first = utf8.first, let last = utf8.last, Self.isVisibleASCII(first), Self.isVisibleASCII(last) {
            return self
        }
        let trimmed = trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? nil : trimmed
    }

    private static func isVisibleASCII(_ byte: UInt8) -> Bool { byte > 0x20 && byte < 0x7F }
}
