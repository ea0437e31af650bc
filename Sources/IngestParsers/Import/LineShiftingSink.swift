import IngestCore

/// Forwards records to `sink` with their positions moved `lines` lines down: how the
/// records of a part of a JSON Lines file (``/IngestCore/FilePiece``), which
/// was read as if it began the file, get the lines they have in it. It remembers
/// whether `sink` failed, so that only the part's own errors are moved too.
final class LineShiftingSink: RecordSink {
    private let sink: any RecordSink
    private let lines: Int
    /// Whether an error came from `sink`, whose positions are already the file's.
    private(set) var sinkFailed = false

    init(_ sink: any RecordSink, lines: Int) {
        self.sink = sink
        self.lines = lines
    }

    func write(_ record: IngestRecord) throws {
        var record = record
        record.position.line += lines
        try forwarding { try sink.write(record) }
    }

    func write(_ batch: RecordBatch) throws {
        if lines != 0 { batch.shiftLines(by: lines) }
        try forwarding { try sink.write(batch) }
    }

    func renameTable(_ old: String, to new: String) throws {
        try forwarding { try sink.renameTable(old, to: new) }
    }

    func flush() throws {
        try forwarding { try sink.flush() }
    }

    /// `error`, one of the part's own, with its position moved to the file's line.
    func shifted(_ error: any Error) -> any Error {
        guard !sinkFailed, var error = error as? IngestError, error.position != nil else { return error }
        error.position!.line += lines
        return error
    }

    private func forwarding(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch {
            sinkFailed = true
            throw error
        }
    }
}
