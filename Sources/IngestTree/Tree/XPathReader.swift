import IngestCore
import IngestParsers

/// Tree mode as a ``/IngestParsers/RecordReader``: parses all of each input into an ``XMLTree``,
/// selects the records with an ``XPathSelection`` and maps them with the same
/// ``/IngestCore/AutomaticDocumentMapping`` a stream goes through (see ``XPathSelection`` for how the
/// selected elements become records and which table they go to).
///
/// ```swift
/// let reader = XPathReader(selection: XPathSelection("//person[lastName='Doright']"))
/// try reader.run([InputFile(path: "folks.xml")], into: SQLiteOutput(path: "doright.db", mode: .replace))
/// ```
///
/// Memory is bounded, not flat: an input larger than
/// ``XPathSelection/maxTreeBytes`` is refused before it is parsed (`.data`), a file
/// by its size and standard input as soon as it passes the limit.
public struct XPathReader: RecordReader {
    /// The expression that selects the records, its namespaces and the size limit.
    public var selection: XPathSelection
    /// The bounds on nesting and text the records' events are held to, as in a stream.
    public var limits: ParseLimits
    /// The inputs' format, when known; tree mode reads XML only (`.usage` otherwise).
    public var format: InputFormat?

    /// A reader that takes the elements `selection` selects as records; `format`, when
    /// given, spares it looking at each input (it must be XML).
    public init(selection: XPathSelection, limits: ParseLimits = .default, format: InputFormat? = nil) {
        self.selection = selection
        self.limits = limits
        self.format = format
    }

    /// Parses all of `input` into a tree (refusing it past
    /// ``XPathSelection/maxTreeBytes``), evaluates the expression and writes a record
    /// per selected element to `sink`; `.data` when it selects nothing. `progress`
    /// hears the bytes read while the tree is built.
    public func read(_ input: InputFile, into sink: any RecordSink, progress: ((Int) -> Void)? = nil) throws {
        do {
            let format = try self.format ?? InputFormat.detect(input)
            guard format == .xml else {
                throw IngestError(
                    .usage,
                    "XPath selects elements of XML, and \(input.displayName) is \(format == .json ? "JSON" : "JSON Lines")"
                )
            }
            let limit = selection.maxTreeBytes
            let tree = try XMLTree(reading: input, maxBytes: limit, progress: progress) { size in
                IngestError(
                    .data,
                    "\(size.map { "is \($0) bytes, more than" } ?? "passed") the tree limit of \(limit) bytes: the tree holds the whole document in memory, several times its size",
                    reason: .treeTooLarge(limit: limit))
            }
            let elements = try selection.elements(in: tree)

            let mapping = AutomaticDocumentMapping(recordPath: nil, sink: sink)
            let stack = HandlerStack(root: try mapping.makeRootHandler(), limits: limits)
            let walker = TreeEventWalker(receiver: stack)
            let collection = XPathSelection.collectionName(for: elements, walker: walker)
            let start = SourcePosition(line: max(elements[0].line, 1), column: 0, byteOffset: 0)
            try stack.startElement(collection, attributes: .none, at: start)
            for element in elements { try walker.send(element) }
            try stack.endElement(collection, at: start)
            try mapping.checkMatched()  // hands over the records still held
        } catch let error as IngestError {
            // A wrong expression or option is the caller's fault, not the input's.
            throw error.kind == .usage ? error : error.inFile(input.displayName)
        }
    }
}
