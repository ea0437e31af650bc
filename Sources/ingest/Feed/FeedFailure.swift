import Foundation
import IngestFeedFetch
import IngestKit

/// Why a source could not be read, and the sysexits status that says whether
/// trying again later may help: 75 (temporary) for network errors, timeouts, 5xx,
/// 408 and 429; 66 (cannot read the input) for 404, 410 and the other 4xx, as for a
/// missing file; 65 for what is not a feed; 73 and 74 when the output failed.
///
/// It never names its own source — messages put the name first once (`news.rss:3:7:
/// mismatched tag`) — but may name another file: the output, a redirect's target.
struct FeedFailure: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    let message: String
    /// Where in the source, when the failure is about a place in it.
    let position: SourcePosition?
    /// The HTTP status of the response, if there was one.
    let status: Int?
    let exitCode: Int32
    /// Whether the database written to could not be used (a server down or
    /// restarting, another run holding the tables): the output's failure, whatever
    /// the exit status says.
    let isServerFailure: Bool
    /// When the server asked to be asked again (`Retry-After`), for the archive's
    /// next fetch.
    var retryAfter: Date?
    /// Why this failure ends the whole run rather than one source's, if it does.
    var endsRun: RunEnding?
    /// When it happened: the fetch's time on the archive's row, from which its
    /// backoff and `Retry-After` count — not when the writer got to it.
    let date = Date()

    /// What ends a run at the first source it reaches.
    enum RunEnding: Sendable {
        /// Standard output's reader went away (`ingest feed … --out - | head`): the
        /// run ends there, quietly, as the reader has all it wanted.
        case readerClosed
        /// The command was asked to end by a signal (``/IngestPOSIX/Interruption``):
        /// the run ends there, its outputs as they were.
        case interrupted
    }

    var isTemporary: Bool { exitCode == IngestError.Kind.temporary.exitCode }
    /// Whether the output itself failed: nothing can be recorded about the source.
    var isOutputFailure: Bool {
        isServerFailure || exitCode == IngestError.Kind.output.exitCode || exitCode == IngestError.Kind.io.exitCode
    }

    /// `3:7: mismatched tag`: the place, when known, and the message — as the
    /// archive's `last_error` and the run report keep it, beside the source's name.
    var detail: String { (position.map { "\($0): " } ?? "") + message }

    var description: String { detail + (isTemporary ? " (temporary: try again later)" : "") }

    /// The line printed for `source`: `news.rss:3:7: mismatched tag`, `nosuch.rss:
    /// cannot open: No such file or directory`.
    func line(for source: FeedSource) -> String {
        source.displayName + (position.map { ":\($0)" } ?? "") + ": " + message
            + (isTemporary ? " (temporary: try again later)" : "")
    }

    init(
        _ message: String, position: SourcePosition? = nil, status: Int? = nil, exitCode: Int32,
        isServerFailure: Bool = false
    ) {
        self.message = message
        self.position = position
        self.status = status
        self.exitCode = exitCode
        self.isServerFailure = isServerFailure
    }

    /// `error` as `ingest feed` words it: the import command's options lift the
    /// limits of text, depth and libxml2, but `ingest feed` reads with fixed ones, so
    /// its words say which limit rather than hint at an option it does not have.
    static func worded(_ error: IngestError) -> IngestError {
        var worded = error
        switch error.reason?.code {
        case .textLimit?, .libxml2Limit?: worded.reason = nil
        case .depthLimit?:
            worded.reason = nil
            worded.message += " (a fixed limit of ingest feed)"
        default: break
        }
        return worded
    }

    /// A library error met reading `source`: its message (with the command's hint,
    /// but for a limit `ingest feed` has no option to raise) and status. The file it
    /// names is left out when it is the source, its place kept apart.
    static func ingest(_ error: IngestError, of source: FeedSource, status: Int? = nil) -> FeedFailure {
        let serverFailure =
            switch error.reason?.code {
            case .serverUnavailable?, .outputBusy?: true
            default: false
            }
        var unnamed = error
        let position: SourcePosition?
        if let file = error.file, source.isNamed(file) {
            unnamed.file = nil
            unnamed.position = nil
            position = error.position
        } else {
            position = nil
        }
        let message = Diagnostics.describe(worded(unnamed))
        var failure = FeedFailure(
            message, position: position, status: status, exitCode: error.kind.exitCode,
            isServerFailure: serverFailure)
        switch error.reason?.code {
        case .readerClosed?: failure.endsRun = .readerClosed
        case .interrupted?: failure.endsRun = .interrupted
        default: break
        }
        return failure
    }

    /// Any error met reading or writing `source` once it was fetched: the library's
    /// keep their kind; any other is an internal error (70).
    static func reading(_ error: any Error, of source: FeedSource) -> FeedFailure {
        if let failure = error as? FeedFailure { return failure }
        if let error = error as? IngestError { return .ingest(error, of: source) }
        return FeedFailure("\(error)", exitCode: 70)
    }

    /// A fetch's failure in the command's words: the library's errors under it keep
    /// their kind; what may come later is temporary (75); an HTTP status that will
    /// not is as a missing file (66); the rest is no feed to read (65).
    static func fetching(_ error: FeedFetchError, of source: FeedSource, maxBodyBytes: Int) -> FeedFailure {
        if error.kind == .unreadable, let underlying = error.ingestError {
            return .ingest(underlying, of: source, status: error.status)
        }
        let message =
            error.kind == .tooLarge
            ? "the body is larger than --max-size \(ByteCount(maxBodyBytes)) allows; nothing of it was stored"
            : error.message
        let exitCode =
            if error.isTemporary {
                IngestError.Kind.temporary.exitCode
            } else if error.kind == .httpStatus {
                IngestError.Kind.input.exitCode
            } else {
                IngestError.Kind.data.exitCode
            }
        var failure = FeedFailure(message, status: error.status, exitCode: exitCode)
        failure.retryAfter = error.retryAfter(at: failure.date)
        return failure
    }
}
