/// The Dublin Core elements of a feed or an item (`dc:` in
/// `http://purl.org/dc/elements/1.1/`), each a list of texts in document order.
public struct DublinCoreExtension: Sendable, Hashable {
    /// Every `dc:title`.
    public var title: [String] = []
    /// Every `dc:creator`.
    public var creator: [String] = []
    /// Every `dc:author`.
    public var author: [String] = []
    /// Every `dc:subject`.
    public var subject: [String] = []
    /// Every `dc:description`.
    public var description: [String] = []
    /// Every `dc:publisher`.
    public var publisher: [String] = []
    /// Every `dc:contributor`.
    public var contributor: [String] = []
    /// Every `dc:date`.
    public var date: [String] = []
    /// Every `dc:type`.
    public var type: [String] = []
    /// Every `dc:format`.
    public var format: [String] = []
    /// Every `dc:identifier`.
    public var identifier: [String] = []
    /// Every `dc:source`.
    public var source: [String] = []
    /// Every `dc:language`.
    public var language: [String] = []
    /// Every `dc:relation`.
    public var relation: [String] = []
    /// Every `dc:coverage`.
    public var coverage: [String] = []
    /// Every `dc:rights`.
    public var rights: [String] = []

    /// No elements.
    public init() {}

    /// The Dublin Core view of the `dc` extension elements.
    public init(_ elements: [String: [Extension]]) {
        // One pass over what the feed has, rather than sixteen lookups.
        for (name, list) in elements {
            let values = list.map(\.value)
            switch name {
            case "title": title = values
            case "creator": creator = values
            case "author": author = values
            case "subject": subject = values
            case "description": description = values
            case "publisher": publisher = values
            case "contributor": contributor = values
            case "date": date = values
            case "type": type = values
            case "format": format = values
            case "identifier": identifier = values
            case "source": source = values
            case "language": language = values
            case "relation": relation = values
            case "coverage": coverage = values
            case "rights": rights = values
            default: break
            }
        }
    }
}
