import IngestCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Small POSIX file helpers the outputs share.
package enum FileStatus {
    package static func exists(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0
    }

    /// Whether `first` and `second` name the same file however they are spelt
    /// (`x`, `./x`, `dir/../x`, a symbolic link to it, a hard link): the same device
    /// and inode. A name that does not exist yet is identified by its directory's
    /// device and inode and its last component, so `out.db` and `./out.db` are the
    /// same file before either is created.
    package static func sameFile(_ first: String, _ second: String) -> Bool {
        guard let one = identity(first), let other = identity(second) else { return first == second }
        return one.0 == other.0 && one.name == other.name
    }

    /// A file told apart from every other on the machine: its device and inode.
    package struct Identity: Equatable, Sendable {
        let device: UInt64
        let inode: UInt64
    }

    /// The identity of the file at `path` (following symbolic links), or `nil` when
    /// there is none.
    package static func identity(of path: String) -> Identity? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Identity(device: UInt64(truncatingIfNeeded: info.st_dev), inode: UInt64(truncatingIfNeeded: info.st_ino))
    }

    /// The file's identity and no name, or, for a name that does not exist yet, its
    /// directory's identity and its last component.
    private static func identity(_ path: String) -> (Identity, name: String?)? {
        if let file = identity(of: path) { return (file, nil) }
        let (directory, base) = AtomicFile.split(path)
        guard !base.isEmpty, base != ".", base != "..", let parent = identity(of: directory.isEmpty ? "." : directory)
        else { return nil }
        return (parent, base)
    }

    package static var temporaryDirectory: String {
        getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
    }

    package static func remove(_ path: String) { unlink(path) }

    /// Streams the file at `path` to `descriptor` (`name` names it in errors).
    package static func copy(_ path: String, to output: Int32, named name: String) throws {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw IngestError(.input, "cannot open: \(POSIX.lastError)", file: path) }
        defer { _ = close(descriptor) }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: defaultChunkSize, alignment: 1)
        defer { buffer.deallocate() }
        while true {
            // As InputFile reads: a requested stop ends the copy at the next read.
            try Interruption.check(file: path)
            let count = read(descriptor, buffer.baseAddress, buffer.count)
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw IngestError(.io, "read failed: \(POSIX.lastError)", file: path) }
            if count == 0 { return }
            try POSIX.writeAll(output, UnsafeRawBufferPointer(rebasing: buffer[..<count]), to: name)
        }
    }
}
