// Reads a file through ByteSource.decompressingIfCompressed (DecompressingSource when it
// is compressed) and prints how many bytes came out and how long it took: the measure
// against `gzip -dc FILE > /dev/null`. Build it in release:
//
//   swift build -c release --product ingest-decompress-bench
//   time gzip -dc people.xml.gz > /dev/null
//   .build/release/ingest-decompress-bench people.xml.gz
import Foundation
import IngestCompression
import IngestCore
import IngestParsers

let arguments = CommandLine.arguments
guard arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: ingest-decompress-bench FILE (- for standard input)\n".utf8))
    exit(64)
}

do {
    let clock = ContinuousClock()
    let start = clock.now
    let source = try InputFile(path: arguments[1]).decompressingIfCompressed()
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: defaultChunkSize, alignment: 16)
    defer { buffer.deallocate() }
    var bytes = 0
    while case let count = try source.read(into: buffer), count > 0 {
        bytes += count
    }
    let elapsed = clock.now - start
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    let decompressing = source as? DecompressingSource
    let format = decompressing.map { "\($0.format)" } ?? "plain"
    let compressed = decompressing?.compressedBytesRead ?? bytes
    print(
        "\(format): \(bytes) bytes from \(compressed) in \(String(format: "%.3f", seconds)) s "
            + "(\(String(format: "%.0f", Double(bytes) / seconds / 1e6)) MB/s out)")
} catch {
    FileHandle.standardError.write(Data("ingest-decompress-bench: \(error)\n".utf8))
    exit(1)
}
