import CZstd

/// Zstandard through libzstd's streaming decoder, which goes from one frame to the
/// next (and over skippable frames) by itself and checks each frame's checksum when
/// the frame carries one.
final class ZstdDecoder: StreamDecoder {
    private let context: OpaquePointer

    init(memoryLimit: Int) throws(DecoderFailure) {
        guard let context = ZSTD_createDCtx() else { throw DecoderFailure(.outOfMemory) }
        self.context = context
        // The largest power-of-two window within the limit; 10 and 31 are the smallest
        // and largest window logs libzstd knows (64-bit).
        var windowLog = Int32(10)
        while windowLog < 31, 1 << (windowLog + 1) <= memoryLimit { windowLog += 1 }
        ZSTD_DCtx_setParameter(context, ZSTD_d_windowLogMax, windowLog)
    }

    deinit { ZSTD_freeDCtx(context) }

    func decode(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer,
                inputEnded: Bool) throws(DecoderFailure) -> DecodeStep {
        var inBuffer = ZSTD_inBuffer(src: input.baseAddress, size: input.count, pos: 0)
        var outBuffer = ZSTD_outBuffer(dst: output.baseAddress, size: output.count, pos: 0)
        let result = ZSTD_decompressStream(context, &outBuffer, &inBuffer)
        if ZSTD_isError(result) != 0 {
            if ZSTD_getErrorCode(result) == ZSTD_error_frameParameter_windowTooLarge {
                throw DecoderFailure(.exceedsMemoryLimit(needed: nil), consumed: inBuffer.pos)
            }
            if ZSTD_getErrorCode(result) == ZSTD_error_memory_allocation {
                throw DecoderFailure(.outOfMemory, consumed: inBuffer.pos)
            }
            throw DecoderFailure(.corrupt(String(cString: ZSTD_getErrorName(result))), consumed: inBuffer.pos)
        }
        // 0: a frame was decoded completely and all its output flushed.
        return DecodeStep(consumed: inBuffer.pos, produced: outBuffer.pos, endedMember: result == 0)
    }

    /// libzstd starts the next frame by itself.
    func startNextMember() throws(DecoderFailure) {}
}
