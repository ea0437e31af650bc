import Foundation
import IngestCore

/// A feed read from bytes as they arrive — an HTTP body chunk by chunk — with each
/// item handed to a closure as soon as it ends.
///
/// ```swift
/// let parser = FeedPushParser(options: .init(baseURL: url, charset: "utf-8")) { item, feed in
///     archive(item, of: feed)
/// }
/// for chunk in body { try parser.feed(chunk) }
/// let feed = try parser.finish()
/// ```
///
/// Bytes pushed cannot be read a second time, so XML is read with libxml2's
/// recovering mode from the start unless ``FeedReader/Options/recovery`` is
/// ``FeedReader/Recovery/never`` (Expat, strict).
public final class FeedPushParser {
    private let core: FeedParserCore

    /// A parser that hands each item to `onItem`, with the feed read so far;
    /// `displayName` names the input in errors.
    public init(
        options: FeedReader.Options = FeedReader.Options(), displayName: String = "<feed>",
        onItem: @escaping (FeedItem, Feed) throws -> Void
    ) {
        core = FeedParserCore(
            options: options, xmlMode: options.recovery == .never ? .strict : .recovering,
            displayName: displayName, deliver: onItem)
    }

    /// Parses the next bytes; they may end anywhere (inside a tag, a token or a
    /// UTF-8 sequence), as with the core's ``/IngestCore/PushParser``s.
    public func feed(_ bytes: UnsafeRawBufferPointer) throws {
        try core.push(bytes)
    }

    /// Parses the next bytes (`Data`, `[UInt8]`…).
    public func feed(_ bytes: some ContiguousBytes) throws {
        try bytes.withUnsafeBytes { try core.push($0) }
    }

    /// The input has ended: returns the feed, without items.
    public func finish() throws -> Feed {
        try core.finish()
    }
}
