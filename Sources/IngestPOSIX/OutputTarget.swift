import IngestCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where an output path leads, which decides how a file output is put in place.
///
/// Only a regular file can be replaced atomically: a new one is built beside it and
/// renamed over it. Anything else a path can name — `/dev/null`, a FIFO, a pipe a
/// shell hands over as `/dev/fd/63` (`--out >(gzip > x.gz)`), a terminal — must be
/// written through as it is: replacing it with a regular file would break what it is
/// (a root run with `--out /dev/null` would replace the device).
package enum OutputTarget: Equatable, Sendable {
    /// `-`: the process's standard output.
    case standardOutput
    /// Something that is not a regular file or a directory (a device, a FIFO, a
    /// socket), or a symbolic link to one: opened and written through, with no
    /// temporary file, no rename and no lock file beside it. It never "already
    /// exists", so it needs no `--replace`.
    case stream(String)
    /// A regular file, or nothing yet, at this path. A symbolic link to a regular
    /// file leads to the file it names, which is replaced there: the link stays.
    case file(String)

    /// What `path` leads to now.
    package init(_ path: String) {
        if path == "-" {
            self = .standardOutput
            return
        }
        var info = stat()
        guard stat(path, &info) == 0 else {
            self = .file(path)
            return
        }
        let type = info.st_mode & S_IFMT
        if type != S_IFREG && type != S_IFDIR {
            self = .stream(path)
            return
        }
        var link = stat()
        if type == S_IFREG, lstat(path, &link) == 0, (link.st_mode & S_IFMT) == S_IFLNK,
            let resolved = realpath(path, nil)
        {
            defer { free(resolved) }
            self = .file(String(cString: resolved))
            return
        }
        self = .file(path)
    }

    /// Whether the target is written through (standard output or a stream).
    package var isStream: Bool {
        if case .file = self { return false }
        return true
    }

    /// The regular file the output is built for, or `nil` for a stream.
    package var filePath: String? {
        if case .file(let path) = self { return path }
        return nil
    }

    /// Copies the finished file at `source` to the stream (`path` names it in errors).
    package func copy(from source: String, path: String) throws {
        switch self {
        case .standardOutput:
            try FileStatus.copy(source, to: STDOUT_FILENO, named: "standard output")
        case .stream(let stream):
            let descriptor = open(stream, O_WRONLY | O_CLOEXEC)
            guard descriptor >= 0 else {
                throw IngestError(.output, "cannot open for writing: \(POSIX.lastError)", file: path)
            }
            defer { _ = POSIX.close(descriptor) }
            try FileStatus.copy(source, to: descriptor, named: path)
        case .file:
            preconditionFailure("OutputTarget.copy(from:path:) on a regular file, which is renamed into place")
        }
    }

    /// Writes `bytes` to the stream (`path` names it in errors).
    package func write(_ bytes: [UInt8], path: String) throws {
        switch self {
        case .standardOutput:
            try bytes.withUnsafeBytes { try POSIX.writeAll(STDOUT_FILENO, $0, to: "standard output") }
        case .stream(let stream):
            let descriptor = open(stream, O_WRONLY | O_CLOEXEC)
            guard descriptor >= 0 else {
                throw IngestError(.output, "cannot open for writing: \(POSIX.lastError)", file: path)
            }
            defer { _ = POSIX.close(descriptor) }
            try bytes.withUnsafeBytes { try POSIX.writeAll(descriptor, $0, to: path) }
        case .file:
            preconditionFailure("OutputTarget.write(_:path:) on a regular file, which is written atomically")
        }
    }
}
