/// JSON, streamed: the JSON layer beside ``ExpatParser``, emitting the same events so
/// that one mapping and one set of handlers serve both formats.
///
/// The rule that maps JSON onto elements (``JSONTokenizer`` does the work):
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
    public var limits: ParseLimits
    public var chunkSize: Int

    public init(documentName: String, lines: Bool = false, limits: ParseLimits = .default,
                chunkSize: Int = defaultChunkSize) {
        self.documentName = documentName
        self.lines = lines
        self.limits = limits
        self.chunkSize = chunkSize
    }

    public func parse(_ input: InputFile, into receiver: any ParseEventReceiver,
                      progress: ((Int) -> Void)? = nil) throws {
        let tokenizer = makeTokenizer(receiver)
        do {
            var consumed = 0
            while true {
                let space = tokenizer.writableSpace(minimum: chunkSize)
                let count = try input.read(into: UnsafeMutableRawBufferPointer(rebasing: space[..<min(space.count, chunkSize)]))
                guard count > 0 else { break }
                consumed += count
                try tokenizer.commit(count)
                progress?(consumed)
            }
            try tokenizer.finish()
        } catch let error as IngestError {
            throw error.inFile(input.displayName)
        }
    }

    /// Parses a complete document held in memory (for tests and small inputs), in
    /// pieces of `chunkSize` bytes.
    public func parse(bytes: some Collection<UInt8>, into receiver: any ParseEventReceiver,
                      displayName: String = "<memory>") throws {
        let tokenizer = makeTokenizer(receiver)
        let bytes = Array(bytes)
        do {
            try bytes.withUnsafeBytes { raw in
                var offset = 0
                while offset < raw.count {
                    let count = min(chunkSize, raw.count - offset)
                    try tokenizer.feed(UnsafeRawBufferPointer(rebasing: raw[offset..<offset + count]))
                    offset += count
                }
            }
            try tokenizer.finish()
        } catch let error as IngestError {
            throw error.inFile(displayName)
        }
    }

    private func makeTokenizer(_ receiver: any ParseEventReceiver) -> JSONTokenizer {
        JSONTokenizer(receiver: receiver, documentName: documentName, lines: lines, limits: limits,
                      bufferSize: chunkSize)
    }
}
