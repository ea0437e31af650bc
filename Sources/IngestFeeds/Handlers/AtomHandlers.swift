import Foundation
import IngestCore

/// Reading Atom text constructs (RFC 4287 section 3.1) and Atom 0.3's `mode`, as
/// gofeed's `parseAtomText` does: `text` as text, `html` as HTML (a lone wrapping
/// `<div>` of naked markup dropped), `xhtml` as its markup without the wrapping
/// `<div>`, `mode="base64"` and other media types decoded from Base64. URI-valued
/// elements (`icon`, `logo`, `id`, `uri`, `url`) and links inside HTML are resolved
/// against xml:base.
struct AtomTextReading {
    var type: FeedText.TextType
    var base64: Bool

    init(_ element: ElementStart) {
        let type = element.attributes["type"]?.lowercased() ?? ""
        let mode = element.attributes["mode"]?.lowercased() ?? ""
        base64 = false
        if type.contains("xhtml") || mode == "xml" {
            self.type = .xhtml
        } else if type == "html" || type == "text/html" || mode == "escaped" {
            self.type = .html
        } else if type.isEmpty || type == "text" || type.hasPrefix("text/") {
            self.type = .text
            base64 = mode == "base64"
        } else {
            self.type = .text
            base64 = true
        }
    }

    /// The field set up to read this construct.
    func configure(_ field: TextFieldHandler) -> TextFieldHandler {
        field.reading(xhtml: type == .xhtml, stripsWrappingDiv: type != .text)
    }

    func text(_ field: TextFieldHandler) throws -> AtomText? {
        guard var value = field.value else { return nil }
        if base64, let data = Data(base64Encoded: value, options: .ignoreUnknownCharacters),
            let decoded = String(data: data, encoding: .utf8)
        {
            value = decoded
        }
        if type != .text { value = try field.resolveLinks(inHTML: value) }
        return AtomText(value: value, type: type)
    }
}

/// `<feed>`: the feed's own elements and its entries.
final class AtomFeedHandler: FeedLevelHandler {
    // Safety: the session outlives the handlers that hold it unowned (FeedParseSession
    // says why), and a handler's state is used by the parsing thread alone, with no
    // call out that could call back into it (IngestCore's UnsafeCode article).
    unowned(unsafe) let session: FeedParseSession
    private lazy var field = TextFieldHandler(session: session)
    private(set) lazy var extensionHandler = ExtensionHandler(session: session)
    private lazy var person = FieldGroupHandler.atomPerson(session: session)
    private lazy var entry = FeedEntryHandler<AtomEntryFormat>(session: session)
    private var reading = AtomTextReading.plain
    private var generator: (version: String?, uri: String?) = (nil, nil)

    init(session: FeedParseSession) {
        self.session = session
    }

    func didStart(_ element: ElementStart) throws {
        try session.enter(element)
        for attribute in element.attributes where attribute.name.local == "lang" {
            session.atomFeed.language = attribute.string.nonEmptyString
        }
    }

    func handler(forFeedChild element: ElementStart, term: FeedTerm) throws -> (any ElementHandler)? {
        switch term.kind {
        case .entry: return entry
        case .author: return person
        case .link:
            session.atomFeed.links.append(try AtomLinks.link(element, session: session))
            session.changed()
            return nil
        case .category:
            session.atomFeed.categories.append(
                (element.attributes["term"].nonEmpty, element.attributes["label"].nonEmpty))
            session.changed()
            return nil
        case .generator:
            generator = (
                element.attributes["version"].nonEmpty,
                try (element.attributes["uri"].nonEmpty ?? element.attributes["url"].nonEmpty).map {
                    try session.resolve($0, inside: element)
                }
            )
            reading = AtomTextReading(element)
            return reading.configure(field)
        case .title, .subtitle, .tagline, .rights, .copyright, .id, .updated, .modified, .icon, .logo:
            reading = AtomTextReading(element)
            return reading.configure(field)
        default:
            return nil
        }
    }

    func didFinish(child: any ElementHandler, element: ElementEnd) throws {
        if child === entry { return }
        let term = session.vocabulary.term(element.name)
        defer { session.changed() }
        if child === extensionHandler {
            session.atomFeed.extensions.add(
                extensionHandler.result,
                key: session.vocabulary.extensionKey(term))
            return
        }
        if child === person {
            if term.kind == .author { session.atomFeed.authors.append(person.value) }
            return
        }
        let text = try reading.text(field)
        switch term.kind {
        case .title: session.atomFeed.title = text
        case .subtitle, .tagline: session.atomFeed.subtitle = text
        case .rights, .copyright: session.atomFeed.rights = text?.value
        case .updated, .modified: session.atomFeed.updated = text?.value
        case .icon: session.atomFeed.icon = try text.map { try field.resolve($0.value) }
        case .logo: session.atomFeed.logo = try text.map { try field.resolve($0.value) }
        case .generator: session.atomFeed.generator = (text?.value, generator.version, generator.uri)
        default: break
        }
    }
}

/// How an Atom `<entry>` reads its own children (``FeedEntryHandler`` does the rest).
final class AtomEntryFormat: FeedEntryFormat {
    // Safety: as for the handlers (AtomFeedHandler): the session outlives this reading,
    // which the parsing thread alone uses.
    unowned(unsafe) let session: FeedParseSession
    private lazy var field = TextFieldHandler(session: session)
    private lazy var person = FieldGroupHandler.atomPerson(session: session)
    private var reading = AtomTextReading.plain

    init(session: FeedParseSession) {
        self.session = session
    }

    func handler(forChild element: ElementStart, term: FeedTerm, entry: inout AtomEntryData) throws
        -> (any ElementHandler)?
    {
        guard term.space == .core else { return nil }
        switch term.kind {
        case .author: return person
        case .link:
            entry.links.append(try AtomLinks.link(element, session: session))
            return nil
        case .category:
            entry.categories.append((element.attributes["term"].nonEmpty, element.attributes["label"].nonEmpty))
            return nil
        case .title, .summary, .content, .id, .rights, .copyright, .updated, .modified, .published, .issued:
            reading = AtomTextReading(element)
            return reading.configure(field)
        default:
            return nil
        }
    }

    func didFinish(child: any ElementHandler, element: ElementEnd, term: FeedTerm, entry: inout AtomEntryData)
        throws
    {
        if child === person {
            if term.kind == .author { entry.authors.append(person.value) }
            return
        }
        let text = try reading.text(field)
        switch term.kind {
        case .title: entry.title = text
        case .summary: entry.summary = text
        case .content: entry.content = text
        case .id: entry.id = try text.map { try field.resolve($0.value) }
        case .updated, .modified: entry.updated = text?.value
        case .published, .issued: entry.published = text?.value
        default: break
        }
    }
}

extension FieldGroupHandler where Value == Person {
    /// `<author>` (and `<contributor>`, read and set aside as gofeed does).
    static func atomPerson(session: FeedParseSession) -> FieldGroupHandler {
        FieldGroupHandler(session: session, empty: Person()) { _, child in
            switch child {
            case .name, .email, .uri, .url, .homepage: true
            default: false
            }
        } assign: { person, kind, field in
            let value = field.value
            switch kind {
            case .name: person.name = value
            case .email: person.email = value
            case .uri, .url, .homepage: person.url = try value.map(field.resolve)
            default: break
            }
        }
    }
}

/// Atom `<link>` attributes; `href` resolved against xml:base.
enum AtomLinks {
    static func link(_ element: ElementStart, session: FeedParseSession) throws -> Link {
        Link(
            href: try session.resolve(element.attributes["href"] ?? "", inside: element),
            rel: element.attributes["rel"],
            type: element.attributes["type"], title: element.attributes["title"],
            hreflang: element.attributes["hreflang"], length: element.attributes["length"])
    }
}

extension AtomTextReading {
    static let plain = AtomTextReading(type: .text, base64: false)

    private init(type: FeedText.TextType, base64: Bool) {
        self.type = type
        self.base64 = base64
    }
}
