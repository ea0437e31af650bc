import IngestKit

/// Turns the import's progress reports into a ``ProgressMeter`` per input, drawn
/// while that input is read.
final class ProgressTracker: @unchecked Sendable {
    private let enabled: Bool
    private var meter: ProgressMeter?
    private var input = ""

    init(enabled: Bool) {
        self.enabled = enabled
    }

    /// Called after each chunk, on the thread that maps the input (the parser's, or
    /// the mapping's own), never at the same time as ``finish()``.
    func update(_ progress: ImportProgress) {
        if meter == nil || progress.input != input {
            meter?.finish()
            input = progress.input
            meter = ProgressMeter(label: progress.input, total: progress.totalBytes, enabled: enabled)
        }
        meter?.update(bytes: progress.bytesRead, records: progress.records)
    }

    /// Erases the line; call once the import is over.
    func finish() {
        meter?.finish()
        meter = nil
    }
}
