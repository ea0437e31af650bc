/// What the command says on standard error, and when:
///
/// - errors always;
/// - the one-line summary, and a wait for another run's lock, on a terminal or with
///   `--verbose` (a cron job run without `-v` stays silent on success, so cron mails
///   nothing);
/// - what is being done, with `--verbose`;
/// - nothing but errors with `--quiet`.
struct Console: Sendable {
    let quiet: Bool
    let verbose: Bool

    func error(_ message: String) {
        StandardError.write("ingest: \(message)\n")
    }

    func warning(_ message: String) {
        StandardError.write("ingest: warning: \(message)\n")
    }

    func info(_ message: String) {
        if verbose { StandardError.write("ingest: \(message)\n") }
    }

    func summary(_ line: String) {
        notice(line)
    }

    /// What a person watching should know now (the run waits for another): on a
    /// terminal or with `--verbose`, as the summary.
    func notice(_ line: String) {
        if !quiet, verbose || StandardError.isTerminal { StandardError.write("ingest: \(line)\n") }
    }
}
