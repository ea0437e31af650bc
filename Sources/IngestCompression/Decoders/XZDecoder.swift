import CLZMA

/// xz through liblzma's stream decoder, one stream at a time, each block's integrity
/// check (CRC-32, CRC-64 or SHA-256) checked by the library.
///
/// ``DecompressingSource`` reads what follows a stream itself — stream padding, another
/// stream, or bytes that are neither — rather than passing `LZMA_CONCATENATED`, so that
/// data after the end is reported as gzip's, bzip2's and zstd's is.
final class XZDecoder: StreamDecoder {
    private let stream: UnsafeMutablePointer<lzma_stream>
    private let memoryLimit: UInt64

    init(memoryLimit: Int) throws(DecoderFailure) {
        self.memoryLimit = UInt64(memoryLimit)
        stream = .allocate(capacity: 1)
        stream.initialize(to: lzma_stream())  // all zero: LZMA_STREAM_INIT
        do throws(DecoderFailure) {
            try startNextMember()
        } catch {
            stream.deallocate()
            throw error
        }
    }

    deinit {
        lzma_end(stream)
        stream.deallocate()
    }

    func decode(
        _ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer,
        inputEnded: Bool
    ) throws(DecoderFailure) -> DecodeStep {
        stream.pointee.next_in = input.baseAddress?.assumingMemoryBound(to: UInt8.self)
        stream.pointee.avail_in = input.count
        stream.pointee.next_out = output.baseAddress?.assumingMemoryBound(to: UInt8.self)
        stream.pointee.avail_out = output.count
        let status = lzma_code(stream, inputEnded ? LZMA_FINISH : LZMA_RUN)
        let consumed = input.count - stream.pointee.avail_in
        let produced = output.count - stream.pointee.avail_out
        switch status {
        case LZMA_OK:
            return DecodeStep(consumed: consumed, produced: produced, endedMember: false)
        case LZMA_STREAM_END:
            return DecodeStep(consumed: consumed, produced: produced, endedMember: true)
        case LZMA_BUF_ERROR:  // no progress possible: with LZMA_FINISH, the input ended early
            if inputEnded { throw DecoderFailure(.truncated, consumed: consumed) }
            return DecodeStep(consumed: consumed, produced: produced, endedMember: false)
        case LZMA_MEMLIMIT_ERROR:
            throw DecoderFailure(.exceedsMemoryLimit(needed: lzma_memusage(stream)), consumed: consumed)
        case LZMA_MEM_ERROR:
            throw DecoderFailure(.outOfMemory, consumed: consumed)
        case LZMA_FORMAT_ERROR:
            throw DecoderFailure(.corrupt("not xz data (bad magic number)"), consumed: consumed)
        case LZMA_OPTIONS_ERROR:
            throw DecoderFailure(.corrupt("unsupported options in the stream header"), consumed: consumed)
        case LZMA_DATA_ERROR:
            throw DecoderFailure(.corrupt("compressed data is corrupt"), consumed: consumed)
        default:
            throw DecoderFailure(.corrupt("liblzma error \(status.rawValue)"), consumed: consumed)
        }
    }

    /// (Re)starts the decoder for a stream; liblzma lets one `lzma_stream` be set up
    /// again without `lzma_end`, keeping its allocations.
    func startNextMember() throws(DecoderFailure) {
        guard lzma_stream_decoder(stream, memoryLimit, 0) == LZMA_OK else { throw DecoderFailure(.outOfMemory) }
    }
}
