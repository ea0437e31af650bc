import IngestCore
import IngestParsers

/// A single-byte legacy encoding decoded to UTF-8 before the recovering parser
/// sees the bytes, as a browser decodes it: a byte the encoding does not define
/// becomes U+FFFD instead of an error, and the feed is read on, marked not
/// well-formed (``replacedBytes``).
struct SingleByteDecoder {
    /// The code point of each byte 0x80–0xFF; 0 where the byte is undefined.
    private let index: [UInt16]
    /// How many bytes were undefined so far.
    private(set) var replacedBytes = 0

    /// The decoder of the encoding `label` names, when it is one of the WHATWG
    /// Encoding Standard's single-byte encodings; `nil` for any other.
    init?(label: String) {
        guard let encoding = WHATWGEncoding(label: label), case .singleByte(let index) = encoding.decoder else {
            return nil
        }
        self.index = index
    }

    /// Appends `bytes`, decoded, to `output` as UTF-8.
    mutating func decode(_ bytes: UnsafeRawBufferPointer, into output: inout [UInt8]) {
        output.reserveCapacity(output.count + bytes.count)
        for byte in bytes {
            guard byte >= 0x80 else {
                output.append(byte)
                continue
            }
            var scalar = index[Int(byte) &- 0x80]
            if scalar == 0 {
                scalar = 0xFFFD
                replacedBytes += 1
            }
            if scalar < 0x800 {
                output.append(0xC0 | UInt8(scalar >> 6))
                output.append(0x80 | UInt8(scalar & 0x3F))
            } else {
                output.append(0xE0 | UInt8(scalar >> 12))
                output.append(0x80 | UInt8((scalar >> 6) & 0x3F))
                output.append(0x80 | UInt8(scalar & 0x3F))
            }
        }
    }
}
