import IngestCore
import IngestPOSIX
/// A temporary file beside an output, for data that is written while records
/// arrive and read back once when the output is assembled (a table's records, the
/// first pass of a binary plist). It is never renamed into place: it is removed
/// when it goes away, and on SIGINT, SIGTERM or SIGHUP like every ``AtomicFile``.
final class SpoolFile {
    private let file: AtomicFile
    let writer: BufferedFileWriter

    /// A new, empty spool beside `target`, written through a buffer of `capacity` bytes.
    init(beside target: String, capacity: Int = 256 * 1024) throws {
        file = try AtomicFile(target: target)
        writer = try BufferedFileWriter(path: file.temporaryPath, displayName: target, capacity: capacity)
    }

    deinit { file.discard() }

    /// Flushes what was written and opens the spool for reading from the start.
    func reader() throws -> BufferedFileReader {
        try writer.flush()
        return try BufferedFileReader(path: file.temporaryPath, displayName: writer.displayName)
    }
}
