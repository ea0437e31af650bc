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

    package static var temporaryDirectory: String {
        getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
    }

    package static func remove(_ path: String) { unlink(path) }

    /// Streams the file at `path` to standard output.
    package static func copyToStandardOutput(_ path: String) throws {
        let input = try InputFile(path: path)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: defaultChunkSize, alignment: 1)
        defer { buffer.deallocate() }
        while true {
            let count = try input.read(into: buffer)
            if count == 0 { return }
            try POSIX.writeAll(STDOUT_FILENO, UnsafeRawBufferPointer(rebasing: buffer[..<count]), to: "standard output")
        }
    }
}
