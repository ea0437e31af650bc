import IngestKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The command's signal handling: SIGINT, SIGTERM and SIGHUP remove the temporary
/// files outputs are being built in, then end the process as the signal would
/// have. (The library installs no handlers; a program that embeds it decides.)
enum SignalCleanup {
    nonisolated(unsafe) private static var installed = false

    static func install() {
        guard !installed else { return }
        installed = true
        for number in [SIGINT, SIGTERM, SIGHUP] {
            signal(number) { received in
                TemporaryFiles.removeAll()
                signal(received, SIG_DFL)
                raise(received)
            }
        }
    }

    /// Makes a write to a pipe whose reader has gone fail with `EPIPE` instead of
    /// killing the process, so that `ingest … --out - | head -1` cleans up and
    /// ends quietly with status 0 (``IngestError/Reason/readerClosed``).
    static func ignoreBrokenPipes() {
        signal(SIGPIPE, SIG_IGN)
    }
}
