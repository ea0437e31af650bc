/// One element in a namespace the feed format does not define — `itunes:duration`,
/// `media:content`, `dc:creator`, `podcast:transcript` — kept as data: its local
/// name, its text (trimmed), its attributes (by local name) and its child elements.
///
/// A feed's or an item's ``Extensions`` hold them by namespace prefix, then by
/// name, in document order: `item.extensions["media"]?["content"]`. The prefix is
/// the usual one for a well-known namespace whatever the feed wrote (`dc` for
/// Dublin Core, `itunes`, `media`, `content`…, gofeed's table), else the one the
/// feed declared — so `DC:creator` and `dc:creator` bound to Dublin Core's URI land
/// in one place.
public struct Extension: Sendable, Hashable {
    /// The element's local name (`duration` for `itunes:duration`).
    public var name: String
    /// The text directly inside the element, trimmed.
    public var value: String
    /// The attributes by local name (`href`, not `xlink:href`).
    public var attributes: [String: String]
    /// Child elements by local name, in document order.
    public var children: [String: [Extension]]

    /// An extension element.
    public init(
        name: String, value: String = "", attributes: [String: String] = [:],
        children: [String: [Extension]] = [:]
    ) {
        self.name = name
        self.value = value
        self.attributes = attributes
        self.children = children
    }

    /// The first child named `name`.
    public func child(_ name: String) -> Extension? { children[name]?.first }
}

/// Extension elements by prefix, then by local name (gofeed's `ext.Extensions`).
public typealias Extensions = [String: [String: [Extension]]]

extension Dictionary where Key == String, Value == [String: [Extension]] {
    /// The text of the first `name` element under `prefix`, when not empty.
    func firstValue(_ prefix: String, _ name: String) -> String? {
        self[prefix]?[name]?.first?.value.nonEmptyString
    }
}

extension String {
    var nonEmptyString: String? { isEmpty ? nil : self }
}
