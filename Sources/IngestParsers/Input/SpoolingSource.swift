import IngestCore
import IngestPOSIX
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Bytes that can be read only once — standard input, a pipe, an HTTP body — made
/// readable again from their start: the bytes are passed on as they are read and
/// copied, as they pass, to an unnamed temporary file; ``replay()`` then reads the
/// copy followed by the rest of the input.
///
/// A strict parse that fails on a document that is not well-formed can so be
/// followed by a recovering one, as for a file, without holding the input in memory:
///
/// ```swift
/// let spool = try SpoolingSource(InputFile(path: "-"))
/// do { try strictParse(spool) } catch { try recoveringParse(spool.replay()) }
/// ```
///
/// The file is created in `directory` (default: `$TMPDIR`, else `/tmp`) and unlinked
/// at once, so it never outlives the source, whatever ends the process. It grows to
/// the size of what was read before the replay; memory stays flat.
public final class SpoolingSource: ByteSource {
    /// The name of the source it reads.
    public var displayName: String { source.displayName }
    /// Bytes read from the source and copied so far.
    public private(set) var spooledBytes = 0
    private let source: any ByteSource
    private let folder: String
    /// Open for writing until the replay.
    private var writer: Int32
    /// The copy read back from its start, until the replay takes it.
    private var copy: InputFile?

    /// Reads `source` from where it stands, copying its bytes to a new temporary
    /// file in `directory`. Throws `.io` when the file cannot be made.
    public init(_ source: any ByteSource, directory: String? = nil) throws {
        let (folder, path, writer) = try InputFile.makeTemporaryFile(in: directory, holding: source.displayName)
        // Opened before the unlink, with its own file offset.
        let reader = open(path, O_RDONLY | O_CLOEXEC)
        let problem = errno
        unlink(path)
        guard reader >= 0 else {
            close(writer)
            throw IngestError(
                .io, "cannot reopen the temporary copy of \(source.displayName): \(String(cString: strerror(problem)))")
        }
        self.source = source
        self.folder = folder
        self.writer = writer
        copy = InputFile(descriptor: reader, displayName: source.displayName)
    }

    deinit {
        if writer >= 0 { close(writer) }
    }

    /// Reads up to `buffer.count` bytes of the source, copying them; 0 at its end.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let count = try source.read(into: buffer)
        if count > 0 && writer >= 0 {
            try POSIX.writeAll(
                writer, UnsafeRawBufferPointer(rebasing: buffer[..<count]),
                to: "a temporary file in \(folder) holding \(displayName)")
            spooledBytes += count
        }
        return count
    }

    /// The source again from its start: the bytes read so far, from the copy, then
    /// the rest of the source as it comes (no longer copied). It may be asked for
    /// once; this source must not be read afterwards.
    public func replay() throws -> any ByteSource {
        guard let copy else { throw IngestError(.input, "the input cannot be read a third time", file: displayName) }
        self.copy = nil
        close(writer)
        writer = -1
        return Replay(copy: copy, rest: source)
    }
}

/// A spool's copy, then the rest of the source it copied.
private final class Replay: ByteSource {
    private var copy: InputFile?
    private let rest: any ByteSource
    var displayName: String { rest.displayName }

    init(copy: InputFile, rest: any ByteSource) {
        self.copy = copy
        self.rest = rest
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        if let copy {
            let count = try copy.read(into: buffer)
            if count > 0 { return count }
            self.copy = nil
        }
        return try rest.read(into: buffer)
    }
}
