import IngestCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The lock one run holds on an output from ``/IngestCore/Output/open()`` to ``/IngestCore/Output/commit()``
/// (or ``/IngestCore/Output/discard()``), so that two runs on the same output — a cron job that
/// overlaps the previous night's — never interleave: the second waits for the first
/// to finish, then sees the output the first one left.
///
/// It is `flock(2)` on `.<name>.ingest.lock` beside the output. The kernel releases a
/// `flock` when its process ends, however it ends, so the lock of a run killed with
/// SIGKILL is free again at once: the file it leaves behind is reused by the next run
/// (and removed by it), and no process id has to be checked. A run removes the file
/// while it still holds the lock; a waiter that locked a file removed meanwhile
/// notices (the name leads to another file, or none) and starts over.
///
/// The holder writes its process id into the file, so that a run that has to wait can
/// say whom it waits for.
///
/// The lock binds ingest runs (and programs using these outputs) to each other; a
/// program that opens the file directly is not held back by it.
package final class OutputLock {
    /// The lock file: `.<name>.ingest.lock` in the output's directory.
    package let path: String
    private var descriptor: Int32 = -1
    /// How long ``init(on:timeout:whileWaiting:)`` waited for another run, in seconds.
    package private(set) var waitedSeconds: Double = 0

    /// The lock file's name for `target`.
    package static func path(for target: String) -> String {
        let (directory, base) = AtomicFile.split(target)
        return "\(directory).\(base).ingest.lock"
    }

    /// Takes the lock on `target`, waiting up to `timeout` seconds for a run that
    /// holds it. Throws `.temporary` (exit 75) when the wait is over and the other run
    /// still holds it; `.output` when the lock file cannot be created or locked.
    ///
    /// `whileWaiting` is called once, when the lock turns out to be held, with the
    /// holder's process id (`nil` when it wrote none, as a run of an older version).
    package init(on target: String, timeout: Double, whileWaiting: ((_ holder: Int32?) -> Void)? = nil) throws {
        path = Self.path(for: target)
        let clock = ContinuousClock()
        let started = clock.now
        let deadline = started + .milliseconds(Int64(max(0, timeout) * 1000))
        var pause: Int64 = 5  // milliseconds between tries, doubling to 200
        var toldWaiting = whileWaiting == nil
        defer {
            let waited = clock.now - started
            waitedSeconds = Double(waited.components.seconds) + Double(waited.components.attoseconds) / 1e18
        }
        while true {
            if descriptor < 0 {
                descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
                guard descriptor >= 0 else {
                    throw IngestError(
                        .output, "cannot create the lock file \(path) beside it: \(POSIX.lastError)", file: target)
                }
            }
            if flock(descriptor, LOCK_EX | LOCK_NB) == 0 {
                if holdsNamedFile { break }
                // The run before us removed the file we locked: lock the one the name leads to now.
                _ = POSIX.close(descriptor)
                descriptor = -1
                continue
            }
            let failure = errno
            guard failure == EWOULDBLOCK || failure == EINTR else {
                let reason = POSIX.lastError
                _ = POSIX.close(descriptor)
                descriptor = -1
                throw IngestError(.output, "cannot lock \(path): \(reason)", file: target)
            }
            guard clock.now < deadline else {
                _ = POSIX.close(descriptor)
                descriptor = -1
                throw IngestError(
                    .temporary, "another run is writing it (it holds \(path)); waited \(Self.seconds(timeout)) s",
                    file: target, reason: .outputBusy(waitedSeconds: timeout))
            }
            if !toldWaiting {
                // The holder writes its id just after locking: give it a moment to.
                let holder = holderProcessID
                if holder != nil || clock.now - started > .milliseconds(100) {
                    toldWaiting = true
                    whileWaiting?(holder)
                }
            }
            usleep(useconds_t(pause * 1000))
            pause = min(pause * 2, 200)
        }
        TemporaryFiles.register(path)
        writeProcessID()
    }

    /// Writes this process's id into the held lock file, for runs that wait to name.
    private func writeProcessID() {
        let text = Array("\(getpid())\n".utf8)
        guard ftruncate(descriptor, 0) == 0 else { return }
        _ = text.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
    }

    /// The process id the holder of the lock wrote into the file, if any.
    private var holderProcessID: Int32? {
        var bytes = [UInt8](repeating: 0, count: 16)
        let count = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        let digits = bytes.prefix(count).prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
        guard let id = Int32(String(decoding: digits, as: UTF8.self)), id > 0 else { return nil }
        return id
    }

    deinit { release() }

    /// Removes the lock file and releases the lock. Safe to call more than once.
    package func release() {
        guard descriptor >= 0 else { return }
        unlink(path)
        TemporaryFiles.unregister(path)
        _ = POSIX.close(descriptor)
        descriptor = -1
    }

    /// Whether the file locked is the one `path` names now.
    private var holdsNamedFile: Bool {
        var held = stat(), named = stat()
        guard fstat(descriptor, &held) == 0, stat(path, &named) == 0 else { return false }
        return held.st_dev == named.st_dev && held.st_ino == named.st_ino
    }

    /// `1.5`, `60`: seconds as a message gives them.
    package static func seconds(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
