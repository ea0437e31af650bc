import IngestCore
import CExpat
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An encoding Expat does not know itself, described to it through iconv.
///
/// Expat reads UTF-8, UTF-16, ISO-8859-1 and US-ASCII on its own. For any other
/// declared encoding it asks an unknown-encoding handler for a table: for each first
/// byte, either the character that byte stands for or the length of the multi-byte
/// sequence it starts, plus a function converting such a sequence. This type builds
/// that table by asking iconv about every byte, so the single-byte encodings
/// (ISO-8859-2, windows-1251, KOI8-R…) and the double-byte ones whose first byte
/// fixes the length (Shift_JIS, EUC-JP, Big5, GBK, EUC-KR…) read with Expat exactly
/// as they do with libxml2, which converts through iconv too.
///
/// Encodings Expat's scheme cannot express are refused by ``init(name:)``:
/// stateful ones (ISO-2022-JP, UTF-7), GB18030 (whose first byte does not fix the
/// sequence length), and ones that move an ASCII character XML needs. libxml2
/// (`--parser libxml2`) reads those.
final class ExpatIconvEncoding {
    let name: String
    /// Expat's table: a character (≥ 0), -1 for a malformed byte, or -n for the first
    /// byte of an n-byte sequence.
    private(set) var map = [Int32](repeating: -1, count: 256)
    private let converter: iconv_t

    /// iconv's name for native-endian UTF-32, the form conversions produce.
    private static let utf32 = 1.littleEndian == 1 ? "UTF-32LE" : "UTF-32BE"

    /// Why an encoding cannot be read this way, in words for an error message.
    enum Refusal: Error, CustomStringConvertible {
        case unknown, notATable
        var description: String {
            switch self {
            case .unknown: "an encoding iconv does not know"
            case .notATable: "an encoding Expat cannot read through a byte table"
            }
        }
    }

    /// Builds the table for `name` as the document declares it.
    init(name: String) throws(Refusal) {
        // An XML EncName; anything else never reaches iconv.
        guard let first = name.utf8.first, Self.isLetter(first),
            name.utf8.allSatisfy({
                Self.isLetter($0) || Self.isDigit($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "_")
                    || $0 == UInt8(ascii: "-")
            })
        else { throw .unknown }
        guard !Self.tableUnfriendly.contains(where: { name.uppercased().contains($0) }) else { throw .notATable }
        guard let converter = iconv_open(Self.utf32, name), converter != iconv_t(bitPattern: -1) else { throw .unknown }
        self.name = name
        self.converter = converter
        guard buildMap() else { throw .notATable }
    }

    deinit { iconv_close(converter) }

    /// Encodings a per-byte table cannot follow: stateful ones, whose bytes mean
    /// different things after an escape sequence, and GB18030, whose first byte
    /// starts both 2- and 4-byte sequences.
    private static let tableUnfriendly = ["2022", "UTF-7", "UTF7", "HZ", "GB18030"]

    private func buildMap() -> Bool {
        for byte in 0...255 {
            switch convert([UInt8(byte)]) {
            case .scalar(let value):
                // Expat's rules: a single byte maps into the BMP, and the ASCII
                // characters XML syntax uses keep their ASCII bytes (and no other
                // byte stands for them).
                guard value <= 0xFFFF else { return false }
                if value != Int32(byte), Self.isSyntax(UInt8(byte)) || (value < 0x80 && Self.isSyntax(UInt8(value))) {
                    return false
                }
                map[byte] = value
            case .malformed:
                if Self.isSyntax(UInt8(byte)) { return false }
                map[byte] = -1
            case .incomplete:
                guard let length = sequenceLength(startingWith: UInt8(byte)) else { return false }
                map[byte] = -Int32(length)
            }
        }
        return true
    }

    /// The length of the sequences `lead` starts: how many bytes iconv needs before
    /// it stops asking for more, completing `lead` with a few typical trail bytes and
    /// preferring a length at which one of them made a real character.
    private func sequenceLength(startingWith lead: UInt8) -> Int? {
        var longest = 0, longestValid = 0
        for trail: UInt8 in [0xA1, 0xB0, 0xC4, 0xE0, 0x40, 0x80] {
            var bytes = [lead]
            while bytes.count < 4 {
                bytes.append(trail)
                let conversion = convert(bytes)
                if case .incomplete = conversion { continue }
                longest = max(longest, bytes.count)
                if case .scalar = conversion { longestValid = max(longestValid, bytes.count) }
                break
            }
        }
        let length = longestValid > 0 ? longestValid : longest
        return length >= 2 ? length : nil
    }

    private enum Conversion {
        case scalar(Int32)
        case malformed
        case incomplete
    }

    /// Converts exactly one character from `bytes`.
    private func convert(_ bytes: [UInt8]) -> Conversion {
        bytes.withUnsafeBufferPointer { convert($0) }
    }

    /// Converts `bytes` as a whole, alone: from the initial state, and flushing what
    /// the converter holds back at the end. glibc's windows-1255, windows-1258 and
    /// TCVN converters hold a base letter back to compose it with a mark that may
    /// follow, so without the flush a lone letter converts to nothing; here it is
    /// its own character, as the encoding's table (and Expat, byte by byte) has it.
    private func convert(_ bytes: UnsafeBufferPointer<UInt8>) -> Conversion {
        var output: (UInt32, UInt32) = (0, 0)
        iconv(converter, nil, nil, nil, nil)  // back to the initial state
        let (status, error, inputLeft, produced) = withUnsafeMutableBytes(of: &output) { outputBytes in
            // iconv's prototype takes `char **` but does not write through it.
            var inPointer = UnsafeMutablePointer(
                mutating: UnsafeRawPointer(bytes.baseAddress)?.assumingMemoryBound(to: CChar.self))
            var inLeft = bytes.count
            var outPointer = outputBytes.baseAddress?.assumingMemoryBound(to: CChar.self)
            var outLeft = outputBytes.count
            var status = iconv(converter, &inPointer, &inLeft, &outPointer, &outLeft)
            let error = errno
            if status != -1 { status = iconv(converter, nil, nil, &outPointer, &outLeft) }
            return (status, error, inLeft, outputBytes.count - outLeft)
        }
        if status == -1 {
            return error == EINVAL ? .incomplete : .malformed
        }
        guard inputLeft == 0, produced == 4 else { return .malformed }
        return output.0 <= 0x10FFFF ? .scalar(Int32(output.0)) : .malformed
    }

    /// The character for a multi-byte sequence at `sequence` whose length the table
    /// gives; -1 if malformed or outside the BMP (which Expat cannot take here).
    func character(at sequence: UnsafePointer<CChar>) -> Int32 {
        let length = Int(-map[Int(UInt8(bitPattern: sequence.pointee))])
        guard length >= 2 else { return -1 }
        let bytes = UnsafeBufferPointer(
            start: UnsafeRawPointer(sequence).assumingMemoryBound(to: UInt8.self), count: length)
        guard case .scalar(let value) = convert(bytes), value <= 0xFFFF else { return -1 }
        return value
    }

    /// Fills Expat's `XML_Encoding`, handing it a retained reference that its
    /// `release` callback gives back.
    ///
    /// Safety: the one `passRetained` is balanced by Expat calling `release` exactly
    /// once — when the parser is freed, or at once if it cannot use the table — and
    /// `convert` is only called while Expat still holds that reference.
    func describe(to info: UnsafeMutablePointer<XML_Encoding>) {
        withUnsafeMutableBytes(of: &info.pointee.map) { table in
            let entries = table.bindMemory(to: Int32.self)
            for index in 0..<256 { entries[index] = map[index] }
        }
        info.pointee.data = Unmanaged.passRetained(self).toOpaque()
        info.pointee.convert = { data, sequence in
            Unmanaged<ExpatIconvEncoding>.fromOpaque(data!).takeUnretainedValue().character(at: sequence!)
        }
        info.pointee.release = { data in
            Unmanaged<ExpatIconvEncoding>.fromOpaque(data!).release()
        }
    }

    /// Whether `byte` is an ASCII character XML's syntax needs, which an encoding must
    /// keep at its ASCII byte: tab, line feed, carriage return, and the printable
    /// characters but `$@\^`{}~`, which Expat lets an encoding put elsewhere (Shift_JIS
    /// reads 0x5C as ¥, for one). Control characters and DEL, which no XML document
    /// holds, may be moved too (TCVN5712-1 puts Vietnamese capitals there).
    static func isSyntax(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x09, 0x0A, 0x0D: true
        case 0x20...0x7E: !"$@\\^`{}~".utf8.contains(byte)
        default: false
        }
    }

    private static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) &- UInt8(ascii: "a") < 26 }
    private static func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }
}
