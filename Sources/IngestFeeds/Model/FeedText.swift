/// Text from a feed as the feed gave it — plain text, HTML or XHTML — with a plain
/// text view.
///
/// Titles, descriptions and content keep their markup (``value``); ``type`` says
/// how to read it: Atom says so (`type="html"`), RSS descriptions are HTML by the
/// RSS 2.0 specification, an RSS title is HTML when it looks like it, and JSON Feed
/// names its fields (`content_html`, `content_text`). ``plainText`` is for display
/// and search: tags removed, references decoded, white space collapsed.
///
/// ```swift
/// let title = FeedText("Fish &amp; <b>Chips</b>", type: .html)
/// title.plainText   // "Fish & Chips"
/// ```
public struct FeedText: Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// How ``FeedText/value`` is written.
    public enum TextType: String, Sendable, Hashable, Codable {
        /// Plain text: no markup, shown as is.
        case text
        /// HTML, escaped or in CDATA in the feed; tags and entities are markup.
        case html
        /// Atom's inline XHTML (`type="xhtml"`): the markup of the `div`'s content, in order.
        case xhtml
    }

    /// The text as the feed gave it (trimmed), markup included.
    public var value: String
    /// How ``value`` is written: text, HTML or XHTML.
    public var type: TextType

    /// Text as a feed gave it.
    public init(_ value: String, type: TextType = .text) {
        self.value = value
        self.type = type
    }

    /// Plain text.
    public init(stringLiteral value: String) { self.init(value) }

    /// The text without markup: for HTML and XHTML, tags removed (and the bodies of
    /// `script` and `style`), references decoded; white space collapsed to single
    /// spaces and trimmed in every case.
    public var plainText: String {
        switch type {
        case .text: HTMLText.collapsingWhiteSpace(value)
        case .html, .xhtml: HTMLText.plainText(ofHTML: value)
        }
    }

    /// ``value``, as given.
    public var description: String { value }
}
