import IngestKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The command's signal handling. The first SIGINT, SIGTERM or SIGHUP asks the run
/// to stop (``Interruption``): inputs throw at their next read, and the run fails
/// the way any run does — an append rolled back, a new file's temporary deleted —
/// then ``endIfInterrupted(finishReport:)`` ends the process as the signal would have. If that
/// has not happened within ``graceSeconds`` (a wait no read ends: a server's
/// answer, an index being built), or at a second signal, the handler removes the
/// temporary files and ends the process at once; a database append then leaves
/// SQLite's journal, which the next open plays back. (The library installs no
/// handlers; a program that embeds it decides.)
enum SignalCleanup {
    nonisolated(unsafe) private static var installed = false
    /// How long a stopping run may take to leave its outputs as they were.
    static let graceSeconds: UInt32 = 10

    static func install() {
        guard !installed else { return }
        installed = true
        for number in [SIGINT, SIGTERM, SIGHUP] {
            // No SA_RESTART: a read waiting on a pipe returns EINTR and sees the request.
            handle(number) { received in
                if Interruption.requestedSignal != nil { SignalCleanup.endNow(received) }
                Interruption.request(signal: received)
                alarm(SignalCleanup.graceSeconds)
            }
        }
        handle(SIGALRM) { _ in SignalCleanup.endNow(Interruption.requestedSignal ?? SIGALRM) }
    }

    /// Ends the process by the signal that asked the run to stop, if one did, after
    /// `finishReport` has written the run's report with the status that signal
    /// gives (128 + its number). Call it once the run has left its outputs as they
    /// were.
    static func endIfInterrupted(finishReport: (_ status: Int32) -> Void) {
        guard let number = Interruption.requestedSignal else { return }
        finishReport(128 + number)
        endNow(number)
    }

    private static func handle(_ number: Int32, _ handler: @convention(c) (Int32) -> Void) {
        var action = sigaction()
        #if canImport(Glibc)
        action.__sigaction_handler.sa_handler = handler
        #else
        action.__sigaction_u.__sa_handler = handler
        #endif
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        sigaction(number, &action, nil)
    }

    /// Removes the temporary files and ends the process by `signal`. Async-signal-safe.
    private static func endNow(_ number: Int32) {
        TemporaryFiles.removeAll()
        signal(number, SIG_DFL)
        // In its own handler the signal is blocked: let it through to end the process.
        var only = sigset_t()
        sigemptyset(&only)
        sigaddset(&only, number)
        sigprocmask(SIG_UNBLOCK, &only, nil)
        raise(number)
        _exit(128 + number)
    }

    /// Makes a write to a pipe whose reader has gone fail with `EPIPE` instead of
    /// killing the process, so that `ingest … --out - | head -1` cleans up and
    /// ends quietly with status 0 (`IngestError.Code.readerClosed`).
    static func ignoreBrokenPipes() {
        signal(SIGPIPE, SIG_IGN)
    }
}
