import IngestCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file written under a temporary name beside its target and renamed into place
/// only when complete, so a failed or killed run never leaves a torn file and never
/// touches the previous one.
///
/// The temporary name is `.<target>.ingest-<pid>-<n>.tmp` in the target's directory
/// (the same file system, so the rename is atomic). It is removed on
/// ``discard()`` and on deinit without ``commit()``; a program that wants it gone
/// when a signal ends the process calls ``TemporaryFiles/removeAll()`` from its
/// signal handler (the `ingest` command does, for SIGINT, SIGTERM and SIGHUP).
package final class AtomicFile {
    package let target: String
    package let temporaryPath: String
    private var done = false {
        didSet {
            if done, writebackDescriptor >= 0 {
                close(writebackDescriptor)
                writebackDescriptor = -1
            }
        }
    }
    private var writebackDescriptor: Int32 = -1

    package init(target: String) throws {
        self.target = target
        let (directory, base) = Self.split(target)
        var path: String
        var descriptor: Int32
        repeat {
            // A name taken already is a leftover of an earlier process that had this
            // pid (so it was not removed as a dead one's): the next serial is free.
            path = "\(directory).\(base).ingest-\(getpid())-\(TemporaryFiles.nextSerial()).tmp"
            descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        } while descriptor < 0 && errno == EEXIST
        temporaryPath = path
        guard descriptor >= 0 else {
            done = true  // nothing was created, so there is nothing to discard
            throw IngestError(
                .output, "cannot create a file beside it: \(String(cString: strerror(errno)))", file: target)
        }
        close(descriptor)
        TemporaryFiles.register(temporaryPath)
    }

    deinit {
        if !done { discard() }
        if writebackDescriptor >= 0 { close(writebackDescriptor) }
    }

    /// Asks the kernel to start writing what the temporary file holds so far to disk,
    /// without waiting: called as a large file grows, it lets the disk work while
    /// ingest does, so the final flush in ``commit()`` has little left to wait for.
    /// Only Linux has the call (`sync_file_range`); elsewhere this does nothing.
    package func startWriteback() {
        #if os(Linux)
        guard !done else { return }
        if writebackDescriptor < 0 { writebackDescriptor = open(temporaryPath, O_RDONLY | O_CLOEXEC) }
        if writebackDescriptor >= 0, let syncFileRange {
            _ = syncFileRange(writebackDescriptor, 0, 0, syncFileRangeWrite)
        }
        #endif
    }

    /// Flushes the temporary file to disk and renames it over the target.
    ///
    /// With `replacing` false the target must not exist: the file is put in place with
    /// `link(2)`, which fails if anything is at the target by then, so a file another
    /// program created meanwhile is never overwritten (`.output`, and this file is
    /// discarded). Where the file system has no hard links it falls back to a rename.
    package func commit(replacing: Bool = true) throws {
        guard !done else { return }
        try Self.sync(path: temporaryPath, what: target)
        if !replacing, link(temporaryPath, target) == 0 {
            unlink(temporaryPath)
        } else if !replacing, errno == EEXIST {
            discard()
            throw IngestError(
                .output, "already exists: it appeared while this run was writing it", file: target,
                reason: .outputExists(appendable: false))
        } else if rename(temporaryPath, target) != 0 {
            let reason = String(cString: strerror(errno))
            discard()
            throw IngestError(.output, "cannot move the finished file into place: \(reason)", file: target)
        }
        done = true
        TemporaryFiles.unregister(temporaryPath)
        let slash = target.lastIndex(of: "/")
        try? Self.sync(path: slash.map { String(target[...$0]) } ?? ".", what: target)
    }

    /// Writes `bytes` to `path` atomically; `-` writes them to standard output, and
    /// a path that is not a regular file (`/dev/stderr`, a FIFO) is written through
    /// (see ``OutputTarget``). An existing file is refused (`.output`) unless `replace`;
    /// a symbolic link to one replaces the file it names.
    package static func write(_ bytes: [UInt8], to path: String, replace: Bool) throws {
        let target = OutputTarget(path)
        guard let filePath = target.filePath else { return try target.write(bytes, path: path) }
        if FileStatus.exists(filePath), !replace {
            throw IngestError(.output, "already exists", file: path, reason: .outputExists(appendable: false))
        }
        let file = try AtomicFile(target: filePath)
        let descriptor = open(file.temporaryPath, O_WRONLY | O_TRUNC | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw IngestError(.output, "cannot write a file beside it: \(POSIX.lastError)", file: path)
        }
        defer { _ = POSIX.close(descriptor) }
        try bytes.withUnsafeBytes { try POSIX.writeAll(descriptor, $0, to: path) }
        try file.commit()
    }

    /// Removes the temporary files that runs killed before they could clean up (SIGKILL,
    /// a power cut) left beside `target`: files named exactly as this type names them
    /// for `target` (`.<name>.ingest-<pid>-<n>.tmp`) whose process is gone
    /// (`kill(pid, 0)` fails with `ESRCH`). A file of a running process is kept,
    /// whatever it is doing. Returns the paths removed.
    ///
    /// Call it while holding the output's ``OutputLock``: no other run of this output
    /// can be creating such a file then.
    package static func removeStale(beside target: String) -> [String] {
        let (directory, base) = split(target)
        let prefix = ".\(base).ingest-", suffix = ".tmp"
        var removed: [String] = []
        for name in POSIX.entryNames(in: directory.isEmpty ? "." : directory) ?? [] {
            guard name.hasPrefix(prefix), name.hasSuffix(suffix), name.count > prefix.count + suffix.count else {
                continue
            }
            let middle = name.dropFirst(prefix.count).dropLast(suffix.count).split(
                separator: "-", omittingEmptySubsequences: false)
            guard middle.count == 2,
                middle.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
                let pid = pid_t(middle[0]), pid > 0, pid != getpid()
            else { continue }
            guard kill(pid, 0) == -1, errno == ESRCH else { continue }
            let path = directory + name
            if unlink(path) == 0 { removed.append(path) }
        }
        return removed.sorted()
    }

    /// `dir/name` → (`dir/`, `name`); `name` → (``, `name`).
    package static func split(_ target: String) -> (directory: String, base: String) {
        guard let slash = target.lastIndex(of: "/") else { return ("", target) }
        return (String(target[...slash]), String(target[target.index(after: slash)...]))
    }

    /// Removes the temporary file; the target stays as it was.
    package func discard() {
        guard !done else { return }
        done = true
        unlink(temporaryPath)
        TemporaryFiles.unregister(temporaryPath)
    }

    private static func sync(path: String, what: String) throws {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw IngestError(.io, "cannot reopen to sync: \(String(cString: strerror(errno)))", file: what)
        }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 || errno == EINVAL else {
            throw IngestError(.io, "cannot flush to disk: \(String(cString: strerror(errno)))", file: what)
        }
    }
}

#if os(Linux)
/// glibc's `sync_file_range`, which Swift's Glibc module leaves out (it needs
/// `_GNU_SOURCE`); looked up once by name.
private let syncFileRange: (@convention(c) (Int32, Int64, Int64, UInt32) -> Int32)? =
    dlsym(UnsafeMutableRawPointer(bitPattern: 0), "sync_file_range").map {
        unsafeBitCast($0, to: (@convention(c) (Int32, Int64, Int64, UInt32) -> Int32).self)
    }
/// `SYNC_FILE_RANGE_WRITE`: start writeback of dirty pages, don't wait for it.
private let syncFileRangeWrite: UInt32 = 2
#endif
