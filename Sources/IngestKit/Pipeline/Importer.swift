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

        public init(recordPath: RecordPath? = nil, limits: ParseLimits = .default, chunkSize: Int = defaultChunkSize) {
            self.recordPath = recordPath
            self.limits = limits
            self.chunkSize = chunkSize
        }
    }

    public var options: Options

    public init(options: Options = Options()) {
        self.options = options
    }

    /// Parses `input` and writes its records to `sink`. `progress` hears the bytes
    /// consumed after each chunk. Errors name the input.
    public func run(_ input: InputFile, into sink: any RecordSink,
                    progress: ((Int) -> Void)? = nil) throws {
        let mapping = AutomaticMapping(recordPath: options.recordPath, sink: sink)
        let stack = HandlerStack(root: mapping.makeRootHandler(), limits: options.limits)
        do {
            try ExpatParser(chunkSize: options.chunkSize).parse(input, into: stack, progress: progress)
            try mapping.checkMatched()
        } catch let error as IngestError {
            throw error.inFile(input.displayName)
        }
    }
}
