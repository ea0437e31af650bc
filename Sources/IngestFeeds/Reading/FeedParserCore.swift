import Foundation
import IngestCore
import IngestParsers

/// One read of one feed document, fed bytes as they come: sniffs XML from JSON,
/// picks the parser, and runs the handler stack. ``FeedReader``, ``FeedItems`` and
/// ``FeedPushParser`` are drivers around it.
final class FeedParserCore {
    /// How XML is read.
    enum XMLMode {
        /// Expat: fast and strict.
        case strict
        /// libxml2's recovering mode, after ``XMLRepairFilter``.
        case recovering
    }

    let options: FeedReader.Options
    let xmlMode: XMLMode
    let displayName: String
    let session: FeedParseSession
    private let stack: HandlerStack
    private var parser: (any PushParser)?
    private var recoveringParser: LibXML2PushParser?
    private var recoveringReceiver: RecoveringReceiver?
    private var repair: XMLRepairFilter?
    private var repaired: [UInt8] = []
    /// Holds the bytes seen until the syntax can be told.
    private var sniffer: FeedSniffer
    private(set) var syntax: FeedSniffer.Syntax?
    /// Bytes pushed so far.
    private(set) var consumed = 0

    /// Expat's error, when this read is the recovering one after it.
    private let priorError: IngestError?
    /// The recovering read's decoder of a legacy encoding, and its output.
    private var decoder: ReplacingDecoder?
    private var decoded: [UInt8] = []
    /// Whether the recovering read met bytes its encoding does not define (and read
    /// them as U+FFFD).
    private var replacedBytes: Bool { (decoder?.replacements ?? 0) > 0 }

    init(
        options: FeedReader.Options, xmlMode: XMLMode, skipping: Int = 0, priorError: IngestError? = nil,
        displayName: String, deliver: @escaping (FeedItem, Feed) throws -> Void
    ) {
        self.options = options
        self.priorError = priorError
        self.xmlMode = xmlMode
        self.displayName = displayName
        sniffer = FeedSniffer(maxWhiteSpace: options.limits.maxTextBytes)
        session = FeedParseSession(options: options, skipping: skipping, deliver: deliver)
        stack = HandlerStack(root: FeedRootHandler(session: session), limits: options.limits)
    }

    /// Items delivered or skipped so far.
    var itemCount: Int { session.itemCount }

    /// Whether `error`, which stopped this read, came from the XML parser (the
    /// document is not well-formed, or its encoding unreadable), so that a
    /// recovering read may succeed where this one failed. A token past
    /// ``IngestCore/ParseLimits`` would stop that read too, and a document refused
    /// for a limit (entity amplification, nesting, a parser's own bound) is not one
    /// to read in part: those are errors, never a "recovered" feed.
    func mayRecover(from error: IngestError) -> Bool {
        switch error.reason?.code {
        case .textLimit?, .depthLimit?, .libxml2Limit?, .entityAmplification?: return false
        default: break
        }
        return error.kind == .data && session.handlerError == nil && session.deliveryError == nil && syntax == .xml
            && xmlMode == .strict
    }

    /// Parses the next bytes of the document.
    func push(_ bytes: UnsafeRawBufferPointer) throws {
        consumed += bytes.count
        try run {
            if let parser {
                try send(parser, bytes, final: false)
                return
            }
            try start(adding: bytes, final: false)
        }
    }

    /// The document has ended: finishes it and returns the feed (without items).
    func finish() throws -> Feed {
        try run {
            if parser == nil { try start(adding: UnsafeRawBufferPointer(start: nil, count: 0), final: true) }
            guard let parser else {
                throw IngestError(
                    .data, consumed == 0 ? "empty input: not a feed" : "only white space: not a feed",
                    file: displayName)
            }
            if repair != nil { try send(parser, UnsafeRawBufferPointer(start: nil, count: 0), final: true) }
            do {
                try parser.finish()
            } catch var error as IngestError
                where xmlMode == .strict && syntax == .xml && error.kind == .data
                && error.reason == nil && session.handlerError == nil
            {
                // Expat's words at the end ("no element found", "unclosed token") mean
                // one thing: the bytes stopped before the document did (a body cut short).
                error.message = "the input ends inside the document (\(error.message))"
                throw error
            }
            try recoveringReceiver?.closeOpenElements(at: SourcePosition(line: 0, column: 0, byteOffset: consumed))
        }
        guard session.format != nil else {
            // Read again in recovering mode and still nothing: what stopped the strict
            // read (an unreadable encoding, the first syntax error) says why, and where.
            if var priorError {
                if priorError.file == nil { priorError.file = displayName }
                priorError.message = "not a feed: \(priorError.message)"
                throw priorError
            }
            throw IngestError(.data, "not a feed: the document has no document element", file: displayName)
        }
        var feed = session.header
        if let error = firstError {
            feed.wellFormed = false
            feed.firstError = error
        }
        return feed
    }

    /// The first thing wrong with a document read in recovering mode: Expat's error
    /// (unless it was only about the encoding, which libxml2 may read), else the
    /// earlier of the first repair and libxml2's first error.
    private var firstError: FeedParseError? {
        if let priorError, !priorError.message.contains("encoding") || replacedBytes {
            return FeedParseError(
                message: priorError.message, line: priorError.position?.line ?? 0,
                column: priorError.position?.column ?? 0)
        }
        let recovered = recoveringParser?.firstRecoveredError.map {
            FeedParseError(message: $0.message, line: $0.position?.line ?? 0, column: $0.position?.column ?? 0)
        }
        switch (repair?.firstRepair, recovered) {
        case let (repaired?, recovered?):
            return (repaired.line, repaired.column) <= (recovered.line, recovered.column) ? repaired : recovered
        case let (repaired, recovered):
            guard repaired == nil, recovered == nil, replacedBytes else { return repaired ?? recovered }
            return FeedParseError(
                message: "bytes the declared encoding does not define, read as U+FFFD", line: 0, column: 0)
        }
    }

    /// Runs `body`, rethrowing the caller's own error from an item closure as it
    /// was thrown rather than as the parser reported it.
    private func run(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch {
            if let delivery = session.deliveryError { throw delivery }
            throw error
        }
    }

    /// Creates the parser once the syntax can be told, and feeds it what came so far.
    private func start(adding bytes: UnsafeRawBufferPointer, final: Bool) throws {
        let verdict: FeedSniffer.Verdict?
        do {
            verdict = try sniffer.add(bytes, final: final)
        } catch let error as IngestError {
            throw error.inFile(displayName)
        }
        guard let verdict else { return }
        var pending = sniffer.pending
        sniffer = FeedSniffer(maxWhiteSpace: 0)
        syntax = verdict.syntax
        let parser: any PushParser
        if case .xml = verdict.syntax, let spaces = verdict.whiteSpaceBeforeDeclaration {
            pending.removeSubrange(spaces)
        }
        // RFC 7303: a byte order mark says the encoding, whatever the charset says.
        var charset = verdict.hasByteOrderMark ? nil : options.charset.flatMap(Self.cleanCharset)
        if case .xml = verdict.syntax, !verdict.hasByteOrderMark,
            let label = charset ?? XMLDeclaration.encoding(in: pending), WHATWGEncoding.isLatin1OrASCII(label)
        {
            // As browsers and feedparser read them: ISO-8859-1 and US-ASCII are
            // windows-1252, whose printable 0x80–0x9F (curly quotes, dashes, €) are
            // what such feeds mean by those bytes.
            charset = "windows-1252"
        }
        switch verdict.syntax {
        case .json:
            parser = JSONPushParser(
                receiver: stack, documentName: "feed", limits: options.limits,
                bufferSize: options.chunkSize, displayName: displayName)
            if verdict.hasByteOrderMark { pending.removeFirst(3) }
        case .xml:
            switch xmlMode {
            case .strict:
                let expat = ExpatPushParser(
                    receiver: stack, encoding: charset, limits: options.limits, displayName: displayName)
                expat.onWarning = options.onWarning
                parser = expat
            case .recovering:
                let recovering = RecoveringReceiver(forwardingTo: stack)
                // A legacy encoding is decoded here, as a browser decodes it: a byte
                // it does not define becomes U+FFFD and the feed is marked not
                // well-formed, where the parser would stop.
                let label = verdict.hasByteOrderMark ? nil : charset ?? XMLDeclaration.encoding(in: pending)
                decoder = label.flatMap(ReplacingDecoder.init(label:))
                let libxml2 = try LibXML2PushParser(
                    receiver: recovering, recovers: true, encoding: decoder == nil ? charset : "UTF-8",
                    limits: options.limits, displayName: displayName)
                libxml2.onWarning = options.onWarning
                recoveringReceiver = recovering
                recoveringParser = libxml2
                repair = XMLRepairFilter(maxTokenBytes: options.limits.maxTextBytes)
                parser = libxml2
            }
        case .other(let byte):
            throw IngestError(
                .data, "not a feed: it starts with \(Self.describe(byte)), neither XML (<) nor JSON ({)",
                file: displayName, position: .start)
        }
        self.parser = parser
        try pending.withUnsafeBytes { try send(parser, $0, final: false) }
    }

    private func send(_ parser: any PushParser, _ bytes: UnsafeRawBufferPointer, final: Bool) throws {
        if let decoder {
            decoded.removeAll(keepingCapacity: true)
            decoder.decode(bytes, into: &decoded)
            if final { decoder.finish(into: &decoded) }
            let utf8 = decoded
            return try utf8.withUnsafeBytes { try sendDecoded(parser, $0, final: final) }
        }
        try sendDecoded(parser, bytes, final: final)
    }

    private func sendDecoded(_ parser: any PushParser, _ bytes: UnsafeRawBufferPointer, final: Bool) throws {
        guard repair != nil else {
            try parser.feed(bytes)
            return
        }
        repaired.removeAll(keepingCapacity: true)
        do {
            // In place: a copy of the filter would copy the tag it holds at every chunk.
            try repair!.repair(bytes, final: final, into: &repaired)
        } catch let error as IngestError {
            throw error.inFile(displayName)
        }
        try repaired.withUnsafeBytes { try parser.feed($0) }
    }

    /// A charset parameter as iconv and libxml2 want it: unquoted, trimmed.
    private static func cleanCharset(_ charset: String) -> String? {
        let trimmed = charset.trimmingASCIIWhiteSpace().trimmingCharacters(in: ["\"", "'"])
        return trimmed.isEmpty ? nil : trimmed
    }

    private static func describe(_ byte: UInt8) -> String {
        byte >= 0x20 && byte < 0x7F
            ? "\"\(Character(Unicode.Scalar(byte)))\"" : "the byte 0x\(String(byte, radix: 16, uppercase: true))"
    }
}
