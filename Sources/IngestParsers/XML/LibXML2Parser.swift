import IngestCore
import CLibXML2

/// libxml2's SAX2 push parser behind the same event model as ``ExpatParser``.
///
/// Each ``parse(_:into:progress:)`` reads the input in chunks of ``chunkSize`` bytes
/// and pushes them into libxml2 (`xmlParseChunk`). It emits exactly the events Expat
/// does: the same interned ``/IngestCore/Name``s for namespaced elements and attributes,
/// namespace declarations (`xmlns`, `xmlns:p`) not reported as attributes,
/// defaulted attributes after the specified ones, CDATA as text, and predefined,
/// character and internal entity references resolved to their text. Text may be
/// split at other places than Expat splits it.
///
/// Pick it over Expat for encodings Expat's byte tables cannot follow (ISO-2022-JP,
/// GB18030, UTF-7). Both parsers read the other legacy encodings by the same
/// decoders, the WHATWG Encoding Standard's, which ingest registers with libxml2
/// (process-wide) before its first parse. Expat is the default and faster.
///
/// Safety settings are fixed, not options:
/// - `XML_PARSE_NONET`; no external DTD is loaded (a well-known one's entities are
///   declared from ingest's own table, `KnownDTD`); entities are not substituted by
///   libxml2 (`XML_PARSE_NOENT` is off) and a reference to an external entity in
///   content is an error, so its contents can never reach an output;
/// - libxml2's own limits stay on (names over 50 000 bytes, one attribute value or
///   CDATA section over 10 MB, entity amplification) unless
///   ``allowsHugeDocuments`` is set. Its push parser does not count nesting depth;
///   ``/IngestCore/HandlerStack`` bounds it with ``/IngestCore/ParseLimits``, as for Expat.
///
/// One known difference from Expat in what is accepted: names that only XML 1.0's
/// 5th edition allows (libxml2 takes them; Expat keeps the older tables). And one
/// in what is reported: a CR that a character reference put into an internal
/// entity's replacement text (`<!ENTITY e "&#13;">`) arrives as LF (libxml2 parses
/// replacement text as new input).
///
/// Positions: an element's is the line and column of its `<`, found by looking back
/// from where libxml2 stands when it reports the tag; a text event's is where
/// libxml2 stands. For inputs in other encodings than UTF-8, ``/IngestCore/SourcePosition``'s
/// byte offset counts bytes of the UTF-8 libxml2 converted the input to.
public struct LibXML2Parser: StreamingParser {
    /// The bytes read from the input per call, pushed to libxml2 at once.
    /// Default: ``/IngestCore/defaultChunkSize`` (256 KiB).
    public var chunkSize: Int
    /// Sets `XML_PARSE_HUGE`: lifts libxml2's hard limits (10 MB attribute values and
    /// CDATA sections, 50 000-byte names) and turns off its entity amplification
    /// check, so a "billion laughs" document can take all memory. Only for trusted
    /// inputs.
    public var allowsHugeDocuments: Bool
    /// libxml2's recovering mode (`XML_PARSE_RECOVER`): a document that is not
    /// well-formed (an undeclared prefix, a bare `&`, a missing end tag) is read as far
    /// as libxml2 can repair it instead of failing at its first error. Off by default.
    /// ``parse(_:into:progress:)`` then reports no XML error at all; to learn whether
    /// there was one, drive a ``LibXML2PushParser`` made by
    /// ``makePushParser(receiver:displayName:)`` and read its
    /// ``LibXML2PushParser/firstRecoveredError``.
    public var recovers: Bool
    /// The document's encoding, overriding its XML declaration, as an HTTP charset
    /// does (RFC 7303); `nil` (the default) lets the document say.
    public var encoding: String?
    /// Bounds the bytes of one token without an event — a tag with its attributes, a
    /// comment — longer than ``/IngestCore/ParseLimits/maxTextBytes`` (and a chunk):
    /// the parse stops rather than libxml2 holding it all in memory. Bytes are those
    /// of the UTF-8 libxml2 reads. Unlike libxml2's own limits, this one holds with
    /// ``allowsHugeDocuments``.
    public var limits: ParseLimits
    /// Hears what the parser read past (an entity kept as written); `nil`: nobody.
    public var onWarning: ParseWarningHandler?

    /// A libxml2 parser reading `chunkSize` bytes at a time, bounded by `limits` and,
    /// unless `allowsHugeDocuments`, by libxml2's hard limits; see the properties
    /// for `recovers`, `encoding` and `onWarning`. The arguments after the
    /// parser's own options are every parser's: `limits`, `chunkSize`, `onWarning`.
    public init(
        allowsHugeDocuments: Bool = false, recovers: Bool = false, encoding: String? = nil,
        limits: ParseLimits = .default, chunkSize: Int = defaultChunkSize, onWarning: ParseWarningHandler? = nil
    ) {
        self.allowsHugeDocuments = allowsHugeDocuments
        self.recovers = recovers
        self.encoding = encoding
        self.limits = limits
        self.chunkSize = chunkSize
        self.onWarning = onWarning
    }

    /// Reads `input` chunk by chunk, pushes each chunk into libxml2 and delivers the
    /// events to `receiver`; `progress` hears the bytes read after each chunk. Throws
    /// `.data` for a document that is not well-formed (or passes ``limits`` or
    /// libxml2's own),
    /// `.io` when reading fails, and whatever `receiver` throws.
    public func parse(
        _ input: any ByteSource, into receiver: any ParseEventReceiver,
        progress: ((Int) -> Void)? = nil
    ) throws {
        let session = try LibXML2PushParser(
            receiver: receiver, huge: allowsHugeDocuments, recovers: recovers,
            encoding: encoding, limits: limits, displayName: input.displayName)
        session.onWarning = onWarning
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)
        defer { buffer.deallocate() }
        var consumed = 0
        while true {
            let count = try input.read(into: buffer)
            consumed += count
            try session.parse(UnsafeRawBufferPointer(rebasing: buffer[..<count]), isFinal: count == 0)
                .mapError { $0.inFile(input.displayName) }.get()
            progress?(consumed)
            if count == 0 { return }
        }
    }

    /// A ``LibXML2PushParser`` delivering to `receiver`; throws when libxml2 cannot
    /// create its parser context.
    public func makePushParser(receiver: any ParseEventReceiver, displayName: String) throws -> any PushParser {
        let parser = try LibXML2PushParser(
            receiver: receiver, huge: allowsHugeDocuments, recovers: recovers,
            encoding: encoding, limits: limits, displayName: displayName)
        parser.onWarning = onWarning
        return parser
    }
}
