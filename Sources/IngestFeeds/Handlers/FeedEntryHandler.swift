import IngestCore

/// What an item-level element reads (``RSSItemData``, ``AtomEntryData``): empty when
/// the element starts, handed to the session when it ends.
protocol FeedEntryData {
    init()
    /// The entry's extension elements, by namespace prefix and name.
    var extensions: Extensions { get set }
    /// Translates the entry into an item and delivers it.
    func deliver(to session: FeedParseSession) throws
}

/// What differs between an RSS `<item>` and an Atom `<entry>`: which children are
/// read and where what they read goes. Extension elements never reach a format;
/// ``FeedEntryHandler`` reads them the same way for both.
protocol FeedEntryFormat: AnyObject {
    associatedtype Entry: FeedEntryData

    init(session: FeedParseSession)

    /// The handler for `element`, a child outside any extension namespace, or `nil`
    /// to skip it; a child read from its start tag alone is stored in `entry` here.
    func handler(forChild element: ElementStart, term: FeedTerm, entry: inout Entry) throws -> (any ElementHandler)?

    /// Stores what `child` (a handler this format returned) read in `entry`.
    func didFinish(child: any ElementHandler, element: ElementEnd, term: FeedTerm, entry: inout Entry) throws
}

/// An item-level element, `<item>` or `<entry>`: reset when it starts, its extension
/// elements kept by namespace, its own children read by `Format`, and handed to the
/// session — translated and delivered — as soon as it ends.
final class FeedEntryHandler<Format: FeedEntryFormat>: FeedSectionHandler {
    // Safety: the session outlives the handlers that hold it unowned (FeedParseSession
    // says why), and a handler's state is used by the parsing thread alone, with no
    // call out that could call back into it (IngestCore's UnsafeCode article).
    unowned(unsafe) let session: FeedParseSession
    private let format: Format
    private lazy var extensionHandler = ExtensionHandler(session: session)
    @exclusivity(unchecked) private var entry = Format.Entry()

    init(session: FeedParseSession) {
        self.session = session
        format = Format(session: session)
    }

    func didStart(_ element: ElementStart) throws {
        entry = Format.Entry()
        try session.enter(element)
    }

    func handler(forChild element: ElementStart) throws -> (any ElementHandler)? {
        let term = session.vocabulary.term(element.name)
        if term.space == .extension { return extensionHandler }
        return try format.handler(forChild: element, term: term, entry: &entry)
    }

    func didFinish(child: any ElementHandler, element: ElementEnd) throws {
        let term = session.vocabulary.term(element.name)
        if child === extensionHandler {
            entry.extensions.add(extensionHandler.result, key: session.vocabulary.extensionKey(term))
        } else {
            try format.didFinish(child: child, element: element, term: term, entry: &entry)
        }
    }

    func didEnd(_ element: ElementEnd) throws {
        session.leave(depth: element.depth)
        try entry.deliver(to: session)
    }
}
