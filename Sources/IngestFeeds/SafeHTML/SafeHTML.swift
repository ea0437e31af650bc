/// HTML from a feed made safe to show in a page: an allow-list sanitizer on
/// libxml2's HTML parser, and a plain-text summary.
///
/// Feeds carry HTML written by whoever publishes them; shown as it is, a
/// description can run script in the reader's page. ``sanitize(_:base:)`` keeps
/// the markup that presents text — paragraphs, links, images, lists, tables,
/// quotes, code — and drops the rest:
///
/// - Elements outside an allow-list (after feedparser's) lose their tags and keep
///   their text; `script`, `style`, `iframe`, `object`, `embed`, `noscript`,
///   `template`, `svg`, `math`, form controls, `head`, `title` and the like go with
///   everything in them.
/// - Attributes outside an allow-list are dropped: every `on…` handler, `id`,
///   `name`, `target`. `href`, `src`, `cite`, `poster` and each URL of `srcset`
///   stay only when http, https, mailto (not in `srcset`) or relative — judged with
///   references decoded and white space and control characters removed, whatever
///   the case, so `jav&#x09;ascript:` is caught; `data:image/…` (but SVG) is kept
///   in `img src` alone.
/// - `style` keeps only declarations of an allow-list of layout and text
///   properties with plain values; one holding `url(`, `expression`, `javascript`,
///   a comment or a backslash escape is dropped whole.
/// - Comments, processing instructions and the DOCTYPE are dropped; unclosed tags
///   are closed; nesting deeper than 100 elements writes no more tags (the text
///   stays), deeper than 1024 ends the parse; all text and attribute values are
///   escaped again.
///
/// The parser reads no network and loads no entity; it is fed as a push parser
/// and the output is written as its events come, so memory is the input, the
/// output and the stack of open elements. HTML longer than 64 KiB is read in
/// pieces cut before a tag, each closed at its end, which keeps the time linear
/// on hostile input. See <doc:/IngestFeeds/SafeHTMLRules>.
///
/// ```swift
/// SafeHTML.sanitize(#"<p onclick="x()">Hi <a href="javascript:x()">there</a><script>x()</script>"#)
/// // "<p>Hi <a>there</a></p>"
/// SafeHTML.sanitize(#"<img src="a.png">"#, base: "https://example.org/blog/")
/// // "<img src=\"https://example.org/blog/a.png\">"
/// ```
public enum SafeHTML {
    /// `html` (a fragment, as a feed's description or content holds) with only
    /// allowed elements, attributes, URLs and styles left, re-escaped. With `base`,
    /// an absolute URL, relative `href`, `src`… are first resolved against it, as
    /// the feed reader resolves them against `xml:base` and the feed's address
    /// (which ``FeedReader`` has already done to the text it gives).
    public static func sanitize(_ html: String, base: String? = nil) -> String {
        var html = html
        if let base {
            let reference = URIReference(base)
            if reference.isAbsolute { html = HTMLLinks.resolvingLinks(in: html, against: reference) ?? html }
        }
        // Text without markup or references needs no parser.
        let markup = html.utf8.contains {
            $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: ">")
        }
        guard markup else { return html }
        if html.utf8.withContiguousStorageIfAvailable(AlreadySafeHTML.holds) == true { return html }
        return HTMLSanitizer.sanitize(html)
    }

    /// The text of `html` for a summary or a search index: tags removed (with the
    /// bodies of `script` and `style`), references decoded, white space collapsed;
    /// with `limit`, at most that many characters, cut at a word where one ends in
    /// the last fifth and ended with "…". Plain text, not HTML: escape it where it
    /// goes into a page.
    public static func plainText(_ html: String, limit: Int? = nil) -> String {
        let text = HTMLText.plainText(ofHTML: html)
        guard let limit else { return text }
        guard limit > 0 else { return "" }
        guard text.count > limit else { return text }
        var cut = text.prefix(limit - 1)
        if let space = cut.lastIndex(of: " "), cut.distance(from: space, to: cut.endIndex) <= limit / 5 {
            cut = cut[..<space]
        }
        while let last = cut.last, last == " " || last.isPunctuation && last != ")" { cut = cut.dropLast() }
        return String(cut) + "…"
    }
}
