import IngestCore

/// A JSON Feed (https://jsonfeed.org/version/1.1), read from the JSON reader's
/// events: members arrive as child elements named by their keys, scalars whole
/// through ``ElementHandler/take(scalar:)``.
///
/// The document is a JSON Feed when its `version` is JSON Feed's
/// (`https://jsonfeed.org/version/1`, `…/1.1`, or the bare `1`, `1.0`, `1.1`
/// gofeed's examples use); items read before the `version` member are held until
/// it comes.
final class JSONFeedHandler: ElementHandler {
    // Safety: the session outlives the handlers that hold it unowned (FeedParseSession
    // says why), and a handler's state is used by the parsing thread alone, with no
    // call out that could call back into it (IngestCore's UnsafeCode article).
    unowned(unsafe) let session: FeedParseSession
    private lazy var author = JSONAuthorHandler(session: session)
    private lazy var authors = JSONAuthorsHandler(session: session)
    private lazy var items = JSONItemsHandler(session: session)

    init(session: FeedParseSession) {
        self.session = session
    }

    var accumulatesText: Bool { false }

    func take(scalar element: ElementEnd) throws -> Bool {
        let kind = session.vocabulary.term(element.name).kind
        if kind == .version {
            try version(element)
            return true
        }
        guard element.kind == .string, let value = JSONScalar.string(element) else { return true }
        switch kind {
        case .title: session.jsonFeed.title = value
        case .homePageURL: session.jsonFeed.homePageURL = try session.resolve(value)
        case .feedURL: session.jsonFeed.feedURL = try session.resolve(value)
        case .description: session.jsonFeed.description = value
        case .icon: session.jsonFeed.icon = try session.resolve(value)
        case .language: session.jsonFeed.language = value
        default: return true
        }
        session.changed()
        return true
    }

    func handler(forChild element: ElementStart) throws -> (any ElementHandler)? {
        switch session.vocabulary.term(element.name).kind {
        case .author where element.kind == .object: return author
        case .authors where element.kind == .array: return authors
        case .items where element.kind == .array: return items
        default: return nil
        }
    }

    func didFinish(child: any ElementHandler, element: ElementEnd) throws {
        if child === author {
            session.jsonFeed.author = author.author
            session.changed()
        } else if child === authors {
            session.jsonFeed.authors = authors.authors
            session.changed()
        }
    }

    func didEnd(_ element: ElementEnd) throws {
        guard session.jsonFeed.version != nil else {
            throw fail("not a feed: this JSON document has no JSON Feed \"version\" member")
        }
    }

    private func version(_ element: ElementEnd) throws {
        let text = element.kind == .string || element.kind == .number ? element.text.string : ""
        var version = text
        if version.hasPrefix("https://jsonfeed.org/version/") || version.hasPrefix("http://jsonfeed.org/version/") {
            version = String(version[version.index(after: version.lastIndex(of: "/")!)...])
        }
        switch version {
        case "1", "1.0": version = "1.0"
        case "1.1": break
        default:
            throw fail(
                "not a feed: \"version\": \"\(text)\" is not a JSON Feed version (https://jsonfeed.org/version/1.1)")
        }
        session.jsonFeed.version = version
        session.setJSONVersion(version)
        try session.jsonFeedConfirmed()
    }

    private func fail(_ message: String) -> IngestError {
        let error = IngestError(.data, message)
        session.handlerError = error
        return error
    }
}

/// The `items` array: each item, delivered as it ends.
final class JSONItemsHandler: ElementHandler {
    unowned(unsafe) let session: FeedParseSession
    private lazy var item = JSONItemHandler(session: session)

    init(session: FeedParseSession) {
        self.session = session
    }

    var accumulatesText: Bool { false }

    func take(scalar element: ElementEnd) -> Bool { true }

    func handler(forChild element: ElementStart) -> (any ElementHandler)? {
        element.kind == .object ? item : nil
    }
}

/// One item object.
final class JSONItemHandler: ElementHandler {
    unowned(unsafe) let session: FeedParseSession
    private lazy var author = JSONAuthorHandler(session: session)
    private lazy var authors = JSONAuthorsHandler(session: session)
    private lazy var tags = JSONStringsHandler()
    private lazy var attachments = JSONAttachmentsHandler(session: session)
    @exclusivity(unchecked) private var item = JSONFeedItemData()

    init(session: FeedParseSession) {
        self.session = session
    }

    var accumulatesText: Bool { false }

    func didStart(_ element: ElementStart) { item.reset() }

    func take(scalar element: ElementEnd) throws -> Bool {
        let kind = session.vocabulary.term(element.name).kind
        // An id may be a number; JSON Feed says to read it as a string.
        guard element.kind == .string || (element.kind == .number && kind == .id),
            let value = JSONScalar.string(element)
        else { return true }
        switch kind {
        case .id: item.id = value
        case .url: item.url = try session.resolve(value)
        case .externalURL: item.externalURL = try session.resolve(value)
        case .title: item.title = value
        case .contentHTML: item.contentHTML = try session.resolveLinks(inHTML: value)
        case .contentText: item.contentText = value
        case .summary: item.summary = value
        case .image: item.image = try session.resolve(value)
        case .bannerImage: item.bannerImage = try session.resolve(value)
        case .datePublished: item.datePublished = value
        case .dateModified: item.dateModified = value
        default: break
        }
        return true
    }

    func handler(forChild element: ElementStart) -> (any ElementHandler)? {
        switch session.vocabulary.term(element.name).kind {
        case .author where element.kind == .object: return author
        case .authors where element.kind == .array: return authors
        case .tags where element.kind == .array: return tags
        case .attachments where element.kind == .array: return attachments
        default: return nil
        }
    }

    func didFinish(child: any ElementHandler, element: ElementEnd) {
        if child === author {
            item.author = author.author
        } else if child === authors {
            item.authors = authors.authors
        } else if child === tags {
            item.tags = tags.values
        } else if child === attachments {
            item.attachments = attachments.attachments
        }
    }

    func didEnd(_ element: ElementEnd) throws {
        try session.emit(item)
    }
}

/// An author object: `name`, `url`, `avatar`.
final class JSONAuthorHandler: ElementHandler {
    unowned(unsafe) let session: FeedParseSession
    private(set) var author = JSONFeedAuthor()

    init(session: FeedParseSession) {
        self.session = session
    }

    var accumulatesText: Bool { false }

    func didStart(_ element: ElementStart) { author = JSONFeedAuthor() }

    func take(scalar element: ElementEnd) throws -> Bool {
        guard element.kind == .string, let value = JSONScalar.string(element) else { return true }
        switch session.vocabulary.term(element.name).kind {
        case .name: author.name = value
        case .url: author.url = try session.resolve(value)
        case .avatar: author.avatar = try session.resolve(value)
        default: break
        }
        return true
    }
}

/// An array of author objects (JSON Feed 1.1's `authors`).
final class JSONAuthorsHandler: ElementHandler {
    unowned(unsafe) let session: FeedParseSession
    private lazy var author = JSONAuthorHandler(session: session)
    private(set) var authors: [JSONFeedAuthor] = []

    init(session: FeedParseSession) {
        self.session = session
    }

    var accumulatesText: Bool { false }

    func didStart(_ element: ElementStart) { authors = [] }
    func take(scalar element: ElementEnd) -> Bool { true }
    func handler(forChild element: ElementStart) -> (any ElementHandler)? { element.kind == .object ? author : nil }
    func didFinish(child: any ElementHandler, element: ElementEnd) { authors.append(author.author) }
}

/// An array of strings (`tags`).
final class JSONStringsHandler: ElementHandler {
    private(set) var values: [String] = []

    var accumulatesText: Bool { false }

    func didStart(_ element: ElementStart) { values = [] }

    func take(scalar element: ElementEnd) -> Bool {
        if element.kind == .string, let value = JSONScalar.string(element) { values.append(value) }
        return true
    }
}

/// The `attachments` array.
final class JSONAttachmentsHandler: ElementHandler {
    unowned(unsafe) let session: FeedParseSession
    private lazy var attachment = JSONAttachmentHandler(session: session)
    private(set) var attachments: [(url: String?, mimeType: String?, size: String?)] = []

    init(session: FeedParseSession) {
        self.session = session
    }

    var accumulatesText: Bool { false }

    func didStart(_ element: ElementStart) { attachments = [] }
    func take(scalar element: ElementEnd) -> Bool { true }
    func handler(forChild element: ElementStart) -> (any ElementHandler)? { element.kind == .object ? attachment : nil }
    func didFinish(child: any ElementHandler, element: ElementEnd) { attachments.append(attachment.attachment) }
}

/// One attachment: `url`, `mime_type`, `size_in_bytes`.
final class JSONAttachmentHandler: ElementHandler {
    unowned(unsafe) let session: FeedParseSession
    private(set) var attachment: (url: String?, mimeType: String?, size: String?) = (nil, nil, nil)

    init(session: FeedParseSession) {
        self.session = session
    }

    var accumulatesText: Bool { false }

    func didStart(_ element: ElementStart) { attachment = (nil, nil, nil) }

    func take(scalar element: ElementEnd) throws -> Bool {
        guard let value = JSONScalar.string(element) else { return true }
        switch session.vocabulary.term(element.name).kind {
        case .url where element.kind == .string: attachment.url = try session.resolve(value)
        case .mimeType where element.kind == .string: attachment.mimeType = value
        case .sizeInBytes where element.kind == .number: attachment.size = value
        default: break
        }
        return true
    }
}

/// JSON scalars as the model keeps them.
enum JSONScalar {
    /// The scalar's text as it is (JSON strings are not trimmed); `nil` when empty.
    static func string(_ element: ElementEnd) -> String? {
        element.text.bytes.isEmpty ? nil : element.text.string
    }
}
