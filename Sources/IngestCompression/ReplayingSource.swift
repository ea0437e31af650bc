import IngestCore

/// A source whose first bytes were read to be looked at: it serves them again, then
/// the rest of the source. Sources that cannot seek (pipes, sockets) are sniffed this way.
final class ReplayingSource: ByteSource {
    private var lookahead = Lookahead()
    private let rest: any ByteSource

    var displayName: String { rest.displayName }
    /// The first bytes of the source: as many as asked for, fewer if it is shorter.
    var prefix: [UInt8] { lookahead.bytes }

    /// Reads the first `count` bytes of `source` (fewer if it ends sooner).
    init(readingStartOf source: any ByteSource, count: Int) throws {
        rest = source
        try lookahead.fill(upTo: count, from: source.read(into:))
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        try lookahead.serve(into: buffer) ?? rest.read(into: buffer)
    }
}
