import CZlib

/// gzip through zlib's `inflate`, with the gzip header and trailer (CRC-32 and length)
/// checked by zlib itself and the full 32 KiB window.
final class GzipDecoder: StreamDecoder {
    /// zlib keeps a pointer back to its `z_stream` and checks it on every call, so the
    /// stream lives at one address for the decoder's life.
    private let stream: UnsafeMutablePointer<z_stream>

    init() throws(DecoderFailure) {
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        // 15: the largest window, what any gzip writer may use; +16: gzip framing only.
        guard ingest_zlib_inflate_init2(stream, 15 + 16) == Z_OK else {
            stream.deallocate()
            throw DecoderFailure(.outOfMemory)
        }
    }

    deinit {
        inflateEnd(stream)
        stream.deallocate()
    }

    func decode(
        _ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer,
        inputEnded: Bool
    ) throws(DecoderFailure) -> DecodeStep {
        let inputCount = min(input.count, Int(UInt32.max))
        let outputCount = min(output.count, Int(UInt32.max))
        stream.pointee.next_in = UnsafeMutablePointer(mutating: input.baseAddress?.assumingMemoryBound(to: Bytef.self))
        stream.pointee.avail_in = uInt(inputCount)
        stream.pointee.next_out = output.baseAddress?.assumingMemoryBound(to: Bytef.self)
        stream.pointee.avail_out = uInt(outputCount)
        let status = inflate(stream, Z_NO_FLUSH)
        let consumed = inputCount - Int(stream.pointee.avail_in)
        let produced = outputCount - Int(stream.pointee.avail_out)
        switch status {
        case Z_OK, Z_BUF_ERROR:  // Z_BUF_ERROR: no progress possible, more input needed
            return DecodeStep(consumed: consumed, produced: produced, endedMember: false)
        case Z_STREAM_END:
            return DecodeStep(consumed: consumed, produced: produced, endedMember: true)
        case Z_NEED_DICT:
            throw DecoderFailure(
                .corrupt("the data needs a preset dictionary, which gzip never uses"), consumed: consumed)
        case Z_MEM_ERROR:
            throw DecoderFailure(.outOfMemory, consumed: consumed)
        default:  // Z_DATA_ERROR, Z_STREAM_ERROR
            let message = stream.pointee.msg.map { String(cString: $0) } ?? "zlib error \(status)"
            throw DecoderFailure(.corrupt(message), consumed: consumed)
        }
    }

    func startNextMember() throws(DecoderFailure) {
        guard inflateReset(stream) == Z_OK else { throw DecoderFailure(.outOfMemory) }
    }
}
