import Foundation  // NSLock
import IngestCore
import IngestPOSIX
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An input opened for streaming: a file, or standard input when the path is `-`.
///
/// It reads with plain `read(2)` into caller-provided buffers, so no more than one
/// chunk of the input is ever in memory. An input whose stored bytes must be
/// decoded first (a compressed file) is an `InputFile` too, made with
/// ``init(decoding:from:)``: it keeps the file's name and counts progress on the
/// file's own bytes.
public final class InputFile: ByteSource {
    /// The name errors use: the path as given, or `<stdin>`.
    public let displayName: String
    /// The path as given, or `nil` for standard input.
    public let path: String?
    /// The size of the content in bytes, when known before reading it: a regular
    /// file that is read as it is stored.
    public let size: Int?
    /// The size of the stored input (the file's size, compressed or not), when it is a
    /// regular file: what progress is measured against.
    public let storedSize: Int?
    /// Bytes of the stored input read so far (peeked bytes included). May be read on
    /// another thread than the reading one: a progress report can come from the
    /// thread that maps what is read.
    public var bytesRead: Int { stored?.bytesRead ?? countLock.withLock { descriptorBytesRead } }
    private var descriptorBytesRead = 0
    private let countLock = NSLock()
    private let descriptor: Int32
    /// The source of the content and the file it decodes, for an input made with
    /// ``init(decoding:from:)``.
    private let decoded: (any ByteSource)?
    private let stored: InputFile?
    private var closed = false
    /// Bytes read ahead by ``peek(atLeast:_:)``, served before the rest of the input.
    private var lookahead: [UInt8] = []
    private var lookaheadOffset = 0
    /// Whether peeking met the end of the input.
    private var lookaheadEnded = false
    /// The part of a JSON Lines file this input is (see ``init(piece:of:)``), or `nil`
    /// for a whole input.
    public let piece: FilePiece?

    /// Called on the reading thread before a read would wait on a pipe, a terminal
    /// or a socket that has nothing ready: the moment to pass on what was read so
    /// far (``/IngestCore/RecordSink/flush()``), so that records reach the output while the
    /// input is idle (`tail -f log | ingest - --nl --to ndjson --out -`). Never
    /// called for a regular file, which never makes a reader wait.
    public var whenIdle: (() throws -> Void)? {
        didSet { stored?.whenIdle = whenIdle }
    }

    /// Opens `path` for reading; `-` means standard input.
    public init(path: String) throws {
        if path == "-" {
            self.path = nil
            displayName = "<stdin>"
            descriptor = STDIN_FILENO
        } else {
            self.path = path
            displayName = path
            descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else {
                throw IngestError(.input, "cannot open: \(String(cString: strerror(errno)))", file: path)
            }
        }
        var info = stat()
        if fstat(descriptor, &info) == 0 {
            if (info.st_mode & S_IFMT) == S_IFDIR {
                if descriptor != STDIN_FILENO { _ = close(descriptor) }
                throw IngestError(.input, "is a directory, not a file", file: path)
            }
            size = (info.st_mode & S_IFMT) == S_IFREG ? Int(info.st_size) : nil
        } else {
            size = nil
        }
        storedSize = size
        decoded = nil
        stored = nil
        piece = nil
    }

    /// The part `piece` of the JSON Lines file `file`, opened again for it: read from
    /// the part's start, named as the file is. Its progress counts from that start;
    /// its parser stops at the part's end.
    public init(piece: FilePiece, of file: InputFile) throws {
        guard let path = file.path else {
            throw IngestError(.input, "only a file can be read in parts", file: file.displayName)
        }
        self.path = path
        displayName = file.displayName
        descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw IngestError(.input, "cannot open: \(String(cString: strerror(errno)))", file: path)
        }
        size = nil
        storedSize = file.storedSize
        decoded = nil
        stored = nil
        self.piece = piece
        // Fully made: a throw from here on closes the descriptor in deinit.
        guard lseek(descriptor, off_t(piece.start), SEEK_SET) == off_t(piece.start) else {
            throw IngestError(.io, "cannot seek to byte \(piece.start): \(POSIX.lastError)", file: path)
        }
    }

    /// The device and inode of the open file, when it has a descriptor of its own:
    /// what tells that a path opened again is still this file.
    var fileIdentity: [UInt64]? {
        var info = stat()
        guard descriptor >= 0, fstat(descriptor, &info) == 0 else { return nil }
        return [UInt64(info.st_dev), UInt64(info.st_ino)]
    }

    /// The content `source` decodes from `file` (a decompressor reading it, say), as
    /// an input named as the file is, whose progress counts the file's bytes.
    public init(decoding source: any ByteSource, from file: InputFile) {
        path = file.path
        displayName = file.displayName
        size = nil
        storedSize = file.storedSize
        descriptor = -1
        decoded = source
        stored = file
        piece = nil
    }

    /// Takes over `descriptor`, already open for reading (closed with the input), as
    /// an input named `displayName`: how a spool of standard input is read back.
    init(descriptor: Int32, path: String? = nil, displayName: String) {
        self.path = path
        self.displayName = displayName
        self.descriptor = descriptor
        var info = stat()
        size = fstat(descriptor, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG ? Int(info.st_size) : nil
        storedSize = size
        decoded = nil
        stored = nil
        piece = nil
    }

    deinit { closeFile() }

    /// Reads up to `buffer.count` bytes; returns 0 at the end of the input.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let count: Int
        if lookaheadOffset < lookahead.count {
            count = min(buffer.count, lookahead.count - lookaheadOffset)
            lookahead.withUnsafeBytes {
                buffer.baseAddress!.copyMemory(from: $0.baseAddress! + lookaheadOffset, byteCount: count)
            }
            lookaheadOffset += count
        } else {
            count = try readFromDescriptor(into: buffer)
        }
        if firstBytes.count < Self.firstBytesLimit, count > 0 {
            firstBytes += buffer[..<min(count, Self.firstBytesLimit - firstBytes.count)]
        }
        return count
    }

    /// The most bytes ``firstBytes`` keeps.
    public static let firstBytesLimit = 4096

    /// The first bytes of the content read so far (up to ``firstBytesLimit``): what
    /// an input that cannot be opened again — standard input, a pipe — looked like,
    /// for a message about why it could not be read.
    public private(set) var firstBytes: [UInt8] = []

    /// The most bytes ``peek(atLeast:_:)`` shows.
    public static let peekLimit = 4096

    /// Shows `body` the first bytes of the input without consuming them: later reads
    /// start at the beginning. Call it before the first read.
    ///
    /// It waits for `minimum` bytes (at most ``peekLimit``), or the end of the input,
    /// and shows what has arrived by then — more when a read brings more. Ask only
    /// for what is needed: on a pipe fed line by line (`tail -f log | ingest -`),
    /// waiting for 4 KiB would hold back the first records until that much arrived.
    public func peek<T>(atLeast minimum: Int = InputFile.peekLimit, _ body: (UnsafeRawBufferPointer) throws -> T) throws
        -> T
    {
        let wanted = min(max(minimum, 1), Self.peekLimit)
        if lookahead.count < wanted, !lookaheadEnded, lookaheadOffset == 0 {
            var bytes = lookahead + [UInt8](repeating: 0, count: Self.peekLimit - lookahead.count)
            var filled = lookahead.count
            while filled < wanted {
                let count = try bytes.withUnsafeMutableBytes {
                    try readFromDescriptor(into: UnsafeMutableRawBufferPointer(rebasing: $0[filled...]))
                }
                if count == 0 {
                    lookaheadEnded = true
                    break
                }
                filled += count
            }
            lookahead = Array(bytes[..<filled])
        }
        return try lookahead.withUnsafeBytes { try body($0) }
    }

    private func readFromDescriptor(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        if let decoded { return try decoded.read(into: buffer) }
        try Interruption.check(file: displayName)
        if storedSize == nil { try waitUntilReady() }
        while true {
            let count = POSIX.read(descriptor, buffer.baseAddress, buffer.count)
            if count >= 0 {
                countLock.withLock { descriptorBytesRead += count }
                return count
            }
            if errno == EINTR {
                try Interruption.check(file: displayName)
                continue
            }
            throw IngestError(.io, "read failed: \(POSIX.lastError)", file: displayName)
        }
    }

    /// Before reading a pipe, a terminal or a socket: calls ``whenIdle`` when it has
    /// nothing ready, then waits for it in short polls, so that an ``Interruption``
    /// ends the wait whichever thread the signal reached.
    private func waitUntilReady() throws {
        guard !Self.isReady(descriptor, waitingMilliseconds: 0) else { return }
        try whenIdle?()
        while !Self.isReady(descriptor, waitingMilliseconds: 200) {
            try Interruption.check(file: displayName)
        }
    }

    /// Whether a read of `descriptor` would return within `milliseconds` (with data,
    /// the end of the input or an error for the read to report).
    private static func isReady(_ descriptor: Int32, waitingMilliseconds milliseconds: Int32) -> Bool {
        var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let result = poll(&request, 1, milliseconds)
        return result > 0 || (result < 0 && errno != EINTR)
    }

    private func closeFile() {
        guard !closed else { return }
        closed = true
        if descriptor >= 0, descriptor != STDIN_FILENO { _ = close(descriptor) }
    }
}
