import IngestCore

/// The document element: tells the format from its name and namespace (for
/// JSON, the document being an object) and hands it to that format's handler.
/// Not a feed: an ``IngestCore/IngestError`` of kind `.data` naming what it is.
final class FeedRootHandler: ElementHandler {
    // Safety: the session outlives the handlers that hold it unowned (FeedParseSession
    // says why), and a handler's state is used by the parsing thread alone, with no
    // call out that could call back into it (IngestCore's UnsafeCode article).
    unowned(unsafe) let session: FeedParseSession
    private var format: (any ElementHandler)?

    init(session: FeedParseSession) {
        self.session = session
    }

    func didStart(_ element: ElementStart) throws {
        let handler: any ElementHandler
        if element.kind != .markup {
            guard element.kind == .object else {
                throw fail(
                    "not a feed: a JSON Feed is an object, and this JSON document is \(Self.describe(element.kind))")
            }
            session.begin(FeedFormat(.json, version: ""))
            handler = JSONFeedHandler(session: session)
        } else {
            let local = element.name.local.lowercased()
            let uri = element.name.namespaceURI
            switch local {
            case "rss":
                session.begin(FeedFormat(.rss, version: element.attributes["version"] ?? ""))
                session.rssChannel.version = element.attributes["version"] ?? ""
                handler = RSSRootHandler(session: session)
            case "rdf", "rdf:rdf":
                session.begin(FeedFormat(.rss, version: ""))
                handler = RSSRootHandler(session: session)
            case "feed":
                let version =
                    element.attributes["version"]
                    ?? (uri == FeedNamespaces.atom10 ? "1.0" : uri == FeedNamespaces.atom03 ? "0.3" : "")
                session.begin(FeedFormat(.atom, version: version))
                session.atomFeed.version = version
                handler = AtomFeedHandler(session: session)
            default:
                throw fail(
                    "not a feed: the document element is <\(element.name.qualified)>\(uri.map { " in \($0)" } ?? ""); "
                        + "RSS (<rss>, <rdf:RDF>), Atom (<feed>) and JSON Feed are read")
            }
        }
        format = handler
        try handler.didStart(element)
    }

    var accumulatesText: Bool { false }

    func handler(forChild element: ElementStart) throws -> (any ElementHandler)? {
        try format?.handler(forChild: element)
    }

    func take(scalar element: ElementEnd) throws -> Bool {
        try format?.take(scalar: element) ?? false
    }

    func didFinish(child: any ElementHandler, element: ElementEnd) throws {
        try format?.didFinish(child: child, element: element)
    }

    func didEnd(_ element: ElementEnd) throws {
        try format?.didEnd(element)
    }

    private func fail(_ message: String) -> IngestError {
        let error = IngestError(.data, message)
        session.handlerError = error
        return error
    }

    private static func describe(_ kind: ContentKind) -> String {
        switch kind {
        case .array: "an array"
        case .string: "a string"
        case .number: "a number"
        case .boolean: "a boolean"
        case .null: "null"
        case .markup, .object: "an object"
        }
    }
}
