#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import IngestCore

/// The decompressed bytes of another ``/IngestCore/ByteSource`` holding gzip, bzip2, xz or zstd
/// data, streamed: a parser reads from it exactly as from an ``/IngestParsers/InputFile``.
///
/// ```swift
/// let file = try InputFile(path: "people.xml.gz")
/// let source = try DecompressingSource(file, format: .gzip)
/// var buffer = [UInt8](repeating: 0, count: defaultChunkSize)
/// while case let count = try buffer.withUnsafeMutableBytes({ try source.read(into: $0) }), count > 0 {
///     // feed buffer[..<count] to a push parser
/// }
/// ```
///
/// Most callers do not pick the format: `ByteSource.decompressingIfCompressed(memoryLimit:)`
/// looks at the first bytes and wraps the input only when it is compressed.
///
/// **Memory.** The source holds one input buffer of fixed size (``/IngestCore/defaultChunkSize``
/// unless told otherwise) and the library's own state; each ``read(into:)`` decompresses
/// straight into the caller's buffer. Memory therefore does not grow with the input
/// or with how well it compresses: a decompression bomb (gigabytes of zeros in a few
/// kilobytes) costs time, not memory, so the ratio is not bounded; a caller that wants
/// to give up early counts the bytes it reads and stops. The libraries' state is small for gzip (a 32 KiB
/// window) and bzip2 (under 4 MiB); for xz and zstd it is whatever dictionary or window
/// the stream's header asks for, so it is bounded by `memoryLimit`.
///
/// **Concatenation.** Whatever the tools accept is read through: gzip members one after
/// another (what `cat a.gz b.gz` makes; `gzip -dc` reads it whole), bzip2 streams, xz
/// streams with their padding, zstd frames and skippable frames. Zero bytes after the last
/// gzip member are ignored, as `gzip` ignores them (tape padding). Anything else after
/// the end is an error, even where a tool only warns: the bytes were meant to be read.
///
/// **Errors.** Data that is not valid in the format, data that ends early, and bytes
/// after the end that start no new member throw ``/IngestCore/IngestError`` of kind `.data` (exit 65)
/// naming the input and the compressed byte where the decoder stopped (counting from 1),
/// for example
/// `people.xml.gz: corrupt gzip stream: invalid block type (at compressed byte 1234)`.
/// The libraries check every checksum the format carries (gzip's CRC-32 and length,
/// bzip2's block CRCs, xz's block checks, zstd's frame checksum when present) before the
/// end is reported, so a source that reaches its end without an error read every byte right.
public final class DecompressingSource: ByteSource {
    /// Memory a decoder may use unless told otherwise: 128 MiB, libzstd's own default
    /// limit (a 128 MiB window) and room for `xz -9`'s 64 MiB dictionary.
    public static let defaultMemoryLimit = 128 << 20

    /// The compressed format read.
    public let format: CompressionFormat
    /// The most memory the decoder may use for its dictionary or window (xz and zstd);
    /// a stream that needs more is refused with a `.data` error saying so.
    public let memoryLimit: Int
    /// The compressed input's name, so messages name the file the user gave.
    public var displayName: String { compressed.displayName }
    /// Compressed bytes read from the wrapped source so far — at most one input buffer
    /// ahead of what has been decompressed. Progress on a compressed input is this
    /// against the compressed file's size.
    public private(set) var compressedBytesRead = 0

    private let compressed: any ByteSource
    private let decoder: any StreamDecoder
    /// The one input buffer; `inputStart..<inputEnd` is read but not yet decoded.
    private let input: UnsafeMutableRawBufferPointer
    private var inputStart = 0
    private var inputEnd = 0
    /// The wrapped source returned 0: what is in `input` is the last of it.
    private var sourceEnded = false
    private var state = State.decoding
    /// Decompressed bytes read ahead by ``peek(_:)``, served before the rest.
    private var lookahead = Lookahead()

    private enum State {
        /// Inside a member, stream or frame.
        case decoding
        /// One ended; another, or the end of the input, follows.
        case betweenMembers
        /// Zero bytes after a member: tape padding after the last gzip member, or xz's
        /// stream padding (a multiple of four bytes), so many so far.
        case zeroPadding(Int)
        /// Everything is read.
        case finished
    }

    /// Wraps `compressed`, which holds data in `format` from its first byte on.
    ///
    /// - Parameters:
    ///   - compressed: the compressed bytes, read from the current position on.
    ///   - format: how they are compressed (``CompressionFormat/detect(_:)`` tells it
    ///     from the first bytes).
    ///   - memoryLimit: the most memory xz's dictionary or zstd's window may take.
    ///   - inputBufferSize: how many compressed bytes are read at a time (at least 64).
    /// - Throws: ``/IngestCore/IngestError`` `.io` when the decompressor's state cannot be allocated,
    ///   or, for zstd, when libzstd cannot be loaded (it is loaded at run time, not linked).
    public init(
        _ compressed: any ByteSource, format: CompressionFormat,
        memoryLimit: Int = DecompressingSource.defaultMemoryLimit,
        inputBufferSize: Int = defaultChunkSize
    ) throws {
        self.compressed = compressed
        self.format = format
        self.memoryLimit = memoryLimit
        do throws(DecoderFailure) {
            switch format {
            case .gzip: decoder = try GzipDecoder()
            case .bzip2: decoder = try BZip2Decoder()
            case .xz: decoder = try XZDecoder(memoryLimit: memoryLimit)
            case .zstd: decoder = try ZstdDecoder(memoryLimit: memoryLimit)
            }
        } catch {
            if case .libraryUnavailable(let why) = error.reason {
                throw IngestError(.io, "cannot read \(format) input: \(why)", file: compressed.displayName)
            }
            throw IngestError(.io, "out of memory for the \(format) decompressor", file: compressed.displayName)
        }
        // Room for a magic number at least, which member boundaries look at.
        input = .allocate(byteCount: max(inputBufferSize, 64), alignment: 16)
    }

    deinit { input.deallocate() }

    /// Reads up to `buffer.count` decompressed bytes into `buffer`; returns 0 at the end.
    ///
    /// It returns as soon as it has produced something and would otherwise have to wait
    /// for more compressed input, so a slow pipe's data reaches the parser promptly.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        try lookahead.serve(into: buffer) ?? decompress(into: buffer)
    }

    /// Shows `body` the first decompressed bytes (up to 4 KiB, fewer if the data is
    /// shorter) without consuming them, as ``/IngestParsers/InputFile/peek(atLeast:_:)`` does for a file: how
    /// the importer tells XML from JSON inside a compressed input. Call it before the
    /// first read.
    public func peek<T>(_ body: (UnsafeRawBufferPointer) throws -> T) throws -> T {
        try lookahead.fill(upTo: 4096, from: decompress(into:))
        return try lookahead.bytes.withUnsafeBytes { try body($0) }
    }

    // MARK: - Decompressing

    /// Compressed bytes handed to the decoder so far: the offset of `inputStart`.
    private var decodedOffset: Int { compressedBytesRead - (inputEnd - inputStart) }

    private var pendingInput: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: input[inputStart..<inputEnd])
    }

    private func decompress(into output: UnsafeMutableRawBufferPointer) throws -> Int {
        var produced = 0
        while produced < output.count {
            switch state {
            case .finished:
                return produced
            case .decoding:
                if inputStart == inputEnd && !sourceEnded {
                    if produced > 0 { return produced }
                    try readInput()
                    continue
                }
                let offset = decodedOffset
                let step: DecodeStep
                do throws(DecoderFailure) {
                    step = try decoder.decode(
                        pendingInput, into: UnsafeMutableRawBufferPointer(rebasing: output[produced...]),
                        inputEnded: sourceEnded)
                } catch {
                    throw describe(error, at: offset + error.consumed)
                }
                inputStart += step.consumed
                produced += step.produced
                if step.endedMember {
                    state = .betweenMembers
                } else if step.consumed == 0 && step.produced == 0 {
                    if sourceEnded { throw describe(DecoderFailure(.truncated), at: decodedOffset) }
                    if inputStart < inputEnd {
                        throw describe(
                            DecoderFailure(.corrupt("the decoder stopped making progress")), at: decodedOffset)
                    }
                }
            case .betweenMembers:
                if inputStart == inputEnd {
                    if sourceEnded {
                        state = .finished
                        continue
                    }
                    if produced > 0 { return produced }
                    try readInput()
                    continue
                }
                if inputEnd - inputStart < CompressionFormat.magicByteCount && !sourceEnded {
                    if produced > 0 { return produced }
                    try readInput(atLeast: CompressionFormat.magicByteCount)
                }
                if input[inputStart] == 0 && (format == .gzip || format == .xz) {
                    state = .zeroPadding(0)
                } else if CompressionFormat.detect(pendingInput) == format {
                    do throws(DecoderFailure) {
                        try decoder.startNextMember()
                    } catch {
                        throw describe(error, at: decodedOffset)
                    }
                    state = .decoding
                } else {
                    throw unexpectedData(at: decodedOffset)
                }
            case .zeroPadding(let zeros):
                let nonzero = pendingInput.firstIndex(where: { $0 != 0 })
                let padding = zeros + (nonzero ?? pendingInput.count)
                inputStart = nonzero.map { inputStart + $0 } ?? inputEnd
                if format == .xz && (nonzero != nil || sourceEnded) && padding % 4 != 0 {
                    throw IngestError(
                        .data,
                        "corrupt xz stream: stream padding of \(padding) bytes, not a multiple of four "
                            + "(at compressed byte \(decodedOffset))", file: displayName)
                }
                if nonzero != nil {
                    // xz: another stream may follow its padding; gzip: nothing may follow.
                    guard format == .xz else { throw unexpectedData(at: decodedOffset) }
                    state = .betweenMembers
                } else if sourceEnded {
                    state = .finished
                } else {
                    state = .zeroPadding(padding)
                    if produced > 0 { return produced }
                    try readInput()
                }
            }
        }
        return produced
    }

    /// Reads more compressed input after what is pending, until at least `count` bytes
    /// are pending or the source ends; moves the pending bytes to the front first when
    /// the buffer has no room after them.
    private func readInput(atLeast count: Int = 1) throws {
        if inputStart == inputEnd {
            inputStart = 0
            inputEnd = 0
        } else if inputEnd == input.count || inputStart + count > input.count {
            let pending = inputEnd - inputStart
            memmove(input.baseAddress!, input.baseAddress! + inputStart, pending)
            inputStart = 0
            inputEnd = pending
        }
        while inputEnd - inputStart < count && !sourceEnded {
            let read = try compressed.read(into: UnsafeMutableRawBufferPointer(rebasing: input[inputEnd...]))
            if read == 0 { sourceEnded = true }
            inputEnd += read
            compressedBytesRead += read
        }
    }

    /// Bytes at `offset` (0-based) that are neither a new member nor padding.
    private func unexpectedData(at offset: Int) -> IngestError {
        IngestError(
            .data, "unexpected data after the end of the \(format) stream (at compressed byte \(offset + 1))",
            file: displayName)
    }

    private func describe(_ failure: DecoderFailure, at offset: Int) -> IngestError {
        switch failure.reason {
        case .corrupt(let reason):
            IngestError(.data, "corrupt \(format) stream: \(reason) (at compressed byte \(offset))", file: displayName)
        case .truncated:
            IngestError(
                .data,
                "truncated \(format) stream: the input ends inside the compressed data (after \(compressedBytesRead) compressed bytes)",
                file: displayName)
        case .exceedsMemoryLimit(let needed?):
            IngestError(
                .data,
                "\(format) stream needs \(mebibytes(needed)) of memory to decompress, more than the limit of "
                    + "\(mebibytes(UInt64(memoryLimit))) (at compressed byte \(offset))", file: displayName)
        case .exceedsMemoryLimit(nil):
            IngestError(
                .data,
                "\(format) stream needs more memory to decompress than the limit of \(mebibytes(UInt64(memoryLimit))) "
                    + "allows (at compressed byte \(offset))", file: displayName)
        case .outOfMemory:
            IngestError(
                .io, "out of memory in the \(format) decompressor (at compressed byte \(offset))", file: displayName)
        case .libraryUnavailable(let why):
            IngestError(.io, "cannot read \(format) input: \(why)", file: displayName)
        }
    }
}

/// `bytes` as whole mebibytes, rounded up: `9 MiB`.
private func mebibytes(_ bytes: UInt64) -> String {
    "\((bytes + (1 << 20) - 1) >> 20) MiB"
}
