import IngestCore

/// The encodings of a property list: Apple's XML format, or `bplist00`.
public enum PlistFormat: String, Sendable, CaseIterable {
    /// Apple's XML property list format (`<?xml … <plist version="1.0">`): readable,
    /// larger, and unable to carry most control characters (written as U+FFFD).
    case xml
    /// The binary format, `bplist00`: compact, fast to load, and exact for every
    /// character.
    case binary
}

/// A property list, a keyed archive or JSON, as an ``/IngestCore/Output``: streamed with flat
/// memory into a temporary file beside the target and renamed over it on
/// ``commit()``, so a failed or interrupted import leaves an existing file byte for
/// byte as it was.
///
/// - ``Format/propertyList(_:)``: an array with one dictionary per record; with
///   several tables, a dictionary of such arrays keyed by table name, in the order
///   the tables were first met. Fields are typed as ``PlistScalar`` describes
///   (dates included); `null` fields are left out.
/// - ``Format/keyedArchive(_:className:classNames:)``: what `NSKeyedUnarchiver`
///   reads back in one call — an `NSArray` of one object per record, each of a class
///   named after its table (`people` → `Person`) unless named otherwise.
/// - ``Format/json``: an array of objects (or an object of arrays by table);
///   ``Format/jsonLines``: one object per line. Numbers stay numbers, nested data
///   stays JSON, binary data is base64.
///
/// Runs on the same file never interleave: ``open()`` takes the output's lock
/// (`.NAME.ingest.lock` beside it) until ``commit()`` or ``discard()``, waiting for
/// another run's up to ``lockTimeout`` seconds (then `.temporary`, exit 75); a new
/// file is put in place with `link(2)`, never over one that appeared meanwhile; and
/// ``open()`` removes the temporary files of killed runs beside the target
/// (``removedTemporaryFiles``).
///
/// A path of `-` (standard output), or one that is not a regular file — a FIFO,
/// `/dev/null`, a shell's `>(gzip > x.gz)` — is written through, never replaced,
/// and needs no ``replace``. JSON Lines, and JSON and XML property lists whose
/// records all go to one table (see ``mayWriteSeveralTables``), stream there as
/// records come, flushed after every batch and whenever the input is idle, so a
/// reader downstream (`| head`, `| jq`) sees them at once; the other formats are
/// built in the temporary directory and copied there on commit. A stream cannot
/// be taken back: a run that fails leaves what was sent. A symbolic link to a
/// regular file leads to that file, which is replaced, keeping the link.
///
/// ```swift
/// let output = FileOutput(path: "folks.plist", format: .propertyList(.binary), replace: true)
/// try Importer().run([InputFile(path: "folks.xml")], into: output)
/// ```
public final class FileOutput: Output {
    /// What kind of file the records become.
    public enum Format: Sendable {
        /// A property list in the given encoding: an array of dictionaries, one per
        /// record (or a dictionary of such arrays by table).
        case propertyList(PlistFormat)
        /// An `NSKeyedArchiver` archive, itself a property list in the given encoding
        /// (binary unless told otherwise): an `NSArray` of one object per record.
        /// `className` names every record's class; otherwise `classNames` by table,
        /// else the table name singularised and capitalised.
        case keyedArchive(PlistFormat, className: String? = nil, classNames: [String: String] = [:])
        /// One JSON document: an array of objects (or an object of arrays by table).
        case json
        /// JSON Lines (NDJSON): one object per record, one per line.
        case jsonLines
    }

    /// The path as given (`-` for standard output).
    public let path: String
    /// The kind of file written.
    public let format: Format
    /// Whether an existing file is replaced; without it, ``open()`` refuses one.
    public let replace: Bool
    /// How long ``open()`` waits for another run's lock on the file, in seconds.
    /// Default: 60.
    public var lockTimeout: Double = 60
    /// The temporary files of killed runs that ``open()`` removed from beside the target.
    public private(set) var removedTemporaryFiles: [String] = []
    /// Called once when ``open()`` starts waiting for another run's lock, with the
    /// holder's process id when known.
    public var whileWaitingForLock: ((_ holder: Int32?) -> Void)?
    /// How long ``open()`` waited for another run's lock, in seconds.
    public private(set) var secondsWaitedForLock: Double = 0
    /// Whether records may go to more than one table (a mapping schema with child
    /// tables), which makes the JSON and property-list documents objects of arrays
    /// by table. Such a document cannot stream to a pipe, since its first table's
    /// records are only complete at the end: with this set, it is built first and
    /// copied. Left unset, a second table met while streaming is an `.output` error.
    public var mayWriteSeveralTables = false
    private var file: OutputFile?

    /// An output writing `format` to `path` (`-` for standard output); nothing is
    /// touched before ``open()``.
    public init(path: String, format: Format, replace: Bool = false) {
        self.path = path
        self.format = format
        self.replace = replace
    }

    /// The path, or `<stdout>` for `-`.
    public var displayName: String { path == "-" ? "<stdout>" : path }

    /// Checks the target (an existing file without ``replace`` is an `.output` error,
    /// exit status 73) and creates the temporary file beside it.
    public func open() throws {
        let file = try OutputFile(
            path: path, replace: replace, lockTimeout: lockTimeout, streamable: streamable,
            whileWaiting: whileWaitingForLock)
        removedTemporaryFiles = file.removedTemporaryFiles
        secondsWaitedForLock = file.secondsWaitedForLock
        self.file = file
    }

    /// Whether the format can be written in order as records come.
    private var streamable: Bool {
        switch format {
        case .jsonLines: true
        case .json, .propertyList(.xml): !mayWriteSeveralTables
        case .propertyList(.binary), .keyedArchive: false
        }
    }

    /// Runs `body` with a sink that writes the format's records into the temporary
    /// file (spooling what must wait for the end), then completes the file.
    public func write(_ body: (any RecordSink) throws -> Void) throws {
        guard let file else { preconditionFailure("FileOutput.write(_:) before open()") }
        let sink: any FileRecordSink =
            switch format {
            case .propertyList(let encoding): try PlistSink(output: file, format: encoding)
            case .keyedArchive(let encoding, let className, let classNames):
                try KeyedArchiveSink(output: file, format: encoding, className: className, classNames: classNames)
            case .json: try JSONRecordSink(output: file, format: .array)
            case .jsonLines: try JSONRecordSink(output: file, format: .lines)
            }
        try body(sink)
        try sink.finish()
    }

    /// Flushes the finished file to disk and renames it over the target (or copies it
    /// to standard output).
    public func commit() throws {
        try file?.commit()
        file = nil
    }

    /// Removes the temporary file and whatever was spooled; the target is untouched.
    public func discard() {
        file?.discard()
        file = nil
    }
}

/// A sink that writes one kind of file and completes it at the end.
protocol FileRecordSink: RecordSink {
    /// Writes what follows the records (trailers, the assembled tables).
    func finish() throws
}
