import IngestCore

/// `<rss>` or `<rdf:RDF>`: the channel, and — RSS 1.0 and 0.90 — the items and
/// image that follow it. Extensions at this level are skipped, as gofeed does.
final class RSSRootHandler: FeedSectionHandler {
    // Safety: the session outlives the handlers that hold it unowned (FeedParseSession
    // says why), and a handler's state is used by the parsing thread alone, with no
    // call out that could call back into it (IngestCore's UnsafeCode article).
    unowned(unsafe) let session: FeedParseSession
    private lazy var channel = RSSChannelHandler(session: session)
    private lazy var image = FieldGroupHandler.rssImage(session: session)

    init(session: FeedParseSession) {
        self.session = session
    }

    func handler(forChild element: ElementStart) throws -> (any ElementHandler)? {
        noteVersion(element.name)
        let term = session.vocabulary.term(element.name)
        guard term.space == .core else { return nil }
        switch term.kind {
        case .channel: return channel
        case .item: return channel.itemHandler
        case .image: return image
        default: return nil
        }
    }

    func didFinish(child: any ElementHandler, element: ElementEnd) throws {
        if child === image {
            session.rssChannel.image = image.value
            session.changed()
        }
    }

    /// RDF feeds say their version by their elements' namespace.
    private func noteVersion(_ name: Name) {
        guard session.rssChannel.version.isEmpty, let uri = name.namespaceURI else { return }
        if uri == FeedNamespaces.rss10 {
            session.setRSSVersion("1.0")
        } else if FeedNamespaces.rss090.contains(uri) {
            session.setRSSVersion("0.9")
        }
    }
}

/// `<channel>`: the feed's own elements, and its items.
final class RSSChannelHandler: FeedLevelHandler {
    unowned(unsafe) let session: FeedParseSession
    private lazy var field = TextFieldHandler(session: session)
    private(set) lazy var extensionHandler = ExtensionHandler(session: session)
    private lazy var image = FieldGroupHandler.rssImage(session: session)
    private lazy var skipList = FieldGroupHandler.rssSkipList(session: session)
    private(set) lazy var itemHandler = FeedEntryHandler<RSSItemFormat>(session: session)
    /// The `href` of the `link` element being read (gofeed's fallback for an empty one).
    private var linkHref: String?

    init(session: FeedParseSession) {
        self.session = session
    }

    func handler(forFeedChild element: ElementStart, term: FeedTerm) throws -> (any ElementHandler)? {
        switch term.kind {
        case .item: return itemHandler
        case .image: return image
        case .skipHours, .skipDays: return skipList
        case .link:
            linkHref = element.attributes["href"]
            return field.reading()
        case .title, .description, .language, .copyright, .managingEditor, .webMaster, .pubDate, .lastBuildDate,
            .generator, .category, .ttl:
            return field.reading()
        default: return nil
        }
    }

    func didFinish(child: any ElementHandler, element: ElementEnd) throws {
        if child === itemHandler { return }
        if child === extensionHandler {
            session.rssChannel.extensions.add(
                extensionHandler.result,
                key: session.vocabulary.extensionKey(session.vocabulary.term(element.name)))
            session.changed()
            return
        }
        if child === image {
            session.rssChannel.image = image.value
            session.changed()
            return
        }
        if child === skipList {
            if session.vocabulary.term(element.name).kind == .skipHours {
                session.rssChannel.skipHours += skipList.value
            } else {
                session.rssChannel.skipDays += skipList.value
            }
            session.changed()
            return
        }
        let value = field.value
        switch session.vocabulary.term(element.name).kind {
        case .title: session.rssChannel.title = value
        case .description: session.rssChannel.description = try value.map(field.resolveLinks(inHTML:))
        case .link:
            let link = try field.resolve(value ?? linkHref ?? "")
            session.rssChannel.link = link.nonEmptyString
            session.rssChannel.links.append(link)
        case .language: session.rssChannel.language = value
        case .copyright: session.rssChannel.copyright = value
        case .managingEditor: session.rssChannel.managingEditor = value
        case .webMaster: session.rssChannel.webMaster = value
        case .pubDate: session.rssChannel.pubDate = value
        case .lastBuildDate: session.rssChannel.lastBuildDate = value
        case .generator: session.rssChannel.generator = value
        case .category: if let value { session.rssChannel.categories.append(value) }
        case .ttl: session.rssChannel.ttl = value
        default: return
        }
        session.changed()
    }
}

extension FieldGroupHandler where Value == Image {
    /// `<image>` of a channel: its title and URL (what gofeed's model keeps).
    static func rssImage(session: FeedParseSession) -> FieldGroupHandler {
        FieldGroupHandler(session: session, empty: Image()) { _, child in
            child == .title || child == .url
        } assign: { image, kind, field in
            switch kind {
            case .title: image.title = field.value
            case .url: image.url = try field.value.map(field.resolve).nonEmpty
            default: break
            }
        }
    }
}

extension FieldGroupHandler where Value == [String] {
    /// `<skipHours>` or `<skipDays>` of a channel: the texts of its `<hour>` or
    /// `<day>` elements, as written (the translator reads them).
    static func rssSkipList(session: FeedParseSession) -> FieldGroupHandler {
        FieldGroupHandler(session: session, empty: []) { element, child in
            child == (element == .skipHours ? .hour : .day)
        } assign: { values, _, field in
            if let value = field.value { values.append(value) }
        }
    }
}

/// How an RSS `<item>` reads its own children (``FeedEntryHandler`` does the rest).
final class RSSItemFormat: FeedEntryFormat {
    // Safety: as for the handlers (RSSRootHandler): the session outlives this reading,
    // which the parsing thread alone uses.
    unowned(unsafe) let session: FeedParseSession
    private lazy var field = TextFieldHandler(session: session)
    /// The `href` of the `link` element being read (gofeed's fallback for an empty one).
    private var linkHref: String?

    init(session: FeedParseSession) {
        self.session = session
    }

    func handler(forChild element: ElementStart, term: FeedTerm, entry item: inout RSSItemData) throws
        -> (any ElementHandler)?
    {
        switch term.space {
        case .content: return term.kind == .encoded ? field.reading() : nil
        case .extension, .ignored: return nil
        case .core: break
        }
        switch term.kind {
        case .title, .description, .author, .pubDate, .guid, .category:
            return field.reading()
        case .link:
            linkHref = element.attributes["href"]
            return field.reading()
        case .enclosure:
            // The URL trimmed: feeds write `url=" http://…"`, which no resolving makes right.
            let url = try element.attributes["url"].map {
                try session.resolve($0.trimmingASCIIWhiteSpace(), inside: element)
            }
            item.enclosures.append(
                Enclosure(
                    url: url, length: element.attributes["length"],
                    type: element.attributes["type"]))
            return nil
        case .encoded, .comments, .source:
            // `encoded` outside content's namespace, and what the model has no place for.
            return nil
        default:
            // Anything else in no namespace: gofeed's `custom`, by name.
            return field.reading()
        }
    }

    func didFinish(child: any ElementHandler, element: ElementEnd, term: FeedTerm, entry item: inout RSSItemData)
        throws
    {
        let value = field.value
        if term.space == .content {
            item.content = try value.map(field.resolveLinks(inHTML:))
            return
        }
        switch term.kind {
        case .title: item.title = value
        case .description: item.description = try value.map(field.resolveLinks(inHTML:))
        case .author: item.author = value
        case .pubDate: item.pubDate = value
        case .guid: item.guid = value
        case .category: if let value { item.categories.append(value) }
        case .link:
            let link = try field.resolve(value ?? linkHref ?? "")
            item.link = link.nonEmptyString
            item.links.append(link)
        default:
            item.custom[session.vocabulary.local(element.name)] = value ?? ""
        }
    }
}
