extension FeedText {
    /// The text as safe HTML, typed `.html`: HTML and XHTML sanitized
    /// (``SafeHTML/sanitize(_:base:)``), plain text escaped (`<`, `>`, `&`, `"`,
    /// `'`), so that a page showing any of them as HTML shows plain text as written
    /// and runs no markup, whatever a feed declared its text to be.
    public func sanitizingHTML() -> FeedText {
        switch type {
        case .text: FeedText(HTMLText.escaping(value), type: .html)
        case .html, .xhtml: FeedText(SafeHTML.sanitize(value), type: .html)
        }
    }
}

extension FeedItem {
    /// Sanitizes the item's ``description`` and ``content`` (``FeedText/sanitizingHTML()``),
    /// for an archive or a page that shows them as HTML.
    public mutating func sanitizeHTML() {
        description = description?.sanitizingHTML()
        content = content?.sanitizingHTML()
    }
}

extension Feed {
    /// Sanitizes the feed's ``description`` and its items' (``FeedItem/sanitizeHTML()``).
    public mutating func sanitizeHTML() {
        description = description?.sanitizingHTML()
        for index in items.indices { items[index].sanitizeHTML() }
    }
}
