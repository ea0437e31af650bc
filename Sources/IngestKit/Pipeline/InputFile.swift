#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An input opened for streaming: a file, or standard input when the path is `-`.
///
/// It reads with plain `read(2)` into caller-provided buffers, so no more than one
/// chunk of the input is ever in memory.
public final class InputFile {
    /// The name errors use: the path as given, or `<stdin>`.
    public let displayName: String
    /// The path as given, or `nil` for standard input.
    public let path: String?
    /// The size in bytes when the input is a regular file, for progress reporting.
    public let size: Int?
    private let descriptor: Int32
    private var closed = false

    /// Opens `path` for reading; `-` means standard input.
    public init(path: String) throws {
        if path == "-" {
            self.path = nil
            displayName = "<stdin>"
            descriptor = STDIN_FILENO
        } else {
            self.path = path
            displayName = path
            descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else {
                throw IngestError(.input, "cannot open: \(String(cString: strerror(errno)))", file: path)
            }
        }
        var info = stat()
        if fstat(descriptor, &info) == 0 {
            if (info.st_mode & S_IFMT) == S_IFDIR {
                if descriptor != STDIN_FILENO { _ = close(descriptor) }
                throw IngestError(.input, "is a directory, not a file", file: path)
            }
            size = (info.st_mode & S_IFMT) == S_IFREG ? Int(info.st_size) : nil
        } else {
            size = nil
        }
    }

    deinit { closeFile() }

    /// Reads up to `buffer.count` bytes; returns 0 at the end of the input.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        while true {
            let count = Glibc.read(descriptor, buffer.baseAddress, buffer.count)
            if count >= 0 { return count }
            if errno == EINTR { continue }
            throw IngestError(.io, "read failed: \(String(cString: strerror(errno)))", file: displayName)
        }
    }

    private func closeFile() {
        guard !closed else { return }
        closed = true
        if descriptor != STDIN_FILENO { _ = close(descriptor) }
    }
}
