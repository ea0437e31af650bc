import IngestCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A request that reading stop, made from a signal handler: the way a program asks
/// a run to end early and still leave its outputs as they were.
///
/// Every `InputFile` (IngestParsers) checks it before each read (and when a read is
/// interrupted by a signal), and throws an error of reason
/// `IngestError.Reason.interrupted(signal:)` once it is made. The error then takes
/// the path of any failed read: a database append rolls back, a new file's temporary
/// is deleted, locks are released.
///
/// The library installs no signal handlers (a host application owns its process's
/// signals); a command-line program installs its own, without `SA_RESTART` so that
/// a read waiting on a pipe returns, and calls ``request(signal:)``:
///
/// ```swift
/// var action = sigaction()
/// action.__sigaction_handler.sa_handler = { Interruption.request(signal: $0) }
/// sigaction(SIGTERM, &action, nil)
/// ```
public enum Interruption {
    // Safety: one aligned 32-bit word, allocated once and never freed, written by a
    // signal handler (a plain store, as C's `volatile sig_atomic_t` is) and read by
    // the reading threads between system calls, which the compiler cannot move a
    // load across. Never reset: a process asked to stop stays asked.
    nonisolated(unsafe) private static let requested: UnsafeMutablePointer<Int32> = {
        let word = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
        word.initialize(to: 0)
        return word
    }()

    /// Asks every input to stop at its next read because of `signal`.
    /// Async-signal-safe: it only stores one word.
    public static func request(signal: Int32) {
        requested.pointee = signal
    }

    /// The signal that asked reading to stop, or `nil` when none has.
    public static var requestedSignal: Int32? {
        let signal = requested.pointee
        return signal == 0 ? nil : signal
    }

    /// Throws `IngestError.Reason.interrupted(signal:)` about `file` once a stop
    /// was requested.
    package static func check(file: String) throws {
        guard let signal = requestedSignal else { return }
        let name =
            signal == SIGINT
            ? "SIGINT" : signal == SIGTERM ? "SIGTERM" : signal == SIGHUP ? "SIGHUP" : "signal \(signal)"
        throw IngestError(.io, "interrupted by \(name)", file: file, reason: .interrupted(signal: signal))
    }
}
