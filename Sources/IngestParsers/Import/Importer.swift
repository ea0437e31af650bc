import IngestCore

/// The streaming import: bytes → parser → handlers → records. It reads each input
/// with the parser its format calls for (Expat or libxml2 for XML, the JSON reader
/// for JSON and JSON Lines) in chunks, so memory stays flat, and maps the events to
/// records with a ``/IngestCore/RecordMapping``.
///
/// ```swift
/// let importer = Importer(options: .init(recordPath: try RecordPath("people/person")))
/// let output = try SQLiteOutput(path: "folks.db", mode: .replace)
/// try importer.run([InputFile(path: "folks.xml")], into: output)
/// ```
///
/// ``read(_:into:progress:)`` writes one input to any ``/IngestCore/RecordSink`` instead.
public struct Importer: RecordReader {
    /// What an ``Importer`` reads and how: the mapping, the parser and its limits.
    public struct Options: Sendable {
        /// How records are found and built. Default: the automatic mapping.
        public var mapping: any RecordMapping
        /// What one document may hold (nesting depth, text per element, …) before the
        /// import stops with a `.data` error. Default: ``/IngestCore/ParseLimits/default``.
        public var limits: ParseLimits
        /// How many bytes each read hands the parser; memory per input grows with it,
        /// not with the input. Default: ``/IngestCore/defaultChunkSize`` (256 KiB).
        public var chunkSize: Int
        /// The inputs' format; `nil` tells it from each input's name or first bytes.
        public var format: InputFormat?
        /// The name of the document element of a JSON input that has no file name
        /// (standard input), which names the table of a top-level array. A file's is
        /// its name without the extension. Default: `stdin`.
        public var documentName: String?
        /// The parser for XML inputs: Expat (the default) or libxml2.
        public var xmlParser: XMLParserKind
        /// Lifts libxml2's hard limits (`XML_PARSE_HUGE`); only with ``xmlParser``
        /// `.libxml2`, and only for trusted inputs.
        public var allowsHugeDocuments: Bool
        /// Hears what an XML parser read past rather than refused — an entity
        /// reference kept as written (see `UndeclaredEntity`); `nil`: nobody.
        public var onWarning: ParseWarningHandler?
        /// The fewest bytes of each share a big JSON Lines or XML file is split near
        /// when it is read in parts on several threads (``Importer/parts(of:atMost:)``,
        /// ``Importer/parts(of:threads:threadsBesideWriter:)``).
        /// Default: 4 MiB.
        public var minimumPartSize = 4 << 20
        /// The size beyond which a regular XML file is mapped on a thread of its own
        /// while the parser reads on (`EventRelay`), so that the two use two cores;
        /// `nil` (the default): parse and map on one thread. Worth it only with a core
        /// to spare: beside a writer's thread on two cores, a third thread takes from
        /// both. ``/IngestCore/defaultChunkSize`` spares a file of one chunk the thread.
        public var mappingThreadThreshold: Int?

        /// - Parameters:
        ///   - recordPath: with the automatic mapping, where the records are; ignored
        ///     when `mapping` is given.
        ///   - mapping: how records are found and built; default `.automatic(recordPath:)`.
        ///   - limits: what one document may hold (``limits``).
        ///   - chunkSize: the bytes read per call (``chunkSize``).
        ///   - format: the inputs' format, or `nil` to detect it per input (``format``).
        ///   - documentName: the document element's name for a JSON input without a
        ///     file name (``documentName``).
        ///   - xmlParser: Expat or libxml2 for XML inputs (``xmlParser``).
        ///   - allowsHugeDocuments: lift libxml2's hard limits (``allowsHugeDocuments``).
        ///   - onWarning: hears what the XML parser read past (``onWarning``).
        public init(
            recordPath: RecordPath? = nil, mapping: (any RecordMapping)? = nil,
            limits: ParseLimits = .default, chunkSize: Int = defaultChunkSize,
            format: InputFormat? = nil, documentName: String? = nil, xmlParser: XMLParserKind = .expat,
            allowsHugeDocuments: Bool = false, onWarning: ParseWarningHandler? = nil
        ) {
            self.onWarning = onWarning
            self.mapping = mapping ?? AutomaticRecordMapping(recordPath: recordPath)
            self.limits = limits
            self.chunkSize = chunkSize
            self.format = format
            self.documentName = documentName
            self.xmlParser = xmlParser
            self.allowsHugeDocuments = allowsHugeDocuments
        }
    }

    /// How this importer reads its inputs.
    public var options: Options

    /// An importer with `options`; by default the automatic mapping of XML or JSON
    /// as each input's name or first bytes tell.
    public init(options: Options = Options()) {
        self.options = options
    }

    /// Parses `input` and writes its records to `sink`. `progress` hears the bytes
    /// consumed after each chunk. Errors name the input.
    ///
    /// Whenever a pipe or terminal input has nothing more ready, `sink` is flushed
    /// (``/IngestCore/RecordSink/flush()``): records made so far go on while the input is idle.
    public func read(_ input: InputFile, into sink: any RecordSink, progress: ((Int) -> Void)? = nil) throws {
        defer { input.whenIdle = nil }
        try naming(input) {
            let format =
                try input.piece.map { $0.xml == nil ? .jsonLines : .xml } ?? options.format
                ?? InputFormat.detect(input)
            let mapping = try options.mapping.mapping(
                for: format, inputName: input.displayName, limits: options.limits, into: sink)
            input.piece?.mayEndBefore = { [mapping] in mapping.mayBeginPart(withRecord: $0) }
            defer { input.piece?.mayEndBefore = nil }
            input.whenIdle = {
                try mapping.flush()
                try sink.flush()
            }
            let stack = try HandlerStack(mapping: mapping, limits: options.limits)
            let parser = parser(for: input, format: format)
            if format == .xml, input.piece == nil, mapsOnItsOwnThread(input) {
                // Progress is told on the mapping's thread, which counts the records.
                try EventRelay.overlap(into: stack, progress: progress) { relay, progress in
                    try parser.parse(input, into: relay, progress: progress)
                }
            } else {
                try parser.parse(input, into: stack, progress: progress)
            }
            if let piece = input.piece {
                // A part without records fails only if the others have none either.
                try mapping.flush()
                do { try mapping.checkMatched() } catch { piece.unmatched = error }
            } else {
                try mapping.checkMatched()
            }
        }
    }

    /// A JSON Lines file (by ``Options/format``, else its name or first bytes) of at
    /// least two ``Options/minimumPartSize``s, whose mapping maps each line alone, in
    /// up to `count` parts split at line ends; `nil` for any other input.
    public func parts(of input: InputFile, atMost count: Int) throws -> [InputFile]? {
        guard count > 1, input.size != nil, options.mapping.mapsEachLineAlone,
            try options.format ?? InputFormat.detect(input) == .jsonLines
        else { return nil }
        return try input.lineParts(atMost: count, minimumSize: options.minimumPartSize)
    }

    /// An XML file read by Expat, of at least two ``Options/minimumPartSize``s, whose
    /// mapping can map its records in parts (``/IngestCore/RecordMapping/xmlPartRecordDepth``), in
    /// up to `threadsBesideWriter` parts split between records, or `threads` without a
    /// writer's thread; otherwise as ``parts(of:atMost:)`` has it.
    ///
    /// Beside a writer on two cores, each part's parser keeps its batches and the
    /// part read ahead sets its records aside on disk: more memory for less time than
    /// the writer's overlap already buys, so the writer keeps its thread.
    public func parts(of input: InputFile, threads: Int, threadsBesideWriter: Int?) throws -> [InputFile]? {
        let count = threadsBesideWriter ?? threads
        guard count > 1, input.size != nil, options.xmlParser == .expat,
            let depth = options.mapping.xmlPartRecordDepth,
            try options.format ?? InputFormat.detect(input) == .xml
        else {
            guard let threadsBesideWriter, threadsBesideWriter > 1 else { return nil }
            return try parts(of: input, atMost: threadsBesideWriter)
        }
        return try input.recordParts(atMost: count, minimumSize: options.minimumPartSize, recordDepth: depth)
    }

    /// Parses `input` and hands over each element at `path` whole, as a tree with
    /// the position where it starts: the source of ``records(_:at:from:options:buffer:onFailure:)``.
    /// XML paths start at the document element (`people/person`); JSON paths start
    /// below the top-level value (`people/item`, or `item` for a top-level array).
    public func forEachRecordTree(
        in input: InputFile, at path: String,
        _ deliver: @escaping (JSONValue, SourcePosition) throws -> Void
    ) throws {
        try naming(input) {
            let format = try options.format ?? InputFormat.detect(input)
            // Messages name the path as written: JSON's is below the top-level value.
            let recordPath = format == .xml ? try RecordPath(path) : try RecordPath(path).belowDocumentElement
            let locator = RecordTreeLocator(path: recordPath, format: format, deliver: deliver)
            let stack = HandlerStack(root: locator, limits: options.limits)
            stack.survey = locator.survey
            try parser(for: input, format: format).parse(input, into: stack, progress: nil)
            try locator.checkMatched()
        }
    }

    /// Parses `input` without mapping it: a check of well-formedness, and the parser's
    /// own speed.
    public func parseOnly(_ input: InputFile, progress: ((Int) -> Void)? = nil) throws {
        try naming(input) {
            let format = try options.format ?? InputFormat.detect(input)
            try parser(for: input, format: format).parse(input, into: DiscardingReceiver(), progress: progress)
        }
    }

    /// Whether `input` is a regular file larger than ``Options/mappingThreadThreshold``
    /// (compressed, its content's size is not known: it is taken to be larger). Only a
    /// regular file: an idle pipe flushes the mapping from the parser's thread.
    private func mapsOnItsOwnThread(_ input: InputFile) -> Bool {
        guard let threshold = options.mappingThreadThreshold, input.storedSize != nil else { return false }
        return (input.size ?? Int.max) > threshold
    }

    /// Runs `body`, blaming its errors on `input` unless they name a file already.
    private func naming(_ input: InputFile, _ body: () throws -> Void) throws {
        do {
            try body()
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
                var parser = ExpatParser(
                    limits: options.limits, chunkSize: options.chunkSize, onWarning: options.onWarning)
                parser.piece = input.piece
                return parser
            case .libxml2:
                return LibXML2Parser(
                    allowsHugeDocuments: options.allowsHugeDocuments, limits: options.limits,
                    chunkSize: options.chunkSize, onWarning: options.onWarning)
            }
        case .json, .jsonLines:
            let name = input.path.map(Self.stem) ?? options.documentName ?? "stdin"
            var parser = JSONParser(
                documentName: name, lines: format == .jsonLines, limits: options.limits,
                chunkSize: options.chunkSize)
            parser.piece = input.piece
            return parser
        }
    }

    /// `data/people.ndjson` → `people`; `people.xml.gz` → `people`.
    public static func stem(_ path: String) -> String {
        let path = InputFormat.withoutCompressionSuffix(path)
        let base = path.split(separator: "/").last.map(String.init) ?? path
        let stem = base.lastIndex(of: ".").map { String(base[..<$0]) } ?? base
        return stem.isEmpty ? base : stem
    }
}

/// A parse with nothing mapped or written: the reader of `--parse-only`, the
/// fastest well-formedness check.
public struct WellFormednessCheck: RecordReader {
    /// The importer whose format detection and parser options the check uses; its
    /// mapping is not used.
    public var importer: Importer

    /// A check that parses as `importer` would.
    public init(importer: Importer = Importer()) {
        self.importer = importer
    }

    /// Parses `input` to the end and writes nothing to `sink`; throws (`.data`) at
    /// the first place it is not well-formed.
    public func read(_ input: InputFile, into sink: any RecordSink, progress: ((Int) -> Void)?) throws {
        try importer.parseOnly(input, progress: progress)
    }
}
