import IngestCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a file front to back through a 256 KiB buffer: the second pass over a
/// spool, byte by byte or in runs copied to a ``BufferedFileWriter``.
final class BufferedFileReader {
    let displayName: String
    private let descriptor: Int32
    private let buffer: UnsafeMutablePointer<UInt8>
    private let capacity: Int
    private var start = 0
    private var end = 0
    private var fileOffset: UInt64 = 0

    init(path: String, displayName: String, capacity: Int = 256 * 1024) throws {
        descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw IngestError(
                .io, "cannot reopen a temporary file: \(String(cString: strerror(errno)))", file: displayName)
        }
        self.displayName = displayName
        self.capacity = capacity
        buffer = .allocate(capacity: capacity)
    }

    deinit {
        buffer.deallocate()
        close(descriptor)
    }

    /// Bytes consumed so far.
    var position: UInt64 { fileOffset - UInt64(end - start) }

    /// Refills the buffer; false at end of file.
    private func fill() throws -> Bool {
        if start < end { return true }
        while true {
            let got = read(descriptor, buffer, capacity)
            if got < 0 && errno == EINTR { continue }
            guard got >= 0 else {
                throw IngestError(.io, "read failed: \(String(cString: strerror(errno)))", file: displayName)
            }
            start = 0
            end = got
            fileOffset += UInt64(got)
            return got > 0
        }
    }

    func readByte() throws -> UInt8 {
        guard try fill() else { throw truncated() }
        defer { start += 1 }
        return buffer[start]
    }

    /// `size` bytes as a big-endian unsigned number.
    func readBigEndian(size: Int) throws -> UInt64 {
        var value: UInt64 = 0
        for _ in 0..<size { value = value << 8 | UInt64(try readByte()) }
        return value
    }

    /// Copies the next `count` bytes to `writer`.
    func copy(_ count: UInt64, to writer: BufferedFileWriter) throws {
        var left = count
        while left > 0 {
            guard try fill() else { throw truncated() }
            let run = min(Int(clamping: left), end - start)
            try writer.write(UnsafeRawBufferPointer(start: buffer + start, count: run))
            start += run
            left -= UInt64(run)
        }
    }

    /// Copies everything left to `writer`.
    func copyRest(to writer: BufferedFileWriter) throws {
        while try fill() {
            try writer.write(UnsafeRawBufferPointer(start: buffer + start, count: end - start))
            start = end
        }
    }

    private func truncated() -> IngestError {
        IngestError(.io, "a temporary file ended early", file: displayName)
    }
}
