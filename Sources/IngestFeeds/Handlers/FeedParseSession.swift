import IngestCore

/// The state of one read of one feed document, shared by its handlers: the
/// format, the names' meanings, the xml:base in scope, the feed-level data read so
/// far, and where finished items go.
///
/// Handlers hold it `unowned(unsafe)`: ``FeedParserCore`` owns both the session
/// and the handler stack, and handlers run only while it parses — so no reference
/// counting on each of the many accesses per element.
final class FeedParseSession {
    let options: FeedReader.Options
    let vocabulary = FeedVocabulary()
    private(set) var format: FeedFormat?

    /// Receives each item as it ends, with the feed as read so far.
    private let deliver: (FeedItem, Feed) throws -> Void
    // Safety: one thread, no reentrance: a session and its handlers are used by the
    // thread that parses, and `deliver` — the one call out — gets values, not the session.
    /// Items already delivered by an earlier, failed read of the same document:
    /// skipped when this read reaches them again.
    @exclusivity(unchecked) private var skipping: Int
    /// Items handed to ``deliver`` (skipped ones included).
    @exclusivity(unchecked) private(set) var itemCount = 0

    /// An error one of the feed handlers raised (not a parser error): no fallback.
    var handlerError: (any Error)?
    /// An error the caller's item closure threw: rethrown as it is.
    var deliveryError: (any Error)?

    // Feed-level data, by format.
    @exclusivity(unchecked) var rssChannel = RSSChannelData()
    @exclusivity(unchecked) var atomFeed = AtomFeedData()
    @exclusivity(unchecked) var jsonFeed = JSONFeedData()
    /// JSON Feed items read before the `version` member said the document is one.
    private var pendingJSONItems: [JSONFeedItemData] = []

    private var rssTranslator: RSSTranslator
    private let atomTranslator = AtomTranslator()
    private let jsonTranslator = JSONFeedTranslator()

    /// Bumped whenever feed-level data changes, so ``header`` is rebuilt only then.
    @exclusivity(unchecked) private var revision = 0
    private var cachedHeader: (revision: Int, feed: Feed)?

    init(options: FeedReader.Options, skipping: Int = 0, deliver: @escaping (FeedItem, Feed) throws -> Void) {
        self.options = options
        self.skipping = skipping
        self.deliver = deliver
        var translator = RSSTranslator()
        translator.scansContentForImages = options.scansContentForImages
        rssTranslator = translator
        if let base = options.baseURL, case let reference = URIReference(base.absoluteString), reference.isAbsolute {
            bases.append((0, reference))
        }
    }

    // MARK: - Format

    func begin(_ format: FeedFormat) {
        self.format = format
        vocabulary.family = format.family
        changed()
    }

    /// RSS 1.0 and 0.90 tell their version by the namespace of their elements.
    func setRSSVersion(_ version: String) {
        guard rssChannel.version.isEmpty else { return }
        rssChannel.version = version
        format?.version = version
        changed()
    }

    /// A JSON Feed's `version` member was read.
    func setJSONVersion(_ version: String) {
        format?.version = version
        changed()
    }

    /// Feed-level data changed.
    @inline(__always) func changed() { revision &+= 1 }

    // MARK: - xml:base

    /// The bases in scope: (depth of the element that set it, base), innermost last.
    @exclusivity(unchecked) private(set) var bases: [(depth: Int, base: URIReference)] = []

    var base: URIReference? { bases.last?.base }

    /// An element starts: its `xml:base`, if any, applies inside it. A relative one
    /// is resolved against the base in scope within the document's bound on what
    /// resolving adds, since nested relative bases each repeat the one around them;
    /// beyond it, throws (`.data`).
    @inline(__always)
    func enter(_ element: ElementStart) throws {
        guard !element.attributes.isEmpty else { return }
        for attribute in element.attributes
        where attribute.name.local == "base"
            && attribute.name.namespaceURI == FeedNamespaces.xml
        {
            let value = attribute.string.trimmingASCIIWhiteSpace()
            let resolved = try base.map { URIReference(try resolve(value, against: $0)) } ?? URIReference(value)
            if resolved.isAbsolute { bases.append((element.depth, resolved)) }
        }
    }

    /// An element ends: a base it set goes out of scope.
    @inline(__always)
    func leave(depth: Int) {
        if let last = bases.last, last.depth == depth, depth > 0 { bases.removeLast() }
    }

    /// `reference` resolved against the base in scope (RFC 3986); unchanged without one.
    func resolve(_ reference: String) throws -> String {
        try resolve(reference, against: base)
    }

    /// `reference`, an attribute of `element`, resolved against the base in scope
    /// inside that element (its own xml:base included).
    func resolve(_ reference: String, inside element: ElementStart) throws -> String {
        try enter(element)
        defer { leave(depth: element.depth) }
        return try resolve(reference)
    }

    /// HTML with its relative links resolved against the base in scope.
    func resolveLinks(inHTML html: String) throws -> String {
        try resolveLinks(inHTML: html, against: base)
    }

    // MARK: - Links, bounded

    /// How much resolving links may add to the values it rewrites: this many times
    /// their bytes, plus ``linkGrowthAllowance`` for the whole document.
    static let linkGrowthFactor = 8
    /// What resolving links may add to a document beyond ``linkGrowthFactor`` times
    /// the values it rewrites.
    static let linkGrowthAllowance = 4 << 20
    /// The bytes of the values links were resolved in, and what resolving added.
    @exclusivity(unchecked) private var resolvedBytes = 0
    @exclusivity(unchecked) private var linkGrowth = 0

    /// `reference` resolved against `base` (RFC 3986); unchanged without one.
    func resolve(_ reference: String, against base: URIReference?) throws -> String {
        guard let base, !reference.isEmpty else { return reference }
        let limit = try outputLimit(resolving: reference)
        return try bounded(
            reference, URIReference.resolve(reference.trimmingASCIIWhiteSpace(), against: base), limit: limit)
    }

    /// HTML with its relative links resolved against `base`; unchanged without one.
    func resolveLinks(inHTML html: String, against base: URIReference?) throws -> String {
        guard let base else { return html }
        let limit = try outputLimit(resolving: html)
        return try bounded(html, HTMLLinks.resolvingLinks(in: html, against: base, limit: limit), limit: limit)
    }

    /// The longest that `original` may become once resolved, counting it among the
    /// values resolved: many short relative links resolved against a long base (a
    /// long `xml:base`, a long address after a redirect) would otherwise turn a
    /// small feed into gigabytes.
    private func outputLimit(resolving original: String) throws -> Int {
        let (total, overflow) = resolvedBytes.addingReportingOverflow(original.utf8.count)
        guard !overflow else { throw amplification() }
        resolvedBytes = total
        let allowed = total.multipliedReportingOverflow(by: Self.linkGrowthFactor)
        guard !allowed.overflow else { return .max }
        return original.utf8.count + max(0, allowed.partialValue + Self.linkGrowthAllowance - linkGrowth)
    }

    /// `resolved` (`nil`: it would have been longer than `limit`), once what
    /// resolving `original` added is within the document's bound; beyond it the
    /// read fails (`.data`).
    private func bounded(_ original: String, _ resolved: String?, limit: Int) throws -> String {
        guard let resolved, resolved.utf8.count <= limit else { throw amplification() }
        linkGrowth += max(0, resolved.utf8.count - original.utf8.count)
        return resolved
    }

    private func amplification() -> IngestError {
        let error = IngestError(
            .data,
            "resolving relative links against the base (xml:base, or the feed's address) "
                + "would add more than \(Self.linkGrowthFactor) times the bytes of the values holding them, plus 4 MiB: "
                + "refused as an amplification")
        handlerError = error
        return error
    }

    // MARK: - Items

    func emit(_ data: RSSItemData) throws {
        refreshAtomKeys()
        try deliverItem { rssTranslator.item(data) }
    }

    func emit(_ data: AtomEntryData) throws {
        try deliverItem { atomTranslator.item(data) }
    }

    func emit(_ data: JSONFeedItemData) throws {
        if itemCount == 0 && pendingJSONItems.isEmpty {
            jsonFeed.firstItemModified = data.dateModified
            jsonFeed.firstItemPublished = data.datePublished
            changed()
        }
        guard jsonFeed.version != nil else {
            pendingJSONItems.append(data)
            return
        }
        try deliverItem { jsonTranslator.item(data) }
    }

    /// The JSON Feed's `version` was read: it is a JSON Feed; items held back go out.
    func jsonFeedConfirmed() throws {
        let pending = pendingJSONItems
        pendingJSONItems = []
        for item in pending { try deliverItem { jsonTranslator.item(item) } }
    }

    private func deliverItem(_ make: () -> FeedItem) throws {
        itemCount += 1
        if skipping > 0 {
            skipping -= 1
            return
        }
        let item = make()
        do {
            try deliver(item, header)
        } catch {
            deliveryError = error
            throw error
        }
    }

    // MARK: - The feed

    /// The feed as read so far, without items.
    var header: Feed {
        if let cachedHeader, cachedHeader.revision == revision { return cachedHeader.feed }
        let feed = makeHeader()
        cachedHeader = (revision, feed)
        return feed
    }

    private func makeHeader() -> Feed {
        switch format?.family {
        case .rss?:
            refreshAtomKeys()
            return rssTranslator.feed(rssChannel)
        case .atom?: return atomTranslator.feed(atomFeed)
        case .json?: return jsonTranslator.feed(jsonFeed, version: format?.version ?? "")
        case nil: return Feed(format: FeedFormat(.rss, version: ""))
        }
    }

    /// gofeed's Atom keys first, then any other prefix this feed bound to Atom's
    /// namespaces — brought up to date when the vocabulary learned one.
    private func refreshAtomKeys() {
        guard vocabulary.atomKeys.count != atomKeyCount else { return }
        atomKeyCount = vocabulary.atomKeys.count
        var keys = ["atom", "atom10", "atom03"]
        for key in vocabulary.atomKeys where !keys.contains(key) { keys.append(key) }
        rssTranslator.atomKeys = keys
    }

    private var atomKeyCount = 0
}
