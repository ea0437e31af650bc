/// A link of a feed or an item: its target and, where the format says, its
/// relation, media type and title (Atom's `link` attributes).
///
/// In gofeed's JSON a link is its ``href`` alone.
public struct Link: Sendable, Hashable, ExpressibleByStringLiteral {
    public var href: String
    /// The relation (`alternate`, `self`, …) when the feed gave one.
    public var rel: String?
    public var type: String?
    public var title: String?
    public var hreflang: String?
    public var length: String?

    public init(href: String, rel: String? = nil, type: String? = nil, title: String? = nil,
                hreflang: String? = nil, length: String? = nil) {
        self.href = href
        self.rel = rel.nonEmpty
        self.type = type.nonEmpty
        self.title = title.nonEmpty
        self.hreflang = hreflang.nonEmpty
        self.length = length.nonEmpty
    }

    public init(stringLiteral href: String) { self.init(href: href) }
}

extension Optional where Wrapped == String {
    /// `nil` for an empty string: the model never holds `""`, as gofeed's JSON
    /// never writes one.
    var nonEmpty: String? {
        guard let self, !self.isEmpty else { return nil }
        return self
    }
}
