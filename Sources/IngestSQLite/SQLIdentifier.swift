import Foundation

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
        var name = replacingOccurrences(of: "\"", with: "\"\"")
        if name.utf8.contains(0) { name = name.replacingOccurrences(of: "\u{0}", with: "\u{FFFD}") }
        return "\"" + name + "\""
    }
}
