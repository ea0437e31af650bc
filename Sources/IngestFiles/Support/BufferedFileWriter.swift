import IngestCore
import IngestPOSIX
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Appends bytes to a file through a 256 KiB buffer, and can patch bytes it wrote
/// earlier (``patch(at:_:)``), which the streamed binary formats need.
///
/// Every write to a file goes through `pwrite` at the writer's own position, so two
/// writers may share one file as long as their regions do not overlap. A writer
/// made with ``init(streamingTo:displayName:closes:capacity:)`` writes a pipe or a
/// device in order instead, and cannot patch. Errors are ``IngestError``s of kind
/// `.io`, naming `displayName`.
final class BufferedFileWriter {
    let displayName: String
    private let descriptor: Int32
    private let ownsDescriptor: Bool
    /// Whether the descriptor is written in order (a pipe, a device), not at offsets.
    private let streaming: Bool
    private let buffer: UnsafeMutablePointer<UInt8>
    private let capacity: Int
    private var count = 0
    /// Where in the file the buffer's first byte goes.
    private var flushedTo: UInt64

    /// Opens `path` for writing at `offset` (the file is not truncated).
    init(path: String, displayName: String, offset: UInt64 = 0, capacity: Int = 256 * 1024) throws {
        descriptor = open(path, O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw IngestError(
                .output, "cannot open for writing: \(String(cString: strerror(errno)))", file: displayName)
        }
        ownsDescriptor = true
        streaming = false
        self.displayName = displayName
        self.capacity = capacity
        flushedTo = offset
        buffer = .allocate(capacity: capacity)
    }

    /// Writes `descriptor` (standard output, a pipe, a device) in order, closing it
    /// with the writer when `closes`.
    init(streamingTo descriptor: Int32, displayName: String, closes: Bool, capacity: Int = 256 * 1024) {
        self.descriptor = descriptor
        ownsDescriptor = closes
        streaming = true
        self.displayName = displayName
        self.capacity = capacity
        flushedTo = 0
        buffer = .allocate(capacity: capacity)
    }

    deinit {
        buffer.deallocate()
        if ownsDescriptor { _ = POSIX.close(descriptor) }
    }

    /// The file offset of the next byte written.
    var position: UInt64 { flushedTo + UInt64(count) }

    func write(_ bytes: UnsafeRawBufferPointer) throws {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        if count + bytes.count > capacity {
            try flush()
            if bytes.count >= capacity {
                try writeOut(base, bytes.count)
                return
            }
        }
        (buffer + count).update(from: base.assumingMemoryBound(to: UInt8.self), count: bytes.count)
        count += bytes.count
    }

    func write(_ text: String) throws {
        var text = text
        try text.withUTF8 { try write(UnsafeRawBufferPointer($0)) }
    }

    func write(byte: UInt8) throws {
        if count == capacity { try flush() }
        buffer[count] = byte
        count += 1
    }

    /// `value` in `size` bytes, big-endian (the low `size` bytes of it).
    func write(bigEndian value: UInt64, size: Int) throws {
        if count + size > capacity { try flush() }
        var shift = UInt64((size - 1) * 8)
        for _ in 0..<size {
            buffer[count] = UInt8(truncatingIfNeeded: value >> shift)
            count += 1
            shift &-= 8
        }
    }

    /// Overwrites bytes written earlier at file offset `at`.
    func patch(at offset: UInt64, _ bytes: [UInt8]) throws {
        precondition(offset + UInt64(bytes.count) <= position, "patching beyond what was written")
        precondition(!streaming, "patching a stream")
        if offset >= flushedTo {
            let start = Int(offset - flushedTo)
            for (index, byte) in bytes.enumerated() { buffer[start + index] = byte }
        } else {
            try flush()
            try bytes.withUnsafeBytes { try writeOut($0.baseAddress!, bytes.count, at: offset) }
        }
    }

    func flush() throws {
        guard count > 0 else { return }
        let pending = count
        count = 0
        try writeOut(UnsafeRawPointer(buffer), pending)
    }

    private func writeOut(_ base: UnsafeRawPointer, _ length: Int) throws {
        try writeOut(base, length, at: flushedTo)
        flushedTo += UInt64(length)
    }

    private func writeOut(_ base: UnsafeRawPointer, _ length: Int, at offset: UInt64) throws {
        if streaming {
            return try POSIX.writeAll(descriptor, UnsafeRawBufferPointer(start: base, count: length), to: displayName)
        }
        var done = 0
        while done < length {
            let written = pwrite(descriptor, base + done, length - done, off_t(offset + UInt64(done)))
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else {
                throw IngestError(.io, "write failed: \(String(cString: strerror(errno)))", file: displayName)
            }
            done += written
        }
    }
}
