#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Small POSIX file helpers the outputs share.
enum FileStatus {
    static func exists(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0
    }

    static var temporaryDirectory: String {
        getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
    }

    static func remove(_ path: String) { unlink(path) }

    /// Streams the file at `path` to standard output.
    static func copyToStandardOutput(_ path: String) throws {
        let input = try InputFile(path: path)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: defaultChunkSize, alignment: 1)
        defer { buffer.deallocate() }
        while true {
            let count = try input.read(into: buffer)
            if count == 0 { return }
            var offset = 0
            while offset < count {
                let written = Glibc.write(STDOUT_FILENO, buffer.baseAddress! + offset, count - offset)
                guard written > 0 || errno == EINTR else {
                    throw IngestError(.io, "cannot write to standard output: \(String(cString: strerror(errno)))")
                }
                offset += max(written, 0)
            }
        }
    }
}
