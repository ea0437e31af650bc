import IngestCore

/// The encodings of a property list: Apple's XML format, or `bplist00`.
public enum PlistFormat: String, Sendable, CaseIterable {
    case xml
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
/// A path of `-` builds the file in the temporary directory and copies it to
/// standard output on commit.
///
/// ```swift
/// let output = FileOutput(path: "folks.plist", format: .propertyList(.binary), replace: true)
/// try Importer().run([InputFile(path: "folks.xml")], into: output)
/// ```
public final class FileOutput: Output {
    public enum Format: Sendable {
        case propertyList(PlistFormat)
        /// `className` names every record's class; otherwise `classNames` by table,
        /// else the table name singularised and capitalised.
        case keyedArchive(PlistFormat, className: String? = nil, classNames: [String: String] = [:])
        case json
        case jsonLines
    }

    /// The path as given (`-` for standard output).
    public let path: String
    public let format: Format
    /// Whether an existing file is replaced; without it, ``open()`` refuses one.
    public let replace: Bool
    private var file: OutputFile?

    public init(path: String, format: Format, replace: Bool = false) {
        self.path = path
        self.format = format
        self.replace = replace
    }

    public var displayName: String { path == "-" ? "<stdout>" : path }

    public func open() throws {
        file = try OutputFile(path: path, replace: replace)
    }

    public func write(_ body: (any RecordSink) throws -> Void) throws {
        guard let file else { preconditionFailure("FileOutput.write(_:) before open()") }
        let sink: any FileRecordSink = switch format {
        case .propertyList(let encoding): try PlistSink(output: file, format: encoding)
        case .keyedArchive(let encoding, let className, let classNames):
            try KeyedArchiveSink(output: file, format: encoding, className: className, classNames: classNames)
        case .json: try JSONRecordSink(output: file, format: .array)
        case .jsonLines: try JSONRecordSink(output: file, format: .lines)
        }
        try body(sink)
        try sink.finish()
    }

    public func commit() throws {
        try file?.commit()
        file = nil
    }

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
