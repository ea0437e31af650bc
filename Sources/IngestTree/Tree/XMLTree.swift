import IngestCore
import IngestParsers
import CLibXML2

/// A whole XML document in memory, parsed by libxml2: elements you can walk and
/// query with XPath — Neuburg's tree alternative to streaming.
///
/// ```swift
/// let tree = try XMLTree(contentsOf: "Samples/folks.xml")
/// for person in try tree.select("//person") {
///     print(person.children.map(\.text))          // ["Matt", "Neuburg"], …
/// }
/// let doright = try tree.select("//person[lastName='Doright']")   // one element
/// ```
///
/// **Memory.** The tree holds every node of the document at once: expect several
/// times the file's size (see Documentation/TreeAndValidation.md).
/// ``init(reading:maxBytes:)`` refuses inputs larger than `maxBytes` before building
/// anything. Streaming (``/IngestParsers/ExpatParser``, ``/IngestParsers/Importer``) keeps
/// memory flat instead.
///
/// **Safety.** Parsing never touches the network (`XML_PARSE_NONET`), never loads an
/// external DTD and never loads an external entity: a reference to one stays an
/// unexpanded reference node, and ``Element/text`` and the record walk refuse it.
/// Internal entities are kept as references to their parsed content, as libxml2 does
/// without `XML_PARSE_NOENT` (which would substitute external entities too), and
/// libxml2's protection against entity amplification stays on; on top of it, a tree
/// whose references would expand past ingest's bound (`EntityExpansionBudget`) is
/// refused before anything expands them. libxml2's own limits
/// apply, since `XML_PARSE_HUGE` is not set: nesting up to 256 levels, a text node up
/// to 10 MB.
///
/// **Lifetime.** The tree owns libxml2's `xmlDoc` and frees it when the last reference
/// goes away. Every ``Element`` holds a strong reference to its tree, so an element
/// can never outlive the memory it points into.
public final class XMLTree {
    /// The name errors use: the path as given, `<stdin>` or the name you chose.
    public let displayName: String
    /// The size of the document in bytes.
    public let byteCount: Int
    let document: xmlDocPtr

    /// Options every tree is parsed with: no network, lines past 65535 kept exact.
    /// Not `XML_PARSE_NOENT` (it would load external entities), not `XML_PARSE_DTDLOAD`,
    /// not `XML_PARSE_HUGE`.
    static let parseOptions = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_BIG_LINES.rawValue)

    private init(document: xmlDocPtr, displayName: String, byteCount: Int) {
        self.document = document
        self.displayName = displayName
        self.byteCount = byteCount
    }

    deinit { xmlFreeDoc(document) }

    /// Parses the file at `path`. Errors: `.input` (exit 66) when it cannot be opened,
    /// `.data` (65) when it is malformed or larger than `maxBytes`.
    public convenience init(contentsOf path: String, maxBytes: Int? = nil) throws {
        try self.init(reading: InputFile(path: path), maxBytes: maxBytes)
    }

    /// Parses `input` to its end: a file, or standard input. With `maxBytes`, a file
    /// whose size is known to be larger is refused before a byte is read, and a stream
    /// is refused as soon as it passes the limit.
    public convenience init(reading input: InputFile, maxBytes: Int? = nil) throws {
        try self.init(reading: input, maxBytes: maxBytes, progress: nil) { size in
            let what = size.map { "is \($0) bytes" } ?? "is larger than \(maxBytes ?? 0) bytes"
            return IngestError(
                .data, "\(what), over the limit of \(maxBytes ?? 0) bytes for a document tree",
                file: input.displayName)
        }
    }

    /// Parses a document held in memory.
    public convenience init(bytes: some Collection<UInt8>, displayName: String = "<memory>") throws {
        Self.initializeLibrary
        let bytes = Array(bytes)
        guard bytes.count <= Int(Int32.max) else {
            throw IngestError(
                .data, "is \(bytes.count) bytes: libxml2 parses at most 2 GiB from memory", file: displayName)
        }
        let diagnostics = LibXML2Diagnostics()
        let parsed: (xmlDocPtr?, Bool) = bytes.withUnsafeBufferPointer { buffer in
            diagnostics.capturing {
                Self.withParserContext { context in
                    var empty: CChar = 0
                    let start = buffer.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) }
                    let document = withUnsafePointer(to: &empty) { empty in
                        xmlCtxtReadMemory(
                            context, start ?? empty, Int32(buffer.count), displayName, nil, Self.parseOptions)
                    }
                    return (document, context.pointee.wellFormed != 0)
                }
            }
        }
        let document = try Self.check(parsed, diagnostics, displayName: displayName)
        self.init(document: document, displayName: displayName, byteCount: bytes.count)
        try checkEntityExpansion()
    }

    /// The full reading initializer: `oversize` builds the error for an input over
    /// `maxBytes` (its size when known), so callers can say what to do instead.
    convenience init(
        reading input: InputFile, maxBytes: Int?, progress: ((Int) -> Void)?,
        oversize: (Int?) -> IngestError
    ) throws {
        Self.initializeLibrary
        if let maxBytes, let size = input.size, size > maxBytes { throw oversize(size) }
        let source = LibXML2InputSource(input, limit: maxBytes, progress: progress)
        let diagnostics = LibXML2Diagnostics()
        let parsed: (xmlDocPtr?, Bool) = diagnostics.capturing {
            Self.withParserContext { context in
                // libxml2 holds `source.context` unretained: the source must outlive the read.
                let document = withExtendedLifetime(source) {
                    xmlCtxtReadIO(
                        context, LibXML2InputSource.read, nil, source.context,
                        input.displayName, nil, Self.parseOptions)
                }
                return (document, context.pointee.wellFormed != 0)
            }
        }
        if source.exceededLimit {
            if let document = parsed.0 { xmlFreeDoc(document) }
            throw oversize(nil)
        }
        if let failure = source.failure {
            if let document = parsed.0 { xmlFreeDoc(document) }
            throw failure
        }
        let document = try Self.check(parsed, diagnostics, displayName: input.displayName)
        self.init(document: document, displayName: input.displayName, byteCount: source.consumed)
        try checkEntityExpansion()
    }

    /// The document element.
    public var root: Element {
        // A document libxml2 accepted as well-formed always has one.
        Element(tree: self, node: xmlDocGetRootElement(document)!)
    }

    /// libxml2's set-up (its initialisation and the WHATWG decoders), once per
    /// process, before the first parse on any thread.
    static let initializeLibrary: Void = LibXML2Encodings.ready

    private static func withParserContext<T>(_ body: (xmlParserCtxtPtr) -> T) -> T {
        let context = xmlNewParserCtxt()!
        defer { xmlFreeParserCtxt(context) }
        return body(context)
    }

    /// The document, or the first error libxml2 reported as `.data` with its line and
    /// column. Namespace errors (an unbound prefix) count as errors, as in Expat.
    private static func check(
        _ parsed: (xmlDocPtr?, Bool), _ diagnostics: LibXML2Diagnostics,
        displayName: String
    ) throws -> xmlDocPtr {
        let (document, wellFormed) = parsed
        if let document, wellFormed, diagnostics.errorCount == 0 { return document }
        if let document { xmlFreeDoc(document) }
        guard let first = diagnostics.errors.first else {
            throw IngestError(.data, "not a well-formed XML document", file: displayName)
        }
        var message = first.message
        if diagnostics.errorCount > 1 {
            message += " (and \(diagnostics.errorCount - 1) more error\(diagnostics.errorCount == 2 ? "" : "s"))"
        }
        throw IngestError(.data, message, file: displayName, position: first.position)
    }
}
