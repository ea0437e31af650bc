/// The one error type ingest's modules throw: what went wrong, where, and what class
/// of failure it is.
///
/// Printed, it reads like a compiler diagnostic: `folks.xml:12:7: mismatched tag`.
/// The message says what is wrong in the library's terms; ``reason`` says it again
/// as data, for a program to act on: a code that the module which throws the error
/// declares (IngestCore's own, IngestTree's, IngestPostgres'…), so the core knows
/// no other module's failures and a new code breaks no `switch` of yours. What a
/// failure means to a user — its exit status, the option that changes the outcome —
/// is for the program to say: the `ingest` command maps ``kind`` to a sysexits code
/// and ``reason`` to the flag that helps.
public struct IngestError: Error, CustomStringConvertible, Sendable {
    /// The class of failure: the distinction a caller acts on (fix the input, the
    /// output, the call, or try again), each matching one of BSD's sysexits codes.
    public enum Kind: Sendable {
        /// The library or command was used wrongly (EX_USAGE).
        case usage
        /// The input is malformed or does not fit the mapping (EX_DATAERR).
        case data
        /// The input does not exist or cannot be read (EX_NOINPUT).
        case input
        /// The output cannot be created (EX_CANTCREAT).
        case output
        /// Reading or writing failed part-way (EX_IOERR).
        case io
        /// A failure that may pass if tried again later — a server that refused the
        /// connection or went away (EX_TEMPFAIL).
        case temporary
    }

    /// What went wrong, as data: a ``Code`` and the value that goes with it (the limit
    /// broken, the path that matched nothing…).
    ///
    /// Each module declares its reasons as static members of ``Reason`` (to make one)
    /// and ``Code`` (to match one), and the accessors that read their values:
    ///
    /// ```swift
    /// if error.reason?.code == .depthLimit, let limit = error.reason?.limit { … }
    /// switch error.reason?.code {
    /// case .depthLimit?, .textLimit?: …
    /// default: …
    /// }
    /// ```
    public struct Reason: Sendable, Equatable, CustomStringConvertible {
        /// Which failure it is.
        public let code: Code
        /// The value, boxed so that the error holds a reference, not an existential:
        /// copying an `IngestError?` and testing it for `nil` (which a parser does for
        /// every event) then stay inline instead of calling value witnesses.
        private let box: ValueBox?

        /// What goes with the code, read through its module's accessors.
        public var value: (any Sendable & Hashable)? { box?.value }

        /// A reason of `code` carrying `value`; a module's static members make them.
        public init(_ code: Code, _ value: (any Sendable & Hashable)? = nil) {
            self.code = code
            self.box = value.map(ValueBox.init)
        }

        private final class ValueBox: Sendable {
            let value: any Sendable & Hashable
            init(_ value: any Sendable & Hashable) { self.value = value }
        }

        /// The value, if it is a `T`.
        public func value<T>(as type: T.Type) -> T? { value as? T }

        public static func == (lhs: Reason, rhs: Reason) -> Bool {
            lhs.code == rhs.code && lhs.value.map { AnyHashable($0) } == rhs.value.map { AnyHashable($0) }
        }

        /// The code, and the value in parentheses: `depthLimit(10000)`.
        public var description: String {
            guard let value else { return code.name }
            return "\(code.name)(\(value))"
        }
    }

    /// The name of a failure, declared by the module that reports it: an open set of
    /// values rather than an enum, so that a module (or your own code) adds one without
    /// breaking anyone's `switch`.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        /// The code's name, unique across modules: `depthLimit`, `serverUnavailable`.
        public let name: String

        /// The code called `name`; declare it once, as a static member.
        public init(_ name: String) { self.name = name }

        public var description: String { name }
    }

    /// The class of failure: what the caller has to fix, or that trying again may do.
    public var kind: Kind
    /// What is wrong, in the library's words: `mismatched tag`, `already exists`. It
    /// names no command-line option.
    public var message: String
    /// The input (or output) the error is about, as the user named it.
    public var file: String?
    /// Where in ``file`` the problem is, when it is about a place in an input.
    public var position: SourcePosition?
    /// What went wrong, as data, when the module that threw the error names the
    /// failure; `nil` for the failures no program needs to tell apart.
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
