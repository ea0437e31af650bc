import IngestCore
import IngestPOSIX
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The file a ``FileOutput`` is built in, with its spools.
///
/// The file is built in an ``AtomicFile`` beside the target and renamed over it by
/// ``commit()``; a run that fails (or is interrupted) before that leaves an existing
/// target byte for byte as it was. ``makeSpool()`` gives temporary files in the same
/// directory, removed when they go away.
///
/// A path of `-`, or one that is not a regular file (`/dev/null`, a FIFO: see
/// ``OutputTarget``), cannot be replaced. When the format can be written in order
/// (`streamable`), the writer writes there as records come (``streams``); otherwise
/// the file is built in the temporary directory and copied there on commit. A
/// symbolic link to a regular file builds the file beside the file the link names,
/// which it replaces.
///
/// From creation to ``commit()`` or ``discard()`` it holds the output's
/// ``OutputLock`` (but for a stream, which has no file to lock beside), so two runs
/// on one output never interleave.
final class OutputFile {
    /// The path as the user gave it (`-` for standard output).
    let path: String
    let replace: Bool
    /// Whether the output is written straight through to a stream as it is made.
    let streams: Bool
    /// Temporary files of killed runs removed from beside the target.
    let removedTemporaryFiles: [String]
    /// How long the lock was waited for, in seconds.
    let secondsWaitedForLock: Double
    /// Where the path leads.
    private let target: OutputTarget
    /// The file being built; `nil` when the output ``streams``.
    private let file: AtomicFile?
    private var lock: OutputLock?
    private var writerStorage: BufferedFileWriter?

    /// Prepares `path`, waiting up to `lockTimeout` seconds for another run's lock on
    /// it (then `.temporary`; `whileWaiting` is told the holder's process id once the
    /// wait starts). An existing file is refused (`.output`) unless `replace`.
    /// `streamable` says whether the format can be written in order, never going
    /// back, so that a stream can receive it as it is made.
    init(
        path: String, replace: Bool, lockTimeout: Double, streamable: Bool,
        whileWaiting: ((_ holder: Int32?) -> Void)? = nil
    ) throws {
        self.path = path
        self.replace = replace
        target = OutputTarget(path)
        streams = streamable && target.isStream
        if streams {
            file = nil
            removedTemporaryFiles = []
            secondsWaitedForLock = 0
            return
        }
        let filePath = target.filePath
        let lock = try filePath.map { try OutputLock(on: $0, timeout: lockTimeout, whileWaiting: whileWaiting) }
        secondsWaitedForLock = lock?.waitedSeconds ?? 0
        removedTemporaryFiles = filePath.map { AtomicFile.removeStale(beside: $0) } ?? []
        if let filePath, FileStatus.exists(filePath), !replace {
            throw IngestError(.output, "already exists", file: path, reason: .outputExists(appendable: false))
        }
        file = try AtomicFile(target: filePath ?? FileStatus.temporaryDirectory + "/ingest-\(getpid())-stream.out")
        self.lock = lock
    }

    /// The file being built, renamed into place by ``commit()``. Only for an output
    /// that does not ``streams``.
    var temporaryPath: String {
        guard let file else { preconditionFailure("OutputFile.temporaryPath of a stream") }
        return file.temporaryPath
    }

    /// The name errors are reported under.
    var displayName: String { path == "-" ? "<stdout>" : path }

    /// The writer of the file being built, or of the stream.
    func writer() throws -> BufferedFileWriter {
        if let writerStorage { return writerStorage }
        let writer: BufferedFileWriter
        switch (streams, target) {
        case (true, .standardOutput):
            writer = BufferedFileWriter(streamingTo: STDOUT_FILENO, displayName: displayName, closes: false)
        case (true, .stream(let stream)):
            let descriptor = open(stream, O_WRONLY | O_CLOEXEC)
            guard descriptor >= 0 else {
                throw IngestError(.output, "cannot open for writing: \(POSIX.lastError)", file: path)
            }
            writer = BufferedFileWriter(streamingTo: descriptor, displayName: displayName, closes: true)
        default:
            writer = try BufferedFileWriter(path: temporaryPath, displayName: displayName)
        }
        writerStorage = writer
        return writer
    }

    /// A temporary file beside the output (in the temporary directory for a
    /// stream), removed when released.
    func makeSpool(capacity: Int = 256 * 1024) throws -> SpoolFile {
        try SpoolFile(beside: file?.target ?? FileStatus.temporaryDirectory + "/ingest-spool", capacity: capacity)
    }

    /// Writes out what the writer of a stream holds, so that its reader has every
    /// record made so far. Nothing to do for a file, which is read only once whole.
    func flushStream() throws {
        if streams { try writerStorage?.flush() }
    }

    /// Flushes the file, renames it into place (or copies it to the stream).
    func commit() throws {
        try writerStorage?.flush()
        writerStorage = nil
        guard let file else { return }
        try file.commit(replacing: replace || target.isStream)
        lock?.release()
        lock = nil
        if target.isStream {
            defer { FileStatus.remove(file.target) }
            try target.copy(from: file.target, path: path)
        }
    }

    /// Gives up: the target stays as it was (a stream keeps what it was sent).
    func discard() {
        writerStorage = nil
        file?.discard()
        lock?.release()
        lock = nil
    }
}
