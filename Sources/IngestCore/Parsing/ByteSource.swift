/// Bytes from anywhere — a file, standard input, a socket, a decompressor — read in
/// chunks into the caller's buffer, so that no more than one chunk is in memory.
///
/// IngestParsers' `InputFile` is the source of files and standard input; wrap any other stream of
/// bytes in a type of your own to feed it to the parsers.
public protocol ByteSource: AnyObject {
    /// The name messages give the input: a path, `<stdin>`, a URL.
    var displayName: String { get }

    /// Reads up to `buffer.count` bytes into `buffer`; returns 0 at the end of the input.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int
}
