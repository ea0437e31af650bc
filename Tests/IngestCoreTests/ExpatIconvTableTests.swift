import Foundation
import Testing
@testable import IngestCore
@testable import IngestParsers

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The byte tables Expat reads other encodings through, checked against iconv for
/// every single-byte encoding this system's iconv knows (issue 15, items 16 and 19:
/// glibc's windows-1255 and windows-1258 converters hold a letter back to compose it
/// with a following mark, so a table built from lone bytes without flushing had no
/// letters at all, and every such document failed).
@Suite struct ExpatIconvTableTests {
    /// What iconv makes of one byte, converted alone from a fresh converter and flushed.
    enum Reference: Equatable {
        case undefined
        /// The byte starts a longer sequence: not a single-byte encoding.
        case incomplete
        case scalars([UInt32])
    }

    static let utf32 = 1.littleEndian == 1 ? "UTF-32LE" : "UTF-32BE"

    /// iconv's conversion of `byte` from `encoding`, with a converter opened for it alone.
    static func reference(_ encoding: String, _ byte: UInt8) -> Reference? {
        let converter = iconv_open(utf32, encoding)
        guard let converter, converter != iconv_t(bitPattern: -1) else { return nil }
        defer { iconv_close(converter) }
        var input = [CChar(bitPattern: byte)]
        var output = [UInt32](repeating: 0, count: 8)
        let (status, error, produced): (Int, Int32, Int) = input.withUnsafeMutableBufferPointer { inBuffer in
            output.withUnsafeMutableBytes { outBuffer in
                var inPointer = inBuffer.baseAddress, inLeft = 1
                var outPointer = outBuffer.baseAddress?.assumingMemoryBound(to: CChar.self), outLeft = outBuffer.count
                var status = iconv(converter, &inPointer, &inLeft, &outPointer, &outLeft)
                let error = errno
                if status != -1 { status = iconv(converter, nil, nil, &outPointer, &outLeft) }
                return (status, error, outBuffer.count - outLeft)
            }
        }
        if status == -1 { return error == EINVAL ? .incomplete : .undefined }
        return .scalars(Array(output[..<(produced / 4)]))
    }

    /// The encodings `iconv -l` lists whose names a document can declare (an XML EncName).
    static func iconvEncodings() throws -> [String] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["iconv", "-l"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let names = String(decoding: data, as: UTF8.self)
            .split(whereSeparator: { $0 == "," || $0.isWhitespace })
            .map { $0.hasSuffix("//") ? String($0.dropLast(2)) : String($0) }
        return names.filter { name in
            guard let first = name.unicodeScalars.first, first.properties.isAlphabetic, first.isASCII else {
                return false
            }
            return name.unicodeScalars.allSatisfy {
                $0.isASCII
                    && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "._-".unicodeScalars.contains($0))
            }
        }
    }

    /// Tab, LF, CR and printable ASCII but `$@\^`{}~`: what Expat's documentation says
    /// an encoding must keep at its ASCII byte.
    static func isXMLSyntax(_ scalar: UInt32) -> Bool {
        scalar == 0x09 || scalar == 0x0A || scalar == 0x0D
            || (0x20...0x7E).contains(scalar) && !"$@\\^`{}~".unicodeScalars.map(\.value).contains(scalar)
    }

    @Test("Every single-byte encoding iconv knows: the table is iconv's conversion of each byte 0x20–0xFF")
    func everySingleByteEncoding() throws {
        var checked: [String] = [], refused: [String] = []
        for name in try Self.iconvEncodings() {
            let references = (0...255).map { Self.reference(name, UInt8($0)) }
            guard let all = references as? [Reference] else { continue }  // iconv cannot open it
            // Single-byte: every byte alone is undefined or one character. A byte that
            // starts a longer sequence, or converts to nothing (a shift: ISO-2022-KR's
            // SO and SI) or to several characters, is not.
            let singleByte = all.allSatisfy { reference in
                switch reference {
                case .incomplete: false
                case .undefined: true
                case .scalars(let scalars): scalars.count == 1
                }
            }
            guard singleByte else { continue }

            // What the table must refuse, by Expat's documented rule: every ASCII
            // character that can appear in a well-formed document, but `$@\^`{}~`,
            // is one byte, the same as in ASCII; and a character outside the BMP.
            let mustRefuse = all.enumerated().contains { byte, reference in
                guard case .scalars(let scalars) = reference, let scalar = scalars.first else {
                    return Self.isXMLSyntax(UInt32(byte))
                }
                return scalar > 0xFFFF
                    || (scalar != UInt32(byte) && (Self.isXMLSyntax(UInt32(byte)) || Self.isXMLSyntax(scalar)))
            }
            let table: ExpatIconvEncoding
            do {
                table = try ExpatIconvEncoding(name: name)
            } catch {
                #expect(mustRefuse, "\(name) is a single-byte encoding a table can hold, but was refused (\(error))")
                refused.append(name)
                continue
            }
            #expect(!mustRefuse, "\(name) cannot be a byte table, but one was built")
            for byte in 0x20...0xFF {
                let expected: Int32 =
                    switch all[byte] {
                    case .scalars(let scalars): scalars.first.map { Int32($0) } ?? -1
                    default: -1
                    }
                #expect(
                    table.map[byte] == expected,
                    "\(name) byte 0x\(String(byte, radix: 16)): table \(table.map[byte]), iconv \(expected)")
            }
            checked.append(name)
        }
        // The encodings of the issue are among them, and so are the usual suspects.
        for name in [
            "WINDOWS-1255", "WINDOWS-1258", "CP1255", "CP1258", "TCVN5712-1", "WINDOWS-1252", "KOI8-R", "ISO-8859-2"
        ] {
            #expect(
                checked.contains(name), "\(name) was not checked (checked \(checked.count), refused \(refused.count))")
        }
        #expect(checked.count > 200, "only \(checked.count) single-byte encodings found")
    }

    /// `printf '\xNN' | iconv -f ENCODING -t UTF-32LE`: the command, not the library.
    static func commandConversion(_ encoding: String, _ byte: UInt8) throws -> [UInt32]? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["iconv", "-f", encoding, "-t", "UTF-32LE"]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        input.fileHandleForWriting.write(Data([byte]))
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return stride(from: 0, to: data.count - 3, by: 4).map { offset in
            data[data.startIndex + offset..<data.startIndex + offset + 4].reversed().reduce(0) { $0 << 8 | UInt32($1) }
        }
    }

    @Test("The composing ones agree with the iconv command byte for byte", arguments: ["windows-1255", "windows-1258"])
    func composingEncodingsAgainstTheCommand(_ name: String) throws {
        let table = try ExpatIconvEncoding(name: name)
        for byte in 0x80...0xFF {
            let expected = try Self.commandConversion(name, UInt8(byte)).flatMap(\.first).map { Int32($0) } ?? -1
            #expect(table.map[byte] == expected, "\(name) byte 0x\(String(byte, radix: 16))")
        }
        // Hebrew letters, Vietnamese letters: present, as they were not before.
        #expect(table.map[0xF9] == (name == "windows-1255" ? 0x05E9 : 0x00F9))
    }
}
