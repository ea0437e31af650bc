import IngestCore
import IngestParsers

/// A compressed format ingest reads directly, recognised by the magic bytes its data
/// starts with — never by the file's name, so `people.xml` that is really gzip and
/// standard input (which has no name) are both read right.
///
/// ```swift
/// let format = try input.peek { CompressionFormat.detect($0) }   // nil: not compressed
/// ```
public enum CompressionFormat: String, CaseIterable, Sendable, CustomStringConvertible {
    /// gzip (RFC 1952), as `gzip` and `zcat` write and read it: DEFLATE through zlib.
    case gzip
    /// bzip2, through libbz2.
    case bzip2
    /// xz (the .xz container, LZMA2), through liblzma.
    case xz
    /// Zstandard (RFC 8878), through libzstd.
    case zstd

    /// How many leading bytes ``detect(_:)`` needs to recognise every format: pass at
    /// least this many, or the whole input when it is shorter.
    public static let magicByteCount = 6

    /// Whether an input starting with `byte` may be compressed: its first byte is
    /// the first of a magic number. XML and JSON never start so (`<`, `{`, `[`, white
    /// space, a byte order mark), so one byte is enough to rule them out.
    public static func mayStart(with byte: UInt8) -> Bool {
        byte == 0x1F || byte == 0x42 || byte == 0xFD || byte == 0x28 || byte & 0xF0 == 0x50
    }

    /// The format of the input `file` holds, looking at no more of it than tells:
    /// one byte, or ``magicByteCount`` when that byte may start a magic number (a
    /// pipe fed line by line is not waited on for bytes the answer does not need).
    public static func detect(in file: InputFile) throws -> CompressionFormat? {
        let first = try file.peek(atLeast: 1) { $0.first }
        guard let first, mayStart(with: first) else { return nil }
        return try file.peek(atLeast: magicByteCount) { detect($0) }
    }

    /// The format whose magic bytes `firstBytes` starts with, or `nil` when it starts
    /// with none of them (plain XML or JSON, say, or fewer bytes than a magic number).
    ///
    /// - gzip: `1F 8B`, the two bytes `gzip` itself checks;
    /// - bzip2: `BZh` and a block size digit `1`–`9`;
    /// - xz: `FD 37 7A 58 5A 00` (`\xFD7zXZ\0`);
    /// - zstd: the frame magic `28 B5 2F FD`, or a skippable frame's `5? 2A 4D 18`,
    ///   which `zstd` also accepts at the start of a file.
    public static func detect(_ firstBytes: UnsafeRawBufferPointer) -> CompressionFormat? {
        func startsWith(_ magic: [UInt8]) -> Bool {
            firstBytes.count >= magic.count && zip(firstBytes, magic).allSatisfy { $0 == $1 }
        }
        if startsWith([0x1F, 0x8B]) { return .gzip }
        if startsWith([0x42, 0x5A, 0x68]), firstBytes.count >= 4, (0x31...0x39).contains(firstBytes[3]) {
            return .bzip2
        }
        if startsWith([0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00]) { return .xz }
        if startsWith([0x28, 0xB5, 0x2F, 0xFD]) { return .zstd }
        if firstBytes.count >= 4, firstBytes[0] & 0xF0 == 0x50, firstBytes[1] == 0x2A, firstBytes[2] == 0x4D,
            firstBytes[3] == 0x18
        {
            return .zstd
        }
        return nil
    }

    /// The format's name as its command-line tool spells it: `gzip`, `bzip2`, `xz`, `zstd`.
    public var description: String { rawValue }
}
