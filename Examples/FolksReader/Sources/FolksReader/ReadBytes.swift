import IngestCore
import IngestParsers
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// All the bytes of `path`, read through IngestParsers' `InputFile` (for the push
/// demonstration: a real program would push bytes as they arrive instead).
func readBytes(_ path: String) throws -> [UInt8] {
    let input = try InputFile(path: path)
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
        let count = try buffer.withUnsafeMutableBytes { try input.read(into: $0) }
        if count == 0 { return bytes }
        bytes += buffer[..<count]
    }
}
