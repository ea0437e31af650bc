#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A legacy encoding decoded to UTF-8 the way a browser decodes it: a byte the
/// encoding does not define becomes U+FFFD instead of an error, and the caller is
/// told (``replacements``) so it can mark the document not well-formed rather than
/// stop. What a recovering reader puts in front of its parser.
///
/// A single-byte encoding is decoded by the WHATWG index (one code point per
/// byte, as ``WHATWGEncoding`` explains). A multi-byte one goes through the iconv
/// converter that implements the standard's decoder (`Shift_JIS` as windows-31j,
/// `EUC-KR` as windows-949…), fed chunk by chunk: a sequence cut by a chunk's end
/// waits for the next chunk, and a byte that starts no valid sequence is replaced
/// and skipped, so the bytes after it resynchronise as the standard's decoders do.
package final class ReplacingDecoder {
    private enum Method {
        /// The code point of each byte 0x80–0xFF; 0 where the byte is undefined.
        case table([UInt16])
        case converter(iconv_t)
    }

    private let method: Method
    /// The end of the last chunk, when it was the start of an unfinished sequence.
    private var carry: [UInt8] = []
    /// iconv's output, before it is appended.
    private var scratch: [UInt8] = []
    /// How many undefined bytes (or byte sequences) became U+FFFD so far.
    package private(set) var replacements = 0

    /// The decoder of the encoding `label` names: one of the WHATWG Encoding
    /// Standard's legacy encodings, or another name iconv knows (`GB18030`,
    /// `ISO-2022-JP`). `nil` for the Unicode encodings, which the parsers read
    /// themselves, and for names no decoder here knows.
    package init?(label: String) {
        if let encoding = WHATWGEncoding(label: label) {
            switch encoding.decoder {
            case .singleByte(let index): method = .table(index)
            case .converter(let name, _):
                guard let converter = Self.open(name) else { return nil }
                method = .converter(converter)
            }
            return
        }
        let name = WHATWGEncoding.normalized(label)
        guard !name.isEmpty, !WHATWGEncoding.isLatin1OrASCII(name),
            !["utf", "ucs", "iso-10646"].contains(where: name.hasPrefix),
            name.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "/") }),
            let converter = Self.open(name)
        else { return nil }
        method = .converter(converter)
    }

    deinit {
        if case .converter(let converter) = method { iconv_close(converter) }
    }

    private static func open(_ name: String) -> iconv_t? {
        let converter = iconv_open("UTF-8", name)
        return converter == iconv_t(bitPattern: -1) ? nil : converter
    }

    /// Appends `bytes`, decoded, to `output` as UTF-8. The end of a sequence that
    /// `bytes` cut off is decoded with the next call.
    package func decode(_ bytes: UnsafeRawBufferPointer, into output: inout [UInt8]) {
        switch method {
        case .table(let index): Self.decode(bytes, index: index, into: &output, replacements: &replacements)
        case .converter(let converter):
            // A sequence the last chunk cut off (a few bytes at most) is completed
            // byte by byte from this one, then the rest is converted in place.
            var start = 0
            while !carry.isEmpty, start < bytes.count {
                carry.append(bytes[start])
                start += 1
                let used = carry.withUnsafeBytes { convert($0, with: converter, into: &output, final: false) }
                carry.removeFirst(used)
            }
            guard carry.isEmpty else { return }
            let rest = UnsafeRawBufferPointer(rebasing: bytes[start...])
            let used = convert(rest, with: converter, into: &output, final: false)
            carry = Array(rest[used...])
        }
    }

    /// The input has ended: a sequence left unfinished is one more U+FFFD.
    package func finish(into output: inout [UInt8]) {
        guard case .converter(let converter) = method else { return }
        let rest = carry
        carry.removeAll()
        _ = rest.withUnsafeBytes { convert($0, with: converter, into: &output, final: true) }
        var outputLeft = 16
        var flushed = [UInt8](repeating: 0, count: outputLeft)
        let count = flushed.withUnsafeMutableBytes { buffer -> Int in
            var outPointer = buffer.baseAddress?.assumingMemoryBound(to: CChar.self)
            _ = iconv(converter, nil, nil, &outPointer, &outputLeft)
            return 16 - outputLeft
        }
        output += flushed.prefix(count)
    }

    /// Converts as much of `bytes` as iconv can, replacing each byte that starts no
    /// valid sequence; returns how many bytes were used. Unless `final`, a sequence
    /// the end cuts off is left unused; when `final`, it is replaced.
    private func convert(
        _ bytes: UnsafeRawBufferPointer, with converter: iconv_t, into output: inout [UInt8], final: Bool
    ) -> Int {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return 0 }
        var used = 0
        if scratch.count < bytes.count * 4 { scratch = [UInt8](repeating: 0, count: max(64, bytes.count * 4)) }
        while used < bytes.count {
            var inPointer: UnsafeMutablePointer<CChar>? = UnsafeMutablePointer(
                mutating: (base + used).assumingMemoryBound(to: CChar.self))
            var inLeft = bytes.count - used
            let (status, error, produced) = scratch.withUnsafeMutableBytes { buffer in
                var outPointer = buffer.baseAddress?.assumingMemoryBound(to: CChar.self)
                var outLeft = buffer.count
                let status = iconv(converter, &inPointer, &inLeft, &outPointer, &outLeft)
                return (status, errno, buffer.count - outLeft)
            }
            output += scratch.prefix(produced)
            used = bytes.count - inLeft
            guard status == -1 else { break }
            switch error {
            case E2BIG: continue
            case EINVAL where !final: return used
            default:
                // EILSEQ (or a sequence cut by the end of the input): one byte is
                // replaced and the converter starts afresh at the next.
                output += [0xEF, 0xBF, 0xBD]
                replacements += 1
                used += 1
                iconv(converter, nil, nil, nil, nil)
            }
        }
        return used
    }

    private static func decode(
        _ bytes: UnsafeRawBufferPointer, index: [UInt16], into output: inout [UInt8], replacements: inout Int
    ) {
        output.reserveCapacity(output.count + bytes.count)
        for byte in bytes {
            guard byte >= 0x80 else {
                output.append(byte)
                continue
            }
            var scalar = index[Int(byte) &- 0x80]
            if scalar == 0 {
                scalar = 0xFFFD
                replacements += 1
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
