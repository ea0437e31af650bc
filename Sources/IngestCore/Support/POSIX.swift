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

    /// Writes all of `bytes` to `descriptor`, retrying after interruptions and short
    /// writes; throws `.io` with the system's reason, naming `what`.
    package static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, to what: String) throws {
        var offset = 0
        while offset < bytes.count {
            let written = platformWrite(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                if errno == EPIPE { throw IngestError(.io, "cannot write to \(what): its reader closed it", reason: .readerClosed) }
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
