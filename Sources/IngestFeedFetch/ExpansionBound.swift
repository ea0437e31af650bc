import IngestCompression
import IngestCore

/// A body's decompressed bytes, refused (65) once they are more than
/// ``maxRatio`` times the compressed bytes read, past the first ``allowance``: a
/// compression bomb, not a feed (XML text compresses five to twenty times).
final class ExpansionBound: ByteSource {
    static let maxRatio = 100
    static let allowance = 16 << 20
    /// Compressed bytes read at a time: the most the count runs ahead of decoding.
    static let inputBufferSize = 4096
    private let source: any ByteSource
    private var produced = 0
    var displayName: String { source.displayName }

    init(_ source: any ByteSource) {
        self.source = source
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let count = try source.read(into: buffer)
        produced += count
        if let compressed = source as? DecompressingSource, produced > Self.allowance,
            produced / Self.maxRatio > compressed.compressedBytesRead
        {
            throw IngestError(
                .data,
                "the \(compressed.format) body expands to more than \(Self.maxRatio) times its size "
                    + "(\(compressed.compressedBytesRead) bytes gave \(produced)): refused as a compression bomb",
                file: displayName)
        }
        return count
    }
}
