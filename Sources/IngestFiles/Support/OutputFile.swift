import IngestCore
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
/// directory, removed when they go away. A path of `-` builds the file in the
/// temporary directory and copies it to standard output on commit.
///
/// From creation to ``commit()`` or ``discard()`` it holds the output's
/// ``OutputLock``, so two runs on one output never interleave.
final class OutputFile {
    /// The path as the user gave it (`-` for standard output).
    let path: String
    let replace: Bool
    /// Temporary files of killed runs removed from beside the target.
    let removedTemporaryFiles: [String]
    /// How long the lock was waited for, in seconds.
    let secondsWaitedForLock: Double
    private let file: AtomicFile
    private var lock: OutputLock?
    private var writerStorage: BufferedFileWriter?

    /// Prepares `path`, waiting up to `lockTimeout` seconds for another run's lock on
    /// it (then `.temporary`; `whileWaiting` is told the holder's process id once the
    /// wait starts). An existing file is refused (`.output`) unless `replace`.
    init(path: String, replace: Bool, lockTimeout: Double, whileWaiting: ((_ holder: Int32?) -> Void)? = nil) throws {
        self.path = path
        self.replace = replace
        let lock = path == "-" ? nil : try OutputLock(on: path, timeout: lockTimeout, whileWaiting: whileWaiting)
        secondsWaitedForLock = lock?.waitedSeconds ?? 0
        removedTemporaryFiles = path == "-" ? [] : AtomicFile.removeStale(beside: path)
        if path != "-", FileStatus.exists(path), !replace {
            throw IngestError(.output, "already exists", file: path, reason: .outputExists(appendable: false))
        }
        let target = path == "-" ? FileStatus.temporaryDirectory + "/ingest-\(getpid())-stdout.out" : path
        file = try AtomicFile(target: target)
        self.lock = lock
    }

    /// The file being built, renamed into place by ``commit()``.
    var temporaryPath: String { file.temporaryPath }

    /// The name errors are reported under.
    var displayName: String { path == "-" ? "<stdout>" : path }

    /// The writer of the file being built.
    func writer() throws -> BufferedFileWriter {
        if let writerStorage { return writerStorage }
        let writer = try BufferedFileWriter(path: file.temporaryPath, displayName: displayName)
        writerStorage = writer
        return writer
    }

    /// A temporary file beside the output, removed when released.
    func makeSpool(capacity: Int = 256 * 1024) throws -> SpoolFile {
        try SpoolFile(beside: file.target, capacity: capacity)
    }

    /// Flushes the file, renames it into place (or copies it to standard output).
    func commit() throws {
        try writerStorage?.flush()
        writerStorage = nil
        try file.commit(replacing: replace || path == "-")
        lock?.release()
        lock = nil
        if path == "-" {
            defer { FileStatus.remove(file.target) }
            try FileStatus.copyToStandardOutput(file.target)
        }
    }

    /// Gives up: the target stays as it was.
    func discard() {
        writerStorage = nil
        file.discard()
        lock?.release()
        lock = nil
    }
}
