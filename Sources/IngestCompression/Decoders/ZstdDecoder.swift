import CZstd

/// Zstandard through libzstd's streaming decoder, which goes from one frame to the
/// next (and over skippable frames) by itself and checks each frame's checksum when
/// the frame carries one.
///
/// libzstd is loaded when the first zstd input is read, not linked: building needs no
/// `zstd.h`, and a machine without `libzstd.so.1` reads every other input and refuses a
/// zstd one with ``DecoderFailure/Reason/libraryUnavailable(_:)``.
final class ZstdDecoder: StreamDecoder {
    private let zstd: CZstdLibrary
    private let context: UnsafeMutableRawPointer

    init(memoryLimit: Int) throws(DecoderFailure) {
        guard let zstd = czstd_library()?.pointee else {
            let loader = czstd_load_error().map { String(cString: $0) } ?? "libzstd.so.1 cannot be loaded"
            throw DecoderFailure(
                .libraryUnavailable(
                    "libzstd could not be loaded (\(loader)); install it (Debian: libzstd1) or name it in INGEST_LIBZSTD"
                ))
        }
        guard let context = zstd.createDCtx() else { throw DecoderFailure(.outOfMemory) }
        self.zstd = zstd
        self.context = context
        // The largest power-of-two window within the limit; 10 and 31 are the smallest
        // and largest window logs libzstd knows (64-bit).
        var windowLog = Int32(10)
        while windowLog < 31, 1 << (windowLog + 1) <= memoryLimit { windowLog += 1 }
        _ = zstd.setParameter(context, Int32(CZSTD_D_WINDOW_LOG_MAX), windowLog)
    }

    deinit { _ = zstd.freeDCtx(context) }

    func decode(
        _ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer,
        inputEnded: Bool
    ) throws(DecoderFailure) -> DecodeStep {
        var inBuffer = CZstdInBuffer(src: input.baseAddress, size: input.count, pos: 0)
        var outBuffer = CZstdOutBuffer(dst: output.baseAddress, size: output.count, pos: 0)
        let result = zstd.decompressStream(context, &outBuffer, &inBuffer)
        if zstd.isError(result) != 0 {
            switch zstd.getErrorCode(result) {
            case Int32(CZSTD_ERROR_WINDOW_TOO_LARGE):
                throw DecoderFailure(.exceedsMemoryLimit(needed: nil), consumed: inBuffer.pos)
            case Int32(CZSTD_ERROR_MEMORY_ALLOCATION):
                throw DecoderFailure(.outOfMemory, consumed: inBuffer.pos)
            default:
                throw DecoderFailure(.corrupt(String(cString: zstd.getErrorName(result))), consumed: inBuffer.pos)
            }
        }
        // 0: a frame was decoded completely and all its output flushed.
        return DecodeStep(consumed: inBuffer.pos, produced: outBuffer.pos, endedMember: result == 0)
    }

    /// libzstd starts the next frame by itself.
    func startNextMember() throws(DecoderFailure) {}
}
