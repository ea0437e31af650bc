extension String {
    /// The string as a quoted SQL identifier: wrapped in double quotes, each double
    /// quote inside doubled. Any name from the input — `x"); DROP TABLE people; --`
    /// included — stays one identifier and can never change a statement's meaning.
    ///
    /// (GRDB's `quotedDatabaseIdentifier` does not double inner quotes, so it is not
    /// used for names that come from the input.)
    public var quotedSQLIdentifier: String {
        "\"" + replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}

import Foundation
