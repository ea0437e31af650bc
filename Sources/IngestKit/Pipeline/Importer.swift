import Foundation

/// Source → parser → handlers → sink: runs inputs through the automatic mapping into
/// a sink and counts what went by.
///
/// ```swift
/// let counter = CountingSink(forwardingTo: mySink)
/// let importer = Importer(options: .init(recordPath: try RecordPath("people/person")))
/// try importer.run(InputFile(path: "folks.xml"), into: counter)
/// try counter.finish()
/// ```
public struct Importer {
    public struct Options: Sendable {
        public var recordPath: RecordPath?
        public var limits: ParseLimits
        public var chunkSize: Int
        /// The inputs' format; `nil` tells it from each input's name or first bytes.
        public var format: InputFormat?
        /// The name of a JSON input's document element, which names the table of a
        /// top-level array; `nil` uses the input's file name without its extension.
        public var documentName: String?
        /// The parser for XML inputs: Expat (the default) or libxml2.
        public var xmlParser: XMLParserKind
        /// Lifts libxml2's hard limits (`XML_PARSE_HUGE`); only with ``xmlParser``
        /// `.libxml2`, and only for trusted inputs.
        public var allowsHugeDocuments: Bool
        /// A mapping schema to run instead of the automatic mapping (``recordPath`` is
        /// then unused: the schema says where records are).
        public var schema: CompiledSchema?
        /// What happens to records that do not fit ``schema``; default: the run fails.
        public var rejects: RecordRejects?

        public init(recordPath: RecordPath? = nil, limits: ParseLimits = .default, chunkSize: Int = defaultChunkSize,
                    format: InputFormat? = nil, documentName: String? = nil, xmlParser: XMLParserKind = .expat,
                    allowsHugeDocuments: Bool = false, schema: CompiledSchema? = nil, rejects: RecordRejects? = nil) {
            self.schema = schema
            self.rejects = rejects
            self.recordPath = recordPath
            self.limits = limits
            self.chunkSize = chunkSize
            self.format = format
            self.documentName = documentName
            self.xmlParser = xmlParser
            self.allowsHugeDocuments = allowsHugeDocuments
        }
    }

    public var options: Options

    public init(options: Options = Options()) {
        self.options = options
    }

    /// Parses `input` on a second thread while `sink` is written on this one, through
    /// a bounded ``RecordPipe``: on two cores, parsing and writing overlap. Records
    /// arrive in `sink` in document order; errors from either side stop both.
    ///
    /// `progress` is called on the parsing thread with the bytes consumed and the
    /// records produced so far.
    public func runConcurrently(_ input: InputFile, into sink: any RecordSink,
                                progress: (@Sendable (_ bytes: Int, _ records: Int) -> Void)? = nil) throws {
        let pipe = RecordPipe()
        let producedCounter = CountingSink(forwardingTo: pipe)
        let job = UncheckedBox((self, input))
        let produced = UncheckedBox(producedCounter)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let (importer, input) = job.value
            do {
                try importer.run(input, into: produced.value) { bytes in
                    progress?(bytes, produced.value.recordCount)
                }
                try pipe.finish()
            } catch {
                pipe.fail(error)
            }
            done.signal()
        }
        defer { done.wait() }
        do {
            try pipe.drain(into: sink)
        } catch let error as IngestError {
            // The sink's errors name the input too, as ``run(_:into:progress:)``'s do.
            throw error.inFile(input.displayName)
        }
    }

    /// Parses `input` and writes its records to `sink`. `progress` hears the bytes
    /// consumed after each chunk. Errors name the input.
    public func run(_ input: InputFile, into sink: any RecordSink,
                    progress: ((Int) -> Void)? = nil) throws {
        do {
            let format = try options.format ?? InputFormat.detect(input)
            if let schema = options.schema {
                let rejects = try options.rejects ?? RecordRejects()
                rejects.inputName = input.displayName
                let mapping = SchemaMapping(schema: schema, format: format, sink: sink, rejects: rejects)
                let stack = HandlerStack(root: try mapping.makeRootHandler(), limits: options.limits)
                try parser(for: input, format: format).parse(input, into: stack, progress: progress)
                return try mapping.checkMatched()
            }
            var recordPath = options.recordPath
            if format != .xml, let path = recordPath {
                // JSON paths start below the top-level value, as ijson's do (`people/item`).
                recordPath = path.belowDocumentElement
            }
            let mapping = AutomaticMapping(recordPath: recordPath, sink: sink)
            let stack = HandlerStack(root: mapping.makeRootHandler(), limits: options.limits)
            try parser(for: input, format: format).parse(input, into: stack, progress: progress)
            try mapping.checkMatched()
        } catch let error as IngestError {
            throw error.inFile(input.displayName)
        }
    }

    /// Parses `input` and hands over each element at `path` whole, as a tree with
    /// the position where it starts: the source of ``records(_:at:from:options:buffer:)``.
    /// XML paths start at the document element (`people/person`); JSON paths start
    /// below the top-level value (`people/item`, or `item` for a top-level array).
    public func runTrees(_ input: InputFile, at path: String,
                         deliver: @escaping (JSONValue, SourcePosition) throws -> Void) throws {
        do {
            let format = try options.format ?? InputFormat.detect(input)
            let recordPath = try RecordPath(format == .xml ? path : "*/" + path)
            let locator = RecordTreeLocator(path: recordPath, deliver: deliver)
            let stack = HandlerStack(root: locator, limits: options.limits)
            try parser(for: input, format: format).parse(input, into: stack, progress: nil)
            try locator.checkMatched()
        } catch let error as IngestError {
            throw error.inFile(input.displayName)
        }
    }

    /// Parses `input` without mapping it: a check of well-formedness, and the parser's
    /// own speed.
    public func parseOnly(_ input: InputFile, progress: ((Int) -> Void)? = nil) throws {
        do {
            let format = try options.format ?? InputFormat.detect(input)
            try parser(for: input, format: format).parse(input, into: DiscardingReceiver(), progress: progress)
        } catch let error as IngestError {
            throw error.inFile(input.displayName)
        }
    }

    /// The parser for `format`: for XML, the one ``Options/xmlParser`` names.
    public func parser(for input: InputFile, format: InputFormat) -> any StreamingParser {
        switch format {
        case .xml:
            switch options.xmlParser {
            case .expat:
                return ExpatParser(chunkSize: options.chunkSize)
            case .libxml2:
                return LibXML2Parser(chunkSize: options.chunkSize, allowsHugeDocuments: options.allowsHugeDocuments)
            }
        case .json, .jsonLines:
            let name = options.documentName ?? input.path.map(Self.stem) ?? "stdin"
            return JSONParser(documentName: name, lines: format == .jsonLines, limits: options.limits,
                              chunkSize: options.chunkSize)
        }
    }

    /// `data/people.ndjson` → `people`.
    public static func stem(_ path: String) -> String {
        let base = path.split(separator: "/").last.map(String.init) ?? path
        let stem = base.lastIndex(of: ".").map { String(base[..<$0]) } ?? base
        return stem.isEmpty ? base : stem
    }
}

/// Hands a value to another thread that the compiler cannot prove safe to share;
/// the caller guarantees only one thread uses it at a time.
struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
