extension String {
    /// The string as a quoted SQL identifier: wrapped in double quotes, each double
    /// quote inside doubled. Any name from the input — `x"); DROP TABLE people; --`
    /// included — stays one identifier and can never change a statement's meaning.
    /// A NUL, which would end the statement's text there, is written as U+FFFD (the
    /// replacement character), as IngestSQLite names such tables and columns.
    ///
    /// (GRDB's `quotedDatabaseIdentifier` does not double inner quotes, so it is not
    /// used for names that come from the input.)
    package var quotedSQLIdentifier: String {
        guard utf8.contains(where: { $0 == UInt8(ascii: "\"") || $0 == 0 }) else { return "\"" + self + "\"" }
        var quoted = "\""
        quoted.reserveCapacity(utf8.count + 2)
        for scalar in unicodeScalars {
            switch scalar {
            case "\"": quoted += "\"\""
            case "\u{0}": quoted.unicodeScalars.append("\u{FFFD}")
            default: quoted.unicodeScalars.append(scalar)
            }
        }
        return quoted + "\""
    }
}
