import IngestCore

/// The failures IngestPOSIX names: a run that the system, not the data, ended.
extension IngestError.Code {
    /// The reader of an output written through to a pipe (standard output, a FIFO)
    /// closed it, wanting no more — `ingest … --out - | head -1`. Not a failure of the
    /// run: a command ends quietly, with success.
    public static let readerClosed = Self("readerClosed")
    /// Reading stopped because the program was asked to end (``Interruption``), by
    /// the signal ``IngestError/Reason/signal``: the outputs were left as they were,
    /// as for any failed run.
    public static let interrupted = Self("interrupted")
}

extension IngestError.Reason {
    /// The pipe's reader closed it (``IngestError/Code/readerClosed``).
    public static let readerClosed = Self(.readerClosed)
    /// Stopped by `signal` (``IngestError/Code/interrupted``).
    public static func interrupted(signal: Int32) -> Self { Self(.interrupted, signal) }

    /// For ``IngestError/Code/interrupted``: the signal that asked the program to end.
    public var signal: Int32? { code == .interrupted ? value(as: Int32.self) : nil }
}
