import IngestCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The POSIX calls whose names the library's own methods take (`read`, `write`,
/// `close`), reachable from inside such types without naming the C library's
/// module, so the same source builds against Glibc and Darwin's libc alike. This is
/// the one file that knows they are free functions of the platform.
package enum POSIX {
    package static func read(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
        platformRead(descriptor, buffer, count)
    }

    package static func write(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
        platformWrite(descriptor, buffer, count)
    }

    package static func close(_ descriptor: Int32) -> Int32 {
        platformClose(descriptor)
    }

    /// `strerror(errno)` as a `String`: the system's reason for the last failure.
    package static var lastError: String { String(cString: strerror(errno)) }

    /// The names in `directory` (`.` and `..` included, in the directory's order), or
    /// `nil` when it cannot be listed (`errno` says why).
    ///
    /// Each name is read where `readdir` left it, never by copying the `dirent`: glibc
    /// allocates an entry only as long as its name, so copying the whole structure
    /// (`entry.pointee.d_name`) reads past the last entry of a buffer, which faults when
    /// that buffer ends at a page the process does not map.
    package static func entryNames(in directory: String) -> [String]? {
        guard let listing = opendir(directory) else { return nil }
        defer { closedir(listing) }
        let nameOffset = MemoryLayout<dirent>.offset(of: \.d_name)!
        var names: [String] = []
        while let entry = readdir(listing) {
            let name = (UnsafeRawPointer(entry) + nameOffset).assumingMemoryBound(to: CChar.self)
            names.append(String(cString: name))
        }
        return names
    }

    /// Writes all of `bytes` to `descriptor`, retrying after interruptions and short
    /// writes; throws `.io` with the system's reason, naming `what`.
    package static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, to what: String) throws {
        var offset = 0
        while offset < bytes.count {
            let written = platformWrite(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                if errno == EPIPE {
                    throw IngestError(.io, "cannot write to \(what): its reader closed it", reason: .readerClosed)
                }
                throw IngestError(.io, "cannot write to \(what): \(lastError)")
            }
            offset += written
        }
    }
}

private func platformRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}

private func platformWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}

private func platformClose(_ descriptor: Int32) -> Int32 {
    close(descriptor)
}
