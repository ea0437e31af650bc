import IngestKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What an input that failed to parse looks like, from its first bytes, when that is
/// neither XML nor JSON: a parser's `1:1: syntax error` on a CSV file or a SQLite
/// database tells a person less than "this is CSV" does.
enum InputResemblance {
    /// How many bytes are looked at: the first lines of a text file.
    static let sampleSize = 4096

    /// What `bytes`, the start of an input, look like when it is not XML or JSON
    /// ("a SQLite database", "CSV text"); `nil` when they could be either (they start
    /// with `<` — but for an HTML page — `{`, `[` or another JSON value, or are
    /// UTF-16), or when they are white space that fills the sample: the input goes on
    /// past it, and the parser's own error says more.
    static func describe(_ bytes: some Collection<UInt8>) -> String? {
        let bytes = Array(bytes.prefix(sampleSize))
        if let kind = binaryFormat(bytes) { return kind }
        if isUTF16(bytes) { return nil }
        var start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while start < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[start]) { start += 1 }
        guard start < bytes.count else {
            guard bytes.count < sampleSize else { return nil }
            return bytes.isEmpty ? "empty" : "nothing but white space"
        }
        let text = bytes[start...]
        if isHTML(text) { return "an HTML page" }
        if text.first == UInt8(ascii: "<") || startsJSONValue(text) { return nil }
        if looksBinary(text) { return "binary data" }
        if let separator = delimiter(text) { return separator }
        return "plain text"
    }

    /// Whether `path` names a regular file (not standard input, a pipe or a device),
    /// which can be opened again to look at its start.
    static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return path != "-" && stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }

    /// File formats told by their magic bytes.
    private static func binaryFormat(_ bytes: [UInt8]) -> String? {
        let magics: [(prefix: [UInt8], name: String)] = [
            (Array("SQLite format 3\0".utf8), "a SQLite database"),
            ([0x7F, 0x45, 0x4C, 0x46], "an executable (ELF)"),
            ([0xCF, 0xFA, 0xED, 0xFE], "an executable (Mach-O)"),
            ([0xCA, 0xFE, 0xBA, 0xBE], "an executable (Mach-O universal) or a Java class"),
            (Array("MZ".utf8), "an executable (Windows)"),
            (Array("%PDF-".utf8), "a PDF document"),
            ([0x50, 0x4B, 0x03, 0x04], "a ZIP archive (or an Office document)"),
            ([0x89, 0x50, 0x4E, 0x47], "a PNG image"),
            ([0xFF, 0xD8, 0xFF], "a JPEG image"),
            (Array("GIF8".utf8), "a GIF image"),
            (Array("bplist".utf8), "a binary property list"),
            (Array("PAR1".utf8), "a Parquet file")
        ]
        return magics.first { bytes.starts(with: $0.prefix) }?.name
    }

    /// A UTF-16 byte order mark, or `<` as the first UTF-16 character: XML the
    /// parsers read, whose zero bytes are no sign of binary data.
    private static func isUTF16(_ bytes: [UInt8]) -> Bool {
        bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0x3C, 0x00])
            || bytes.starts(with: [0x00, 0x3C])
    }

    /// `<!DOCTYPE html` or `<html`, in any case.
    private static func isHTML(_ text: ArraySlice<UInt8>) -> Bool {
        let head = String(decoding: text.prefix(15), as: UTF8.self).lowercased()
        return head.hasPrefix("<!doctype html") || head.hasPrefix("<html")
    }

    /// A JSON string, number, `true`, `false` or `null` (a JSON Lines input may start with any).
    private static func startsJSONValue(_ text: ArraySlice<UInt8>) -> Bool {
        guard let first = text.first else { return false }
        if first == UInt8(ascii: "{") || first == UInt8(ascii: "[") || first == UInt8(ascii: "\"")
            || first == UInt8(ascii: "-")
        {
            return true
        }
        if (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) {
            // `2024-01-01,3` is CSV, `12` is JSON: a number ends the line or meets a JSON separator.
            let token = text.prefix { !(0x0A == $0 || 0x0D == $0) }
            return token.allSatisfy { "0123456789.eE+- \t".utf8.contains($0) }
        }
        let line = String(decoding: text.prefix(8), as: UTF8.self)
        return ["true", "false", "null"].contains { line.hasPrefix($0) }
    }

    /// Control characters other than white space, or bytes that are not UTF-8.
    private static func looksBinary(_ text: ArraySlice<UInt8>) -> Bool {
        if text.contains(0) { return true }
        let controls = text.count { $0 < 0x20 && ![0x09, 0x0A, 0x0D, 0x0C].contains($0) }
        if controls * 100 > text.count { return true }
        // A multi-byte character cut by the sample's end is not a sign of binary data.
        var valid = String(validating: text, as: UTF8.self) != nil
        for cut in 1...3 where !valid && text.count > cut {
            valid = String(validating: text.dropLast(cut), as: UTF8.self) != nil
        }
        return !valid
    }

    /// "CSV text" or "tab-separated text" when the first lines split into the same
    /// number (more than one) of fields by a comma, a semicolon or a tab.
    private static func delimiter(_ text: ArraySlice<UInt8>) -> String? {
        let lines = text.split(separator: 0x0A, omittingEmptySubsequences: true).prefix(5)
        // The last line of the sample may be cut short.
        let complete = lines.count > 1 && text.count >= sampleSize - 3 ? Array(lines.dropLast()) : Array(lines)
        for (separator, name) in [
            (UInt8(ascii: "\t"), "tab-separated text"), (UInt8(ascii: ","), "CSV text"),
            (UInt8(ascii: ";"), "CSV text (separated by semicolons)")
        ] {
            let counts = complete.map { line in line.count { $0 == separator } }
            if let first = counts.first, first > 0, counts.allSatisfy({ $0 == first }) { return name }
        }
        return nil
    }
}
