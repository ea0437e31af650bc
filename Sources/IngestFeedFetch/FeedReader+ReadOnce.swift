import IngestCompression
import IngestCore
import IngestParsers
import IngestFeeds

extension FeedReader {
    /// Reads bytes that can be read only once (standard input, an HTTP body) as a
    /// file is read: strictly, as they come, and when the XML turns out not to be
    /// well-formed, again in libxml2's recovering mode from their start — from a
    /// copy the bytes left on disk as they passed (``/IngestParsers/SpoolingSource``),
    /// then the rest — the items already delivered not delivered again. The copy
    /// holds the bytes as they came, compressed or not; `decode` makes the parser's
    /// input of them (decompressing what is compressed, by default).
    ///
    /// - Returns: the feed, without its items: `deliver` had each.
    public func readOnce(
        _ raw: any ByteSource,
        decode: @escaping (any ByteSource) throws -> any ByteSource = { try $0.decompressingIfCompressed() },
        _ deliver: (FeedItem, Feed) throws -> Void
    ) throws -> Feed {
        let spool = try SpoolingSource(raw)
        return try read(decode(spool), reopen: { try decode(spool.replay()) }, deliver)
    }
}
