/// What ``SafeHTML`` keeps of an element and of an attribute: an allow-list, after
/// feedparser's sanitizer (`_HTMLSanitizer`), less what can submit, load a
/// document or run code (forms, frames, objects, SVG and MathML).
enum HTMLAllowList {
    /// What becomes of an element.
    enum Rule {
        /// Written, with its allowed attributes; `void` elements have no end tag.
        case keep(void: Bool)
        /// Gone with everything in it: its content is code, a document of its own,
        /// or markup this list does not vet.
        case dropWithContent
    }

    /// The rule for an element named `name` (lowercase, as libxml2 reports it);
    /// `nil`: the tag is dropped and its content kept.
    static func rule(for name: String) -> Rule? { rules[name] }

    private static let rules: [String: Rule] = {
        var rules: [String: Rule] = [:]
        for name in kept { rules[name] = .keep(void: false) }
        for name in void { rules[name] = .keep(void: true) }
        for name in droppedWithContent { rules[name] = .dropWithContent }
        return rules
    }()

    private static let kept: [String] = [
        "a", "abbr", "acronym", "address", "article", "aside", "audio", "b", "bdi", "bdo", "big", "blockquote",
        "caption", "center", "cite", "code", "colgroup", "dd", "del", "details", "dfn", "dir", "div", "dl", "dt",
        "em", "figcaption", "figure", "font", "footer", "h1", "h2", "h3", "h4", "h5", "h6", "header", "i", "ins",
        "kbd", "li", "map", "mark", "nav", "ol", "p", "picture", "pre", "q", "rp", "rt", "ruby", "s", "samp",
        "section", "small", "span", "strike", "strong", "sub", "summary", "sup", "table", "tbody", "td", "tfoot",
        "th", "thead", "time", "tr", "tt", "u", "ul", "var", "video"
    ]

    private static let void: [String] = ["area", "br", "col", "hr", "img", "source", "track", "wbr"]

    private static let droppedWithContent: [String] = [
        "script", "style", "iframe", "frame", "frameset", "object", "embed", "applet", "param", "noscript",
        "noembed", "noframes", "template", "svg", "math", "head", "title", "textarea", "select", "xml", "base",
        "meta", "link", "bgsound", "plaintext", "xmp", "input", "canvas", "dialog"
    ]

    /// Attributes written when their element is, value escaped; the URL attributes
    /// and `style` are vetted further (``SafeURL``, ``SafeStyle``). No `on…`
    /// handler, no `id` or `name` (which could stand in for the page's own
    /// elements in its scripts), no `target`, `action`, `background` or `formaction`.
    static let attributes: Set<String> = [
        "abbr", "align", "alt", "axis", "bgcolor", "border", "cellpadding", "cellspacing", "char", "charoff",
        "cite", "class", "clear", "color", "cols", "colspan", "compact", "controls", "coords", "datetime", "dir",
        "face", "headers", "height", "href", "hreflang", "hspace", "kind", "label", "lang", "loop", "media",
        "muted", "noshade", "nowrap", "open", "poster", "preload", "rel", "rev", "reversed", "rowspan", "rules",
        "scope", "shape", "size", "sizes", "span", "src", "srclang", "srcset", "start", "style", "summary",
        "title", "type", "valign", "value", "vspace", "width"
    ]

    /// Attributes that hold a URL, checked by ``SafeURL``.
    static let urlAttributes: Set<String> = ["href", "src", "cite", "poster"]
}
