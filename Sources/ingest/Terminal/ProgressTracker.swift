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

    /// Called on the parsing thread after each chunk.
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
