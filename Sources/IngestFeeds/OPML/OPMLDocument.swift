import Foundation
import IngestCore

/// A subscription list in OPML 1.0 or 2.0, as feed readers import and export it.
///
/// ```swift
/// let list = try OPMLDocument(contentsOf: URL(fileURLWithPath: "subscriptions.opml"))
/// for subscription in list.subscriptions {
///     print(subscription.url, subscription.categories)
/// }
/// let exported = OPMLDocument(title: "My feeds", subscriptions: list.subscriptions).xml
/// ```
///
/// Reading keeps only what a subscription list says: the feeds and the folders they
/// are in. Folders are categories (``OPMLSubscription/categories``), and
/// ``xml`` writes them back as folders.
public struct OPMLDocument: Sendable, Hashable {
    /// The document's `<head><title>`.
    public var title: String?
    /// Every feed outline (one with an `xmlUrl`), in document order, each URL once (the first kept, its categories merged with later ones').
    public var subscriptions: [OPMLSubscription]

    /// A document with `title` listing `subscriptions`.
    public init(title: String? = nil, subscriptions: [OPMLSubscription] = []) {
        self.title = title
        self.subscriptions = subscriptions
    }

    /// Reads OPML leniently: OPML 1.0 and 2.0, attribute names in any case (`xmlUrl`, `xmlurl`, `XMLURL`), HTML named entities (`&nbsp;`, `&eacute;`) without a DTD, a missing `</body>` or a bare `&` (ill-formed XML is read again in libxml2's recovering mode, as the feed reader does — see how `FeedParserCore`/`FeedReader` fall back to `LibXML2PushParser(recovers: true)`), outlines nested to any depth (bounded by the parser limits), outlines without `xmlUrl` being folders.
    ///
    /// The document is read strictly (Expat) first; ill-formed XML is read again after
    /// ``FeedReader``'s repair of the bytes, in libxml2's recovering mode. Nesting
    /// deeper than ``/IngestCore/ParseLimits/maxDepth`` (1000) levels, and any other
    /// limit a parser refuses the document for, is an error, never a partial list.
    /// An outline whose `xmlUrl` is empty or only white space is a folder. No
    /// external entity or DTD is ever loaded.
    /// - Throws: `IngestError` (`.data`) when the document is not OPML at all (no `<opml>` root) or not XML even when recovering.
    public init(data: Data) throws {
        self = try OPMLReader(displayName: "<data>").read(data)
    }

    /// Reads the OPML file at `url` (a file URL: the library never fetches), as
    /// ``init(data:)`` does.
    /// - Throws: `IngestError`: `.usage` for a URL that is not a file URL, `.input`
    ///   when the file cannot be read, `.data` as for ``init(data:)``.
    public init(contentsOf url: URL) throws {
        let path = try FeedReader.filePath(url)
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw IngestError(.input, "cannot read the file: \(error.localizedDescription)", file: path)
        }
        self = try OPMLReader(displayName: path).read(data)
    }

    /// The document as OPML 2.0 text (UTF-8, `<?xml version="1.0" encoding="UTF-8"?>`), subscriptions nested in folder outlines by their first category's path, every other category in the outline's `category` attribute, so that reading it back gives the same subscriptions and categories.
    ///
    /// Subscriptions keep their order: consecutive ones in the same folder share its
    /// outline, and a folder met again later is opened again. A subscription without
    /// a title has an empty `text`, so that it reads back without one. What cannot
    /// come back as it was: a category holding a comma (other than the first, which
    /// is the folder path), empty path components (`News//Tech`), an empty title (it
    /// reads back as none) and white space around a URL (trimmed).
    public var xml: String { OPMLWriter.write(self) }
}

/// One feed of a subscription list.
public struct OPMLSubscription: Sendable, Hashable {
    /// The feed's address: the outline's `xmlUrl`, trimmed.
    public var url: String
    /// The outline's `title`, else its `text`.
    ///
    /// An empty attribute counts as absent.
    public var title: String?
    /// The site: `htmlUrl`.
    ///
    /// Trimmed; an empty attribute counts as absent.
    public var siteURL: String?
    /// Categories as slash-separated paths without a leading slash (`News/Tech`): the path of the folder outlines (their `title`, else `text`) it is nested in, and each of its `category` attribute's comma-separated entries; no duplicates, in that order.
    ///
    /// A folder without a name adds nothing to the path; `category` entries are
    /// trimmed, their leading and trailing slashes dropped, and empty ones skipped.
    public var categories: [String]

    /// A subscription to the feed at `url`.
    public init(url: String, title: String? = nil, siteURL: String? = nil, categories: [String] = []) {
        self.url = url
        self.title = title
        self.siteURL = siteURL
        self.categories = categories
    }
}
