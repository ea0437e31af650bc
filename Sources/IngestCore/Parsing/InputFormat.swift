/// What an input holds, and so which parser reads it.
public enum InputFormat: String, Sendable, CaseIterable {
    /// An XML document (Expat).
    case xml
    /// One JSON document.
    case json
    /// A sequence of JSON values: JSON Lines, NDJSON or concatenated documents.
    case jsonLines = "ndjson"

    /// The format a file name promises: `.json`; `.ndjson`, `.jsonl`, `.ldjson`;
    /// `.xml` and other XML names — also before a compression suffix
    /// (`events.ndjson.gz`). `nil` when the name does not tell.
    public static func fromExtension(of path: String) -> InputFormat? {
        let path = withoutCompressionSuffix(path)
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
        switch path[path.index(after: dot)...].lowercased() {
        case "json", "geojson": return .json
        case "ndjson", "jsonl", "ldjson", "jsonlines": return .jsonLines
        case "xml", "rss", "atom", "rdf", "xhtml", "svg", "kml", "gpx", "plist", "xsd": return .xml
        default: return nil
        }
    }

    /// The suffixes of compressed files, which say how a file is stored rather than
    /// what it holds.
    public static let compressionSuffixes = [".gz", ".bz2", ".xz", ".zst", ".zstd"]

    /// `people.xml.gz` → `people.xml`; other names as they are.
    public static func withoutCompressionSuffix(_ path: String) -> String {
        for suffix in compressionSuffixes where path.lowercased().hasSuffix(suffix) && path.count > suffix.count {
            return String(path.dropLast(suffix.count))
        }
        return path
    }

    /// The format the first bytes suggest: `<` starts XML, `{` or `[` JSON. White
    /// space and a UTF-8 byte order mark are skipped.
    public static func sniffing(_ bytes: UnsafeRawBufferPointer) -> InputFormat? {
        var index = 0
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        guard index < bytes.count else { return nil }
        switch bytes[index] {
        case UInt8(ascii: "<"): return .xml
        case UInt8(ascii: "{"), UInt8(ascii: "["): return .json
        default: return nil
        }
    }
}
