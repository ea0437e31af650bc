import Foundation
import IngestCore
import IngestParsers

/// Reads feeds item by item, in flat memory: each item is handed over as soon as
/// its element ends, with the feed-level fields read so far.
///
/// ```swift
/// let reader = FeedReader()
/// let feed = try reader.read(contentsOf: URL(fileURLWithPath: "big.rss")) { item, feed in
///     print(feed.title?.plainText ?? "", "—", item.title?.plainText ?? "")
/// }
/// print(feed.format, feed.wellFormed)   // the whole feed, without items
/// ```
///
/// The format is told from the content: RSS 0.90–2.0, RSS 1.0, Atom 0.3 and 1.0,
/// JSON Feed 1.0 and 1.1. XML is read by Expat; a document that is not well-formed
/// (undeclared prefixes, a bare `&`, a missing end tag) is read again with
/// libxml2's recovering mode — reopened, or replayed from a copy kept on disk as it
/// was read when it cannot be reopened; items already handed over are not handed
/// over twice — and the feed is marked ``Feed/wellFormed`` `false`. A document
/// refused for a limit (``/IngestCore/ParseLimits``, entity amplification, one of
/// libxml2's own) is an error, never read in part. Relative links are resolved against xml:base and ``Options/baseURL``.
///
/// For an `async` loop, ``items(contentsOf:)`` and ``items(from:reopen:)``; for
/// bytes as they arrive, ``FeedPushParser``.
public struct FeedReader: Sendable {
    /// How a reader reads.
    public struct Options: Sendable {
        /// The feed's own URL, against which relative links resolve (RFC 3986)
        /// when no xml:base says otherwise. The library never fetches it.
        public var baseURL: URL?
        /// The charset an HTTP `Content-Type` gave (`text/xml; charset=…`): for XML
        /// it overrides the document's declaration, as RFC 7303 says, unless the
        /// document starts with a byte order mark. JSON is always UTF-8.
        public var charset: String?
        /// What to do with XML that is not well-formed; default ``Recovery/fallback``.
        public var recovery: Recovery
        /// Nesting depth and text size bounds (see ``/IngestCore/ParseLimits``).
        public var limits: ParseLimits
        /// Bytes read at a time.
        public var chunkSize: Int
        /// Whether an item without an explicit image takes the first `<img>` of its
        /// content or description, as gofeed does (it costs a scan of the HTML).
        public var scansContentForImages: Bool
        /// Hears what the XML parser read past rather than refused — an entity
        /// reference kept as written (see ``/IngestParsers/ParseWarning``); `nil`: nobody.
        public var onWarning: ParseWarningHandler?

        /// Options; the defaults read any feed from a file or from memory.
        public init(
            baseURL: URL? = nil, charset: String? = nil, recovery: Recovery = .fallback,
            limits: ParseLimits = .default, chunkSize: Int = defaultChunkSize,
            scansContentForImages: Bool = true, onWarning: ParseWarningHandler? = nil
        ) {
            self.onWarning = onWarning
            self.baseURL = baseURL
            self.charset = charset
            self.recovery = recovery
            self.limits = limits
            self.chunkSize = chunkSize
            self.scansContentForImages = scansContentForImages
        }
    }

    /// What to do with XML that is not well-formed.
    public enum Recovery: Sendable {
        /// Read with Expat; if the document is not well-formed, read it again with
        /// libxml2's recovering mode — reopening the input (files, data, a `reopen`
        /// closure), or replaying the copy of it kept on disk as it was read.
        case fallback
        /// Read with Expat and fail on the first well-formedness error.
        case never
        /// Read with libxml2's recovering mode from the start (for bytes that cannot
        /// be read twice).
        case always
    }

    /// How this reader reads.
    public var options: Options

    /// A reader with `options`.
    public init(options: Options = Options()) {
        self.options = options
    }

    // MARK: - Reading with a closure

    /// Reads the feed in the file at `url`, calling `body` with each item and the
    /// feed as read so far; returns the whole feed without its items.
    @discardableResult
    public func read(contentsOf url: URL, _ body: (FeedItem, Feed) throws -> Void) throws -> Feed {
        let path = try Self.filePath(url)
        return try read(InputFile(path: path), reopen: { try InputFile(path: path) }, body)
    }

    /// Reads a feed held in memory.
    @discardableResult
    public func read(data: Data, _ body: (FeedItem, Feed) throws -> Void) throws -> Feed {
        try read(BytesSource(data), reopen: { BytesSource(data) }, body)
    }

    /// Reads a feed from any ``/IngestCore/ByteSource`` (a socket, a decompressor…).
    /// `reopen`, when given, opens the same bytes again from their start: the
    /// reader then falls back to libxml2's recovering mode for ill-formed XML.
    /// Without it, under ``Recovery/fallback``, the bytes are copied as they are
    /// read to an unlinked temporary file (``/IngestParsers/SpoolingSource``), which
    /// the recovering read replays.
    @discardableResult
    public func read(
        _ source: any ByteSource, reopen: (() throws -> any ByteSource)? = nil,
        _ body: (FeedItem, Feed) throws -> Void
    ) throws -> Feed {
        if reopen == nil && options.recovery == .fallback {
            let spool = try SpoolingSource(source)
            return try read(spool, reopen: { try spool.replay() }, body)
        }
        return try withoutActuallyEscaping(body) { deliver in
            let first = FeedParserCore(
                options: options, xmlMode: options.recovery == .always ? .recovering : .strict,
                displayName: source.displayName, deliver: deliver)
            do {
                return try pump(source, into: first)
            } catch let error as IngestError
                where first.mayRecover(from: error) && options.recovery == .fallback && reopen != nil
            {
                let again = try reopen!()
                let second = FeedParserCore(
                    options: options, xmlMode: .recovering, skipping: first.itemCount,
                    priorError: error, displayName: source.displayName, deliver: deliver)
                return try pump(again, into: second)
            }
        }
    }

    private func pump(_ source: any ByteSource, into core: FeedParserCore) throws -> Feed {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(options.chunkSize, 64), alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = try source.read(into: buffer)
            if count == 0 { return try core.finish() }
            try core.push(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
        }
    }

    // MARK: - Reading as an async sequence

    /// The items of the feed in the file at `url`, as an `AsyncSequence` of
    /// `(item, feed)` pairs, read as the loop asks for them.
    public func items(contentsOf url: URL) -> FeedItems {
        FeedItems(
            reader: self,
            open: {
                let path = try Self.filePath(url)
                return try InputFile(path: path)
            }, canReopen: true)
    }

    /// The items of a feed read from `source`; `reopen` as for
    /// ``read(_:reopen:_:)``.
    public func items(from source: any ByteSource, reopen: (() throws -> any ByteSource)? = nil) -> FeedItems {
        var first: (any ByteSource)? = source
        return FeedItems(
            reader: self,
            open: {
                if let source = first {
                    first = nil
                    return source
                }
                guard let reopen else {
                    throw IngestError(.input, "the input cannot be read twice", file: source.displayName)
                }
                return try reopen()
            }, canReopen: reopen != nil)
    }

    static func filePath(_ url: URL) throws -> String {
        guard url.isFileURL else {
            throw IngestError(
                .usage,
                "\(url.absoluteString): IngestFeeds reads files, data and byte sources; "
                    + "fetch the URL yourself (and pass it as FeedReader.Options.baseURL)")
        }
        return url.path
    }
}

/// Bytes held in memory, as a ``IngestCore/ByteSource``.
package final class BytesSource: ByteSource {
    private let data: Data
    private var offset = 0
    package let displayName: String

    package init(_ data: Data, displayName: String = "<data>") {
        self.data = data
        self.displayName = displayName
    }

    package func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let count = min(buffer.count, data.count - offset)
        guard count > 0 else { return 0 }
        data.withUnsafeBytes { bytes in
            buffer.baseAddress!.copyMemory(from: bytes.baseAddress! + offset, byteCount: count)
        }
        offset += count
        return count
    }
}
