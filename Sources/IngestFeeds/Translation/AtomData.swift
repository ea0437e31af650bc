/// An Atom text construct's value, decoded by its `type` (and Atom 0.3's `mode`).
struct AtomText {
    var value: String
    var type: FeedText.TextType
}

/// An Atom feed's own elements as its handlers read them, before gofeed's rules
/// make a ``Feed`` of them.
struct AtomFeedData {
    var version = ""
    var language: String?
    var title: AtomText?
    var subtitle: AtomText?
    var updated: String?
    var links: [Link] = []
    var generator: (value: String?, version: String?, uri: String?)?
    var icon: String?
    var logo: String?
    var rights: String?
    var authors: [Person] = []
    var categories: [(term: String?, label: String?)] = []
    var extensions: Extensions = [:]
}

/// An Atom entry as its handlers read it.
struct AtomEntryData: FeedEntryData {
    var title: AtomText?
    var summary: AtomText?
    var content: AtomText?
    var id: String?
    var updated: String?
    var published: String?
    var links: [Link] = []
    var authors: [Person] = []
    var categories: [(term: String?, label: String?)] = []
    var extensions: Extensions = [:]

    func deliver(to session: FeedParseSession) throws { try session.emit(self) }
}
