/// The one error type ingest reports: what went wrong, where, and which exit status
/// (from BSD's sysexits) the command line turns it into.
///
/// Printed, it reads like a compiler diagnostic: `folks.xml:12:7: mismatched tag`.
public struct IngestError: Error, CustomStringConvertible, Sendable {
    /// The class of failure; each maps to one sysexits code.
    public enum Kind: Sendable {
        /// The command was used wrongly (EX_USAGE, 64).
        case usage
        /// The input is malformed or does not fit the mapping (EX_DATAERR, 65).
        case data
        /// The input does not exist or cannot be read (EX_NOINPUT, 66).
        case input
        /// The output cannot be created (EX_CANTCREAT, 73).
        case output
        /// Reading or writing failed part-way (EX_IOERR, 74).
        case io
        /// A failure that may pass if the command is run again later: a database server
        /// that refuses connections, rejects the login or restarts mid-import
        /// (EX_TEMPFAIL, 75, so cron and other schedulers retry). Nothing was written.
        case temporary

        public var exitCode: Int32 {
            switch self {
            case .usage: 64
            case .data: 65
            case .input: 66
            case .output: 73
            case .io: 74
            case .temporary: 75
            }
        }
    }

    public var kind: Kind
    public var message: String
    /// The input (or output) the error is about, as the user named it.
    public var file: String?
    public var position: SourcePosition?

    public init(_ kind: Kind, _ message: String, file: String? = nil, position: SourcePosition? = nil) {
        self.kind = kind
        self.message = message
        self.file = file
        self.position = position
    }

    /// `file:line:column: message`, leaving out what is unknown.
    public var description: String {
        var prefix = ""
        if let file { prefix += "\(file):" }
        if let position { prefix += "\(position):" }
        return prefix.isEmpty ? message : "\(prefix) \(message)"
    }

    /// This error, blamed on `file` unless it already names one.
    public func inFile(_ file: String) -> IngestError {
        var copy = self
        if copy.file == nil { copy.file = file }
        return copy
    }
}
