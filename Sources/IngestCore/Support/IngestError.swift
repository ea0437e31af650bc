/// The one error type ingest reports: what went wrong, where, and which exit status
/// (from BSD's sysexits) a command line turns it into.
///
/// Printed, it reads like a compiler diagnostic: `folks.xml:12:7: mismatched tag`.
/// The message says what is wrong in the library's terms; ``reason`` says it again
/// as data, for a program to act on (the `ingest` command adds the option that
/// changes the outcome, such as `--max-depth`).
public struct IngestError: Error, CustomStringConvertible, Sendable {
    /// The class of failure; each maps to one sysexits code.
    public enum Kind: Sendable {
        /// The library or command was used wrongly (EX_USAGE, 64).
        case usage
        /// The input is malformed or does not fit the mapping (EX_DATAERR, 65).
        case data
        /// The input does not exist or cannot be read (EX_NOINPUT, 66).
        case input
        /// The output cannot be created (EX_CANTCREAT, 73).
        case output
        /// Reading or writing failed part-way (EX_IOERR, 74).
        case io
        /// A failure that may pass if tried again later — a server that refused the
        /// connection or went away (EX_TEMPFAIL, 75).
        case temporary

        /// The sysexits code a command exits with for this kind: 64, 65, 66, 73, 74
        /// or 75.
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

    /// What went wrong, as data: the failures a caller may want to tell apart or
    /// explain in its own words.
    public enum Reason: Sendable, Equatable {
        /// Elements or JSON values nested deeper than ``ParseLimits/maxDepth``.
        case depthLimit(Int)
        /// One element's text, attribute value or JSON string longer than
        /// ``ParseLimits/maxTextBytes``.
        case textLimit(Int)
        /// One of libxml2's own limits (value size, name length, entity
        /// amplification), which `allowsHugeDocuments` lifts.
        case libxml2Limit
        /// Entity references expanding to far more text than the document holds
        /// ("billion laughs"), which Expat refuses whatever the options.
        case entityAmplification
        /// An input too large to hold as a tree; the limit in bytes.
        case treeTooLarge(limit: Int)
        /// An encoding Expat cannot read but libxml2 can.
        case encodingNeedsLibXML2(String)
        /// More JSON after the end of the document: JSON Lines read as one document.
        case moreThanOneJSONDocument
        /// A record path that is not a path (fewer than two steps, an empty step).
        case invalidRecordPath(String)
        /// A record path that matched nothing; `suggestions` are paths to records
        /// the document does hold.
        case recordPathMatchedNothing(String, suggestions: [String])
        /// A mapping schema whose records paths (given) matched no record;
        /// `suggestions` are paths to records the document does hold.
        case schemaRecordsMatchedNothing([String], suggestions: [String])
        /// An XPath expression that selected nothing.
        case expressionMatchedNothing(String)
        /// An XPath expression using namespace prefixes that are not bound.
        case unboundPrefixes([String])
        /// An output that exists and may not be replaced; whether it is a database
        /// that could be appended to.
        case outputExists(appendable: Bool)
        /// Another run is writing the output (it holds its lock, or the database's
        /// write lock) and did not finish within the seconds waited.
        case outputBusy(waitedSeconds: Double)
        /// A field that an existing table has no column for, which altering the
        /// table would add.
        case missingColumn(table: String, field: String)
        /// A record that does not fit its mapping schema.
        case recordRejected
        /// More records rejected than allowed; the limit.
        case tooManyRejects(Int)
        /// A database server that cannot be used now, which a later run may find
        /// working (kind ``Kind/temporary``); why.
        case serverUnavailable(ServerFailure)
        /// The reader of an output written through to a pipe (standard output, a
        /// FIFO) closed it, wanting no more — `ingest … --out - | head -1`. Not a
        /// failure of the run: the command ends quietly, with exit status 0.
        case readerClosed
        /// Reading stopped because the program was asked to end (IngestPOSIX's `Interruption`),
        /// by `signal`: the outputs were left as they were, as for any failed run.
        case interrupted(signal: Int32)
    }

    /// Why a database server could not be used, as ``Reason/serverUnavailable(_:)`` says.
    public enum ServerFailure: Sendable, Equatable {
        /// Nothing answered: connection refused, no socket, no answer in time.
        case unreachable
        /// The connection closed under the import: the server shut down or restarted,
        /// or ended the session.
        case connectionLost
        /// The server is there but will not serve yet: starting up, shutting down, or
        /// out of connections.
        case busy
        /// The login was refused: a wrong user or password.
        case loginRefused
        /// The server asks for a password and none was given.
        case passwordMissing
        /// The import collided with another on the same rows (a deadlock or a
        /// serialization failure) and was rolled back.
        case conflict
    }

    /// The class of failure, which decides the exit status.
    public var kind: Kind
    /// What is wrong, in the library's words: `mismatched tag`, `already exists`. It
    /// names no command-line option.
    public var message: String
    /// The input (or output) the error is about, as the user named it.
    public var file: String?
    /// Where in ``file`` the problem is, when it is about a place in an input.
    public var position: SourcePosition?
    /// What went wrong, as data, when it is one of the failures ``Reason`` names.
    public var reason: Reason?

    /// An error of `kind` saying `message`, about `file` at `position` when they are
    /// known, with a `reason` a program can act on.
    public init(
        _ kind: Kind, _ message: String, file: String? = nil, position: SourcePosition? = nil,
        reason: Reason? = nil
    ) {
        self.kind = kind
        self.message = message
        self.file = file
        self.position = position
        self.reason = reason
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
