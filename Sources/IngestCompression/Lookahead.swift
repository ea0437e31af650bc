/// The first bytes of a stream, read ahead to be looked at and then served again
/// before the rest: how inputs that cannot seek are sniffed.
struct Lookahead {
    /// The bytes read ahead: as many as asked for, fewer when the stream was shorter.
    private(set) var bytes: [UInt8] = []
    private var served = 0
    /// Whether ``fill(upTo:from:)`` ran.
    private(set) var isFilled = false

    /// Reads up to `count` bytes with `read` (which returns 0 at the end), once.
    mutating func fill(upTo count: Int, from read: (UnsafeMutableRawBufferPointer) throws -> Int) rethrows {
        guard !isFilled else { return }
        var buffer = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let got = try buffer.withUnsafeMutableBytes {
                try read(UnsafeMutableRawBufferPointer(rebasing: $0[filled...]))
            }
            if got == 0 { break }
            filled += got
        }
        bytes = Array(buffer[..<filled])
        isFilled = true
    }

    /// Copies bytes not yet served into `buffer`: how many, or `nil` when all were served.
    mutating func serve(into buffer: UnsafeMutableRawBufferPointer) -> Int? {
        guard served < bytes.count else { return nil }
        let count = min(buffer.count, bytes.count - served)
        bytes.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress! + served, byteCount: count) }
        served += count
        return count
    }
}
