/// The XML declaration at the start of a document's first bytes, read before a
/// parser is chosen.
enum XMLDeclaration {
    /// The longest declaration looked for: past this, the parser reads it alone.
    static let maxLength = 1024

    /// The `encoding` the declaration at the start of `bytes` names
    /// (`<?xml version="1.0" encoding="iso-8859-1"?>` gives `iso-8859-1`); `nil`
    /// when there is none, it names none, or it is not complete in `bytes`.
    static func encoding(in bytes: [UInt8]) -> String? {
        let start = Array("<?xml".utf8), name = Array("encoding".utf8)
        guard bytes.count > start.count, bytes.starts(with: start), isSpace(bytes[start.count]) else { return nil }
        let limit = min(bytes.count, maxLength)
        var index = start.count
        var end: Int?
        while index + 1 < limit {
            if bytes[index] == UInt8(ascii: "?"), bytes[index + 1] == UInt8(ascii: ">") {
                end = index
                break
            }
            index += 1
        }
        guard let end else { return nil }
        var at = start.count
        while at + name.count <= end {
            if isSpace(bytes[at - 1]), bytes[at..<(at + name.count)].elementsEqual(name) {
                var cursor = at + name.count
                while cursor < end, isSpace(bytes[cursor]) { cursor += 1 }
                guard cursor < end, bytes[cursor] == UInt8(ascii: "=") else { return nil }
                cursor += 1
                while cursor < end, isSpace(bytes[cursor]) { cursor += 1 }
                guard cursor < end, bytes[cursor] == UInt8(ascii: "\"") || bytes[cursor] == UInt8(ascii: "'") else {
                    return nil
                }
                let quote = bytes[cursor]
                guard let close = bytes[(cursor + 1)..<end].firstIndex(of: quote) else { return nil }
                return String(decoding: bytes[(cursor + 1)..<close], as: UTF8.self)
            }
            at += 1
        }
        return nil
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
