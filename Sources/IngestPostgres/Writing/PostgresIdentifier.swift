import IngestCore

/// Names from the input as PostgreSQL identifiers.
///
/// Every table and column name is written quoted (``quoted(_:)``), so PostgreSQL keeps
/// its case and no name can change a statement's meaning. PostgreSQL cuts identifiers
/// at 63 bytes (`NAMEDATALEN` - 1) without an error, so a longer name is cut here
/// first, at a character boundary (``fitted(_:reserving:)``), where the output can
/// still tell two long names apart.
///
/// Names the output makes from records are folded to lower case first
/// (``folded(_:)``, unless ``PostgresOutput/IdentifierCase/exact`` is asked for), so
/// that a query can name them without quotes: `select firstname from people`.
public enum PostgresIdentifier {
    /// The longest identifier PostgreSQL keeps, in UTF-8 bytes.
    public static let maximumLength = 63

    /// `name` wrapped in double quotes, each double quote inside doubled:
    /// `x"y` → `"x""y"`.
    public static func quoted(_ name: String) -> String {
        "\"" + escaped(name) + "\""
    }

    /// `schema.name`, both quoted.
    public static func qualified(_ schema: String, _ name: String) -> String {
        quoted(schema) + "." + quoted(name)
    }

    /// The inside of a quoted identifier: double quotes doubled. PostgresNIO's
    /// `copyFrom` wraps the table and column names it is given in double quotes
    /// without doubling those inside; handing it escaped names keeps them one identifier.
    static func escaped(_ name: String) -> String {
        name.replacingAll("\"", with: "\"\"")
    }

    /// `name` as PostgreSQL folds an identifier written without quotes: the ASCII
    /// letters A–Z to a–z, every other character as it is (`firstName` → `firstname`,
    /// `Ärger` → `Ärger`).
    ///
    /// Only ASCII, because that is what PostgreSQL does to an unquoted name, whatever
    /// the database's locale: a column named by this fold is the one
    /// `select firstname from people` finds. A name with other letters needs quotes in
    /// a query either way, and a Unicode fold would give it a spelling the input never
    /// had (`STRASSE` and `Straße` are not lower-case forms of one another). ASCII
    /// folding also keeps apart exactly the names the SQLite output keeps apart.
    public static func folded(_ name: String) -> String {
        guard name.utf8.contains(where: { $0 >= 0x41 && $0 <= 0x5A }) else { return name }
        return String(decoding: DistinctNames.foldingASCIICase(name), as: UTF8.self)
    }

    /// `name`, cut to at most 63 bytes less `reserving` (room for a suffix such as
    /// `_2`), never inside a character.
    public static func fitted(_ name: String, reserving: Int = 0) -> String {
        let limit = maximumLength - reserving
        guard name.utf8.count > limit else { return name }
        var result = ""
        var length = 0
        for character in name {
            let size = character.utf8.count
            if length + size > limit { break }
            result.append(character)
            length += size
        }
        return result
    }

    /// Refuses a name PostgreSQL cannot store: one with a NUL character (or an empty
    /// table name; an empty column name becomes `_`, see ``PostgresTable``).
    static func check(_ name: String, what: String, position: SourcePosition? = nil) throws {
        if name.isEmpty, what == "table" {
            throw IngestError(.data, "PostgreSQL has no empty table names", position: position)
        }
        if name.utf8.contains(0) {
            throw IngestError(
                .data,
                "the \(what) name \(quoted(name.replacingAll("\0", with: "\\0"))) contains a NUL character, which PostgreSQL names cannot hold",
                position: position)
        }
    }
}

extension String {
    /// Every occurrence of the ASCII character `target` replaced, byte by byte: a
    /// combining mark after a `"` makes one `Character` of both, which a
    /// `Character` comparison would miss.
    func replacingAll(_ target: Unicode.Scalar, with replacement: String) -> String {
        precondition(target.isASCII)
        let byte = UInt8(target.value)
        guard utf8.contains(byte) else { return self }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count + 8)
        for unit in utf8 {
            if unit == byte { bytes += replacement.utf8 } else { bytes.append(unit) }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
