import CBZip2

/// bzip2 through libbz2's `BZ2_bzDecompress`, each block's and the stream's CRC
/// checked by the library.
final class BZip2Decoder: StreamDecoder {
    /// libbz2 keeps a pointer back to its `bz_stream` and checks it on every call.
    private let stream: UnsafeMutablePointer<bz_stream>
    private var isOpen = false

    init() throws(DecoderFailure) {
        stream = .allocate(capacity: 1)
        stream.initialize(to: bz_stream())
        do throws(DecoderFailure) {
            try open()
        } catch {
            stream.deallocate()
            throw error
        }
    }

    deinit {
        close()
        stream.deallocate()
    }

    private func open() throws(DecoderFailure) {
        // verbosity 0; small 0: the fast decoder (about 4 MiB at most, for 900k blocks).
        guard BZ2_bzDecompressInit(stream, 0, 0) == BZ_OK else { throw DecoderFailure(.outOfMemory) }
        isOpen = true
    }

    private func close() {
        if isOpen { BZ2_bzDecompressEnd(stream) }
        isOpen = false
    }

    func decode(
        _ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer,
        inputEnded: Bool
    ) throws(DecoderFailure) -> DecodeStep {
        let inputCount = min(input.count, Int(UInt32.max))
        let outputCount = min(output.count, Int(UInt32.max))
        stream.pointee.next_in = UnsafeMutablePointer(mutating: input.baseAddress?.assumingMemoryBound(to: CChar.self))
        stream.pointee.avail_in = UInt32(inputCount)
        stream.pointee.next_out = output.baseAddress?.assumingMemoryBound(to: CChar.self)
        stream.pointee.avail_out = UInt32(outputCount)
        let status = BZ2_bzDecompress(stream)
        let consumed = inputCount - Int(stream.pointee.avail_in)
        let produced = outputCount - Int(stream.pointee.avail_out)
        switch status {
        case BZ_OK:
            return DecodeStep(consumed: consumed, produced: produced, endedMember: false)
        case BZ_STREAM_END:
            return DecodeStep(consumed: consumed, produced: produced, endedMember: true)
        case BZ_DATA_ERROR:
            throw DecoderFailure(
                .corrupt("data integrity error, a CRC mismatch or an invalid block"), consumed: consumed)
        case BZ_DATA_ERROR_MAGIC:
            throw DecoderFailure(.corrupt("not bzip2 data (bad magic number)"), consumed: consumed)
        case BZ_MEM_ERROR:
            throw DecoderFailure(.outOfMemory, consumed: consumed)
        default:
            throw DecoderFailure(.corrupt("libbz2 error \(status)"), consumed: consumed)
        }
    }

    /// libbz2 has no reset: the next stream gets a fresh decompressor.
    func startNextMember() throws(DecoderFailure) {
        close()
        try open()
    }
}
