/// The Dublin Core elements of a feed or an item (`dc:` in
/// `http://purl.org/dc/elements/1.1/`), each a list of texts in document order.
public struct DublinCoreExtension: Sendable, Hashable {
    public var title: [String] = []
    public var creator: [String] = []
    public var author: [String] = []
    public var subject: [String] = []
    public var description: [String] = []
    public var publisher: [String] = []
    public var contributor: [String] = []
    public var date: [String] = []
    public var type: [String] = []
    public var format: [String] = []
    public var identifier: [String] = []
    public var source: [String] = []
    public var language: [String] = []
    public var relation: [String] = []
    public var coverage: [String] = []
    public var rights: [String] = []

    public init() {}

    /// The Dublin Core view of the `dc` extension elements.
    public init(_ elements: [String: [Extension]]) {
        func values(_ name: String) -> [String] { elements[name]?.map(\.value) ?? [] }
        title = values("title")
        creator = values("creator")
        author = values("author")
        subject = values("subject")
        description = values("description")
        publisher = values("publisher")
        contributor = values("contributor")
        date = values("date")
        type = values("type")
        format = values("format")
        identifier = values("identifier")
        source = values("source")
        language = values("language")
        relation = values("relation")
        coverage = values("coverage")
        rights = values("rights")
    }
}
