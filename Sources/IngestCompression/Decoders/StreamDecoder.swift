/// One decompressor's C library behind the same small interface, so that
/// ``DecompressingSource`` keeps buffers, counts and error messages in one place.
///
/// A decoder is told each time which input it may read and which output it may fill;
/// it keeps no buffer of its own beyond the library's state (its window or dictionary).
protocol StreamDecoder: AnyObject {
    /// Decompresses from `input` into `output`, as far as either allows.
    ///
    /// `inputEnded` says that `input` holds the last of the compressed bytes, for
    /// libraries that must be told the end (liblzma's `LZMA_FINISH`).
    func decode(
        _ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer,
        inputEnded: Bool
    ) throws(DecoderFailure) -> DecodeStep

    /// Prepares to decode another member (gzip) or stream (bzip2) that follows the one
    /// that just ended. Formats whose library goes on by itself (xz, zstd) do nothing.
    func startNextMember() throws(DecoderFailure)
}

/// What one ``StreamDecoder/decode(_:into:inputEnded:)`` call did.
struct DecodeStep {
    /// Compressed bytes taken from the front of the input.
    var consumed: Int
    /// Decompressed bytes written to the front of the output.
    var produced: Int
    /// The member, stream or frame ended with this call, its checksum verified: the
    /// input may stop here, or another may follow.
    var endedMember: Bool
}

/// Why a decoder stopped: ``DecompressingSource`` turns it into an ``IngestError``
/// naming the input and the compressed byte.
struct DecoderFailure: Error {
    enum Reason {
        /// The data is not valid in the format; the library's own words.
        case corrupt(String)
        /// The input ended before the compressed data did.
        case truncated
        /// Decoding would need more memory than the source allows (xz's dictionary,
        /// zstd's window); `needed` when the library says how much.
        case exceedsMemoryLimit(needed: UInt64?)
        /// The library could not allocate its state.
        case outOfMemory
        /// The format's library is not on this machine (libzstd is loaded at run
        /// time); the loader's words.
        case libraryUnavailable(String)
    }

    var reason: Reason
    /// Compressed bytes of the failing call's input taken before the failure.
    var consumed: Int

    init(_ reason: Reason, consumed: Int = 0) {
        self.reason = reason
        self.consumed = consumed
    }
}
