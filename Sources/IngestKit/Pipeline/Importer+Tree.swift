extension Importer {
    /// Tree mode: parses all of `input` into an ``XMLTree``, selects the records with
    /// `selection`'s XPath expression and writes them to `sink` through the same
    /// ``AutomaticMapping`` a stream goes through (see ``XPathSelection`` for how the
    /// selected elements become records and which table they go to).
    ///
    /// Memory is bounded, not flat: an input larger than
    /// ``XPathSelection/maxTreeBytes`` is refused before it is parsed (`.data`, exit
    /// 65), a file by its size and standard input as soon as it passes the limit.
    /// ``Options/recordPath`` must be `nil` — the expression chooses the records — and
    /// the input must be XML (both `.usage`). `progress` hears the bytes read.
    public func runTree(_ input: InputFile, selecting selection: XPathSelection, into sink: any RecordSink,
                        progress: ((Int) -> Void)? = nil) throws {
        do {
            if let recordPath = options.recordPath {
                throw IngestError(.usage, "--records \(recordPath) and --xpath both choose the records: give one of them")
            }
            let format = try options.format ?? InputFormat.detect(input)
            guard format == .xml else {
                throw IngestError(.usage, "--xpath reads XML, and \(input.displayName) is \(format == .json ? "JSON" : "JSON Lines")")
            }
            let limit = selection.maxTreeBytes
            let tree = try XMLTree(reading: input, maxBytes: limit, progress: progress) { size in
                let what = size.map { "is \($0) bytes, more than" } ?? "passed"
                return IngestError(.data, "\(what) --max-tree-bytes \(limit): --xpath holds the whole document in memory, several times its size. Stream it with --records PATH instead, or raise --max-tree-bytes")
            }
            let elements = try selection.elements(in: tree)

            let mapping = AutomaticMapping(recordPath: nil, sink: sink)
            let stack = HandlerStack(root: mapping.makeRootHandler(), limits: options.limits)
            let walker = TreeEventWalker(receiver: stack)
            let collection = XPathSelection.collectionName(for: elements, walker: walker)
            let start = SourcePosition(line: max(elements[0].line, 1), column: 0, byteOffset: 0)
            try stack.startElement(collection, attributes: .none, at: start)
            for element in elements { try walker.send(element) }
            try stack.endElement(collection, at: start)
        } catch let error as IngestError {
            // A wrong expression or option is the command's fault, not the input's.
            throw error.kind == .usage ? error : error.inFile(input.displayName)
        }
    }
}
