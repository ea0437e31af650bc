import IngestCore

/// An XML element of a feed's structure: `<rss>`, `<channel>`, `<item>`, `<feed>`,
/// `<entry>`, and the small groups inside them (an image, a person, a skip list).
/// Such an element holds fields rather than text, so it reads no text of its own,
/// and it tells the session where it starts and ends, so that an `xml:base` it sets
/// applies inside it alone.
///
/// The skeleton the RSS and Atom handlers share. A handler that does more when its
/// element starts or ends (resets what it builds, hands an item on) implements
/// `didStart(_:)` or `didEnd(_:)` itself and calls the session's `enter(_:)` or
/// `leave(depth:)` there.
protocol FeedSectionHandler: ElementHandler {
    /// The parse this handler belongs to.
    var session: FeedParseSession { get }
}

extension FeedSectionHandler {
    /// `false`: a section's text is in its fields, which read it themselves.
    var accumulatesText: Bool { false }

    /// The element's `xml:base`, if any, applies inside it.
    func didStart(_ element: ElementStart) throws { try session.enter(element) }

    /// A base the element set goes out of scope.
    func didEnd(_ element: ElementEnd) { session.leave(depth: element.depth) }
}

/// `<channel>` or `<feed>`: the section that holds the feed's own elements. Its
/// extension elements go to ``extensionHandler``, its children in the format's own
/// namespace to ``handler(forFeedChild:term:)``, and the rest are skipped.
protocol FeedLevelHandler: FeedSectionHandler {
    /// Reads the extension elements of the feed level.
    var extensionHandler: ExtensionHandler { get }
    /// The handler for `element`, a child in the format's own namespace, or `nil` to skip it.
    func handler(forFeedChild element: ElementStart, term: FeedTerm) throws -> (any ElementHandler)?
}

extension FeedLevelHandler {
    func handler(forChild element: ElementStart) throws -> (any ElementHandler)? {
        let term = session.vocabulary.term(element.name)
        switch term.space {
        case .extension: return extensionHandler
        case .core: return try handler(forFeedChild: element, term: term)
        case .content, .ignored: return nil
        }
    }
}
