extension FeedText {
    /// The text with its HTML sanitized (``SafeHTML/sanitize(_:base:)``): HTML and
    /// XHTML become safe HTML (typed `.html`, as the output is no longer XHTML);
    /// plain text is returned as it is, for it holds no markup to run.
    public func sanitizingHTML() -> FeedText {
        switch type {
        case .text: self
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
