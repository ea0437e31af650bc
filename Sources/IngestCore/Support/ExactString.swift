/// A string that is equal to another only when their UTF-8 bytes are.
///
/// Swift's `String` compares and hashes by canonical equivalence, so "Ác" written
/// precomposed (`C3 81`) and decomposed (`41 CC 81`) are one dictionary key — and a
/// table of unique strings built on `[String: …]` writes the first spelling for both.
/// Data from the input keeps its bytes: every uniquing table on the data path keys by
/// this instead.
package struct ExactString: Hashable {
    package let string: String

    package init(_ string: String) {
        self.string = string
    }

    package static func == (lhs: ExactString, rhs: ExactString) -> Bool {
        lhs.string.utf8.elementsEqual(rhs.string.utf8)
    }

    package func hash(into hasher: inout Hasher) {
        var string = string
        string.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}

extension Array where Element == String {
    /// The strings as ``ExactString``s: keys equal only when every string's bytes are.
    package var exact: [ExactString] { map(ExactString.init) }
}

extension String {
    /// Whether the two strings have the same UTF-8 bytes; `==` is true for
    /// canonically equivalent spellings too (see ``ExactString``).
    @inlinable package func hasSameBytes(as other: String) -> Bool {
        let mine = utf8, theirs = other.utf8
        guard mine.count == theirs.count else { return false }
        // Native strings hand out their bytes without a copy: eight bytes compared at a
        // time, not a generic walk of two views (this runs once per record).
        let compared = mine.withContiguousStorageIfAvailable { mine in
            theirs.withContiguousStorageIfAvailable { theirs in
                mine.isEmpty || bytesEqual(mine.baseAddress!, theirs.baseAddress!, count: mine.count)
            }
        }
        return (compared ?? nil) ?? mine.elementsEqual(theirs)
    }
}

/// Whether the `count` bytes at `first` and at `second` are the same: `memcmp(…) == 0`
/// without the C library, eight bytes at a time, and the last under eight in at
/// most two loads that may overlap bytes already compared (names are short).
@inlinable package func bytesEqual(_ first: UnsafeRawPointer, _ second: UnsafeRawPointer, count: Int) -> Bool {
    @inline(__always) func same<Word: FixedWidthInteger & BitwiseCopyable>(_ offset: Int, _: Word.Type) -> Bool {
        first.loadUnaligned(fromByteOffset: offset, as: Word.self)
            == second.loadUnaligned(fromByteOffset: offset, as: Word.self)
    }
    if count >= 8 {
        var offset = 0
        while offset &+ 8 <= count {
            guard same(offset, UInt64.self) else { return false }
            offset &+= 8
        }
        return offset == count || same(count &- 8, UInt64.self)
    }
    if count >= 4 { return same(0, UInt32.self) && same(count &- 4, UInt32.self) }
    if count >= 2 { return same(0, UInt16.self) && same(count &- 2, UInt16.self) }
    return count == 0 || same(0, UInt8.self)
}
