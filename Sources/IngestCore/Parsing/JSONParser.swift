/// JSON, streamed: the JSON layer beside IngestParsers' `ExpatParser`, emitting the same events so
/// that one mapping and one set of handlers serve both formats.
///
/// The rule that maps JSON onto elements (``JSONPushParser`` does the work):
///
/// | JSON | events |
/// | --- | --- |
/// | the top-level value | the document element, named `documentName` (ingest uses the input's name: `folks` for `folks.json`) |
/// | an object member `"key": value` | a child element named `key` (any key, even `""`) |
/// | an array item | a child element named `item` |
/// | a string | text (decoded), kind ``ContentKind/string`` |
/// | a number | text exactly as written, kind ``ContentKind/number`` |
/// | `true`, `false` | text `true`/`false`, kind ``ContentKind/boolean`` |
/// | `null` | no text, kind ``ContentKind/null`` |
///
/// So `{"people":[{"firstName":"Matt"}]}` reads like
/// `<folks><people><item><firstName>Matt</firstName></item></people></folks>`, and
/// `--records people/item` (ijson's `people.item`) selects the people.
///
/// With ``lines``, the input is a sequence of values — JSON Lines, NDJSON or
/// concatenated documents — read as one top-level array of them.
public struct JSONParser: StreamingParser {
    /// The name of the document element.
    public var documentName: String
    /// Read a sequence of values rather than one document.
    public var lines: Bool
    /// Bounds on the document: nesting depth and the bytes of one string or number
    /// (``ParseLimits/maxDepth``, ``ParseLimits/maxTextBytes``).
    public var limits: ParseLimits
    /// The bytes read from the input per call; the buffer grows beyond it only for a
    /// token cut by a chunk's end. Default: ``defaultChunkSize`` (256 KiB).
    public var chunkSize: Int
    /// With ``lines``: the part of a file the input is, read from the part's start
    /// up to its end, whose ``FilePiece/end`` and ``FilePiece/lineEnds``
    /// the parse notes; `nil`: the input is read whole.
    public var piece: FilePiece?

    /// A JSON parser whose top-level value is the element `documentName`; with
    /// `lines`, the input is a sequence of values.
    public init(
        documentName: String, lines: Bool = false, limits: ParseLimits = .default,
        chunkSize: Int = defaultChunkSize
    ) {
        self.documentName = documentName
        self.lines = lines
        self.limits = limits
        self.chunkSize = chunkSize
    }

    /// Reads `input` chunk by chunk straight into the push parser's buffer and
    /// delivers its events to `receiver`; `progress` hears the bytes read after each
    /// chunk. Throws `.data` with the position for malformed JSON or a passed limit,
    /// `.io` when reading fails, and whatever `receiver` throws.
    public func parse(
        _ input: any ByteSource, into receiver: any ParseEventReceiver,
        progress: ((Int) -> Void)? = nil
    ) throws {
        // Reads straight into the push parser's buffer: no copy between the two.
        let parser = makeJSONPushParser(receiver: receiver, displayName: input.displayName)
        var consumed = 0
        while true {
            let space = parser.writableSpace(minimum: chunkSize)
            let count = try input.read(
                into: UnsafeMutableRawBufferPointer(rebasing: space[..<min(space.count, chunkSize)]))
            guard count > 0 else { break }
            consumed += count
            try parser.commit(count)
            progress?(consumed)
            if parser.stoppedAtLineEnd { break }
        }
        try parser.finish()
        piece?.end = parser.consumed
        piece?.lineEnds = parser.lineEnds
    }

    /// A ``JSONPushParser`` with this parser's settings, delivering to `receiver`.
    public func makePushParser(receiver: any ParseEventReceiver, displayName: String) -> any PushParser {
        makeJSONPushParser(receiver: receiver, displayName: displayName)
    }

    private func makeJSONPushParser(receiver: any ParseEventReceiver, displayName: String) -> JSONPushParser {
        JSONPushParser(
            receiver: receiver, documentName: documentName, lines: lines, limits: limits,
            bufferSize: chunkSize, displayName: displayName, startOffset: piece?.start ?? 0,
            stopsAtLineEndFrom: piece?.endsNear)
    }
}
