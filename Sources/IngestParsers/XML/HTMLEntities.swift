/// HTML's named character references: the 252 of HTML 4 — the Latin-1, symbol and
/// special sets that RSS 0.91's, HTML 4.01's and XHTML 1.0/1.1's DTDs declare, and
/// that feeds use — plus XHTML's `&apos;`. Built once, on first use, from
/// the listing `Scripts/html-entities.py` writes.
package enum HTMLEntities {
    /// The code point `&name;` stands for (names are case-sensitive: `&Eacute;`
    /// is not `&eacute;`).
    package static func codePoint(named name: Substring) -> UInt32? { table[name] }

    /// The code point for a name given as bytes.
    package static func codePoint(named bytes: UnsafeBufferPointer<UInt8>) -> UInt32? {
        guard bytes.count <= 8 else { return nil }
        return table[Substring(String(decoding: bytes, as: UTF8.self))]
    }

    /// Every name with its code point, sorted by name.
    package static let all: [(name: String, codePoint: UInt32)] = listing.flatMap { line in
        let fields = line.split(separator: " ")
        return stride(from: 0, to: fields.count, by: 2).map { (String(fields[$0]), UInt32(fields[$0 + 1])!) }
    }

    private static let table: [Substring: UInt32] = {
        var table: [Substring: UInt32] = [:]
        for (name, codePoint) in all { table[Substring(name)] = codePoint }
        return table
    }()
}
