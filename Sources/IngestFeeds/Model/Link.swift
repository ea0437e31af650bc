/// A link of a feed or an item: its target and, where the format says, its
/// relation, media type and title (Atom's `link` attributes).
///
/// In gofeed's JSON a link is its ``href`` alone.
public struct Link: Sendable, Hashable, ExpressibleByStringLiteral {
    /// The target, resolved against xml:base and the feed's URL when relative.
    public var href: String
    /// The relation (`alternate`, `self`, …) when the feed gave one.
    public var rel: String?
    /// The target's media type.
    public var type: String?
    /// A title for the link.
    public var title: String?
    /// The target's language.
    public var hreflang: String?
    /// The target's size in bytes, as written.
    public var length: String?

    /// A link; empty strings are taken as absent.
    public init(
        href: String, rel: String? = nil, type: String? = nil, title: String? = nil,
        hreflang: String? = nil, length: String? = nil
    ) {
        self.href = href
        self.rel = rel.nonEmpty
        self.type = type.nonEmpty
        self.title = title.nonEmpty
        self.hreflang = hreflang.nonEmpty
        self.length = length.nonEmpty
    }

    /// A link to `href`, with nothing else known.
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
