/// Eight bytes read as one word, to find the first byte of interest in a run of
/// text without looking at each byte: the classic "has zero byte" bit tricks, for the
/// scanners of ingest's modules (the JSON reader's strings, the safe-HTML shortcut)
/// and yours.
///
/// Each test sets the high bit of the bytes it matches. Bits above the first match
/// may be set wrongly (a borrow runs up the word), never below it, and a word with a
/// match always has a bit set; so ``first(in:)`` of a non-zero result, or of tests
/// joined with `|`, is the place of the first match:
///
/// ```swift
/// let word = ByteWord.load(bytes + index)
/// let found = ByteWord.equal(word, UInt8(ascii: "<")) | ByteWord.below(word, 0x20)
/// if found != 0 { index += ByteWord.first(in: found) }
/// ```
///
/// Public and inlinable because a `package` function is not inlined into another
/// module, and a call per word costs what the trick saves.
public enum ByteWord {
    /// 0x01 in every byte.
    @inlinable static var ones: UInt64 { 0x0101_0101_0101_0101 }
    /// 0x80 in every byte: the bits the tests set.
    @inlinable static var highs: UInt64 { 0x8080_8080_8080_8080 }

    /// The eight bytes at `pointer`, the first in the lowest bits.
    @inlinable @inline(__always)
    public static func load(_ pointer: UnsafePointer<UInt8>) -> UInt64 {
        UInt64(littleEndian: UnsafeRawPointer(pointer).loadUnaligned(as: UInt64.self))
    }

    /// The bytes of `word` equal to `byte`.
    @inlinable @inline(__always)
    public static func equal(_ word: UInt64, _ byte: UInt8) -> UInt64 {
        let x = word ^ (ones &* UInt64(byte))
        return (x &- ones) & ~x & highs
    }

    /// The bytes of `word` below `bound`, which is at most 0x80.
    @inlinable @inline(__always)
    public static func below(_ word: UInt64, _ bound: UInt8) -> UInt64 {
        (word &- ones &* UInt64(bound)) & ~word & highs
    }

    /// The bytes of `word` that are not ASCII.
    @inlinable @inline(__always)
    public static func nonASCII(_ word: UInt64) -> UInt64 { word & highs }

    /// The place (0 to 7) of the first matching byte of a non-zero test result.
    @inlinable @inline(__always)
    public static func first(in matches: UInt64) -> Int { matches.trailingZeroBitCount &>> 3 }
}
