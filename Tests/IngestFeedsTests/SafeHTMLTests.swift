import Foundation
import IngestFeeds
import Testing

@Suite("SafeHTML: an allow-list sanitizer for feed HTML")
struct SafeHTMLTests {
    /// Elements that run code, load a document or a style, submit, or change how
    /// the page around reads: none may come out.
    private static let forbiddenElements: Set<String> = [
        "script", "style", "iframe", "frame", "frameset", "object", "embed", "applet", "base", "meta", "link",
        "form", "input", "button", "select", "textarea", "option", "svg", "math", "template", "noscript", "xml",
        "bgsound", "param", "title", "head"
    ]

    /// The scheme of a URL as a browser reads it (controls and white space gone,
    /// lowercase); `nil` when it has none.
    private static func scheme(_ url: String) -> String? {
        let kept = url.unicodeScalars.filter { $0.value > 0x20 && $0.value != 0x7F }
        let cleaned = String(String.UnicodeScalarView(kept)).lowercased()
        guard let colon = cleaned.firstIndex(of: ":") else { return nil }
        let head = cleaned[..<colon]
        return head.contains(where: { "/?#".contains($0) }) ? nil : String(head)
    }

    /// What a browser would find in `html` that could run code.
    private static func problems(in html: String) -> [String] {
        var problems: [String] = []
        for element in ReparsedHTML(html).elements {
            if forbiddenElements.contains(element.name) { problems.append("element <\(element.name)>") }
            for (name, value) in element.attributes {
                if name.hasPrefix("on") { problems.append("attribute \(name) on <\(element.name)>") }
                let urls =
                    name == "srcset"
                    ? value.split(separator: ",").compactMap { $0.split(separator: " ").first.map(String.init) }
                    : [
                        "href", "src", "cite", "poster", "action", "formaction", "background", "data", "dynsrc",
                        "lowsrc", "longdesc", "codebase", "xlink:href"
                    ].contains(name) ? [value] : []
                for url in urls {
                    guard let scheme = scheme(url) else { continue }
                    let imageData =
                        element.name == "img" && name == "src"
                        && url.lowercased().hasPrefix("data:image/") && !url.lowercased().hasPrefix("data:image/svg")
                    if ["javascript", "vbscript", "livescript", "data"].contains(scheme) && !imageData
                        || !["http", "https", "mailto", "data"].contains(scheme)
                    {
                        problems.append("\(name)=\(url) on <\(element.name)>")
                    }
                }
                if name == "style" {
                    let style = value.lowercased()
                    let words = ["expression", "url(", "javascript", "\\", "/*", "behavior", "binding"]
                    for word in words where style.contains(word) { problems.append("style \(value)") }
                }
            }
        }
        return problems
    }

    @Test("OWASP's filter-evasion vectors come out with nothing that runs", arguments: XSSVectors.owasp)
    func owaspVector(_ vector: String) {
        // The vector unsanitized is the control: the checker finds something in most.
        let sanitized = SafeHTML.sanitize(vector)
        #expect(Self.problems(in: sanitized).isEmpty, "\(vector) -> \(sanitized)")
        let relative = SafeHTML.sanitize(vector, base: "https://example.org/feed/")
        #expect(Self.problems(in: relative).isEmpty, "\(vector) -> \(relative)")
    }

    @Test("the checker itself finds the vectors' problems before sanitizing")
    func checkerFindsProblems() {
        let found = XSSVectors.owasp.filter { !Self.problems(in: $0).isEmpty }
        // Most vectors are dangerous as they are; a checker that found none would prove nothing.
        #expect(found.count > XSSVectors.owasp.count * 3 / 4, "\(found.count) of \(XSSVectors.owasp.count)")
        #expect(!Self.problems(in: #"<a href="jav&#x09;ascript:alert(1)">x</a>"#).isEmpty)
        #expect(!Self.problems(in: #"<p style="width: expression(alert(1))">x</p>"#).isEmpty)
    }

    @Test(
        "markup that presents text is kept as it is",
        arguments: [
            #"<p>One <b>bold</b>, <i>italic</i>, <em>em</em>, <strong>strong</strong>.</p>"#,
            #"<p><a href="https://example.org/a?b=1&amp;c=2" title="A link">link</a></p>"#,
            #"<img src="https://example.org/a.png" alt="A picture" width="10" height="20">"#,
            #"<ul><li>one</li><li>two</li></ul><ol start="3"><li>three</li></ol>"#,
            #"<table><tr><th>h</th></tr><tr><td colspan="2">d</td></tr></table>"#,
            #"<blockquote cite="https://example.org/q">quoted</blockquote>"#,
            "<pre><code>let x = 1 &lt; 2 &amp;&amp; y</code></pre>",
            ##"<p>Mail <a href="mailto:me@example.org">me</a>, <a href="/about">about</a>, <a href="#top">top</a>.</p>"##,
            #"<h2>Title</h2><hr><p>a<br>b</p>"#,
            #"<img src="data:image/png;base64,iVBORw0KGgo=" alt="">"#,
            #"<video controls poster="/p.jpg"><source src="https://example.org/v.mp4" type="video/mp4"></video>"#,
            #"<p style="color: red; text-align: center">styled</p>"#,
            #"<img src="a.png" srcset="a.png 1x, https://example.org/a2.png 2x">"#
        ])
    func kept(_ html: String) {
        #expect(SafeHTML.sanitize(html) == html)
    }

    @Test(
        "what is not allowed goes, and the rest stays",
        arguments: [
            (
                #"<p onclick="x()">Hi <a href="javascript:x()">there</a><script>x()</script></p>"#,
                "<p>Hi <a>there</a></p>"
            ),
            (#"<div id="main" name="n" class="c" target="_blank">x</div>"#, #"<div class="c">x</div>"#),
            (#"<blink>old</blink> <custom-tag>new</custom-tag>"#, "old new"),
            (#"<form action="/x"><input name="q"><button>Go</button></form>"#, "Go"),
            (#"<iframe src="https://example.org"><p>fallback</p></iframe>after"#, "after"),
            (#"<svg><a href="javascript:x()">svg</a></svg>after"#, "after"),
            ("<!-- a comment -->text<?pi x?>", "text"),
            (#"<p style="color: red; background: url(x.png); width: 10px">x</p>"#, "<p>x</p>"),
            (
                #"<p style="color: red; position: fixed; width: 10px">x</p>"#,
                #"<p style="color: red; width: 10px">x</p>"#
            ),
            (
                #"<p style="font-family: 'Times New Roman', serif">x</p>"#,
                #"<p style="font-family: &#39;times new roman&#39;, serif">x</p>"#
            ),
            (#"<img src="data:text/html,x"><a href="data:image/png;base64,AA">a</a>"#, "<img><a>a</a>"),
            (#"<a href="ftp://example.org/">f</a>"#, "<a>f</a>"),
            (#"<p>unclosed <b>bold <i>both"#, "<p>unclosed <b>bold <i>both</i></b></p>"),
            (#"<p title='"quoted" & <angled>'>x</p>"#, #"<p title="&quot;quoted&quot; &amp; &lt;angled&gt;">x</p>"#)
        ])
    func cleaned(_ html: String, _ expected: String) {
        #expect(SafeHTML.sanitize(html) == expected)
    }

    @Test("references are decoded as HTML reads them and written escaped again")
    func references() {
        #expect(
            SafeHTML.sanitize("Fish &amp; Chips &lt;b&gt; &eacute;t&#233; &#x2014;")
                == "Fish &amp; Chips &lt;b&gt; été —")
        #expect(SafeHTML.sanitize("1 < 2 && 3 > 2") == "1 &lt; 2 &amp;&amp; 3 &gt; 2")
        #expect(SafeHTML.sanitize("plain text, no markup") == "plain text, no markup")
        #expect(SafeHTML.sanitize("") == "")
    }

    @Test("relative links are resolved against the base before sanitizing")
    func base() {
        let html = #"<a href="../post/1">p</a> <img src="a.png"> <a href="javascript:x()">j</a>"#
        #expect(
            SafeHTML.sanitize(html, base: "https://example.org/blog/feed/")
                == #"<a href="https://example.org/blog/post/1">p</a> "#
                + #"<img src="https://example.org/blog/feed/a.png"> <a>j</a>"#)
        #expect(SafeHTML.sanitize(#"<a href="a">a</a>"#, base: "not absolute") == #"<a href="a">a</a>"#)
    }

    @Test("nesting deeper than the limit writes no more tags, and every tag opened is closed")
    func depth() {
        let html = String(repeating: "<div>", count: 1000) + "deep" + String(repeating: "</span>", count: 1000)
        let sanitized = SafeHTML.sanitize(html)
        #expect(sanitized == String(repeating: "<div>", count: 100) + "deep" + String(repeating: "</div>", count: 100))
        // Past 1024 open elements the parse stops: what is written so far is closed.
        let deeper = String(repeating: "<div>", count: 5000) + "deep"
        #expect(
            SafeHTML.sanitize(deeper)
                == String(repeating: "<div>", count: 100) + String(repeating: "</div>", count: 100))
    }

    @Test("HTML longer than a piece is sanitized in pieces cut before a tag: balanced markup comes out whole")
    func pieces() {
        let html = String(repeating: #"<p>A <a href="https://example.org/">paragraph</a> of text.</p>"#, count: 5000)
        #expect(html.utf8.count > 4 * 64 * 1024)
        #expect(SafeHTML.sanitize(html) == html)
        let hostile = String(repeating: #"<p onclick="x()">é</p>"#, count: 20000)
        #expect(SafeHTML.sanitize(hostile) == String(repeating: "<p>é</p>", count: 20000))
        // One tag with more attributes than a piece holds: cut, and still nothing runs.
        let attributes = "<p " + (0..<30000).map { "onclick\($0)=x()" }.joined(separator: " ") + ">t</p>"
        #expect(!SafeHTML.sanitize(attributes).contains("<p on"))
    }

    @Test("the feed model's texts: HTML and XHTML sanitized, plain text escaped, titles as they are")
    func model() {
        var item = FeedItem()
        item.description = FeedText(#"<p onclick="x()">d</p>"#, type: .html)
        item.content = FeedText(
            #"<div xmlns="http://www.w3.org/1999/xhtml"><b>c</b><script>x()</script></div>"#,
            type: .xhtml)
        item.title = FeedText("<script>title</script>", type: .text)
        var feed = Feed(format: FeedFormat(.rss, version: "2.0"))
        feed.description = FeedText("<b onmouseover=x()>f</b>", type: .html)
        feed.items = [item]
        feed.sanitizeHTML()
        #expect(feed.description == FeedText("<b>f</b>", type: .html))
        #expect(feed.items[0].description == FeedText("<p>d</p>", type: .html))
        #expect(feed.items[0].content == FeedText("<div><b>c</b></div>", type: .html))
        #expect(feed.items[0].title == FeedText("<script>title</script>", type: .text))
        #expect(FeedText("a <b>", type: .text).sanitizingHTML() == FeedText("a &lt;b&gt;", type: .html))
        #expect(
            FeedText(#"<img src=x onerror="alert('1')"> & co"#, type: .text).sanitizingHTML()
                == FeedText("&lt;img src=x onerror=&quot;alert(&#39;1&#39;)&quot;&gt; &amp; co", type: .html))
        #expect(FeedText("plain, nothing to escape", type: .text).sanitizingHTML().value == "plain, nothing to escape")
        #expect(FeedText("", type: .text).sanitizingHTML() == FeedText("", type: .html))
    }

    @Test("RSS summaries the specification calls plain text are HTML when they look like it, and safe either way")
    func rssPlainTextSummaries() throws {
        let xml = """
            <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd" \
            xmlns:dc="http://purl.org/dc/elements/1.1/"><channel><title>t</title>
            <itunes:summary>&lt;img src=x onerror=alert('channel')&gt;</itunes:summary>
            <item><guid>1</guid><itunes:summary>&lt;p onclick="x()"&gt;Show &lt;b&gt;notes&lt;/b&gt;&lt;/p&gt;</itunes:summary></item>
            <item><guid>2</guid><dc:description>&lt;script&gt;alert('dc')&lt;/script&gt;Fish</dc:description></item>
            <item><guid>3</guid><itunes:summary>1 &lt; 2 and 3 &gt; 2</itunes:summary></item>
            </channel></rss>
            """
        var feed = try Feed(data: Data(xml.utf8))
        #expect(feed.items[0].description?.type == .html)
        #expect(feed.items[2].description?.type == .text)
        feed.sanitizeHTML()
        #expect(feed.description == FeedText(#"<img src="x">"#, type: .html))
        #expect(feed.items[0].description == FeedText("<p>Show <b>notes</b></p>", type: .html))
        #expect(feed.items[1].description == FeedText("Fish", type: .html))
        #expect(feed.items[2].description == FeedText("1 &lt; 2 and 3 &gt; 2", type: .html))
    }

    @Test("the plain-text summary: tags and script gone, references decoded, cut at a word")
    func plainText() {
        let html = "<p>Fish &amp; <b>chips</b></p><script>alert(1)</script><p>with   peas</p>"
        #expect(SafeHTML.plainText(html) == "Fish & chips with peas")
        #expect(SafeHTML.plainText(html, limit: 100) == "Fish & chips with peas")
        #expect(SafeHTML.plainText(html, limit: 15) == "Fish & chips…")
        #expect(SafeHTML.plainText("abcdefghij", limit: 5) == "abcd…")
        #expect(SafeHTML.plainText(html, limit: 0) == "")
    }
}

@Suite("SafeHTML after the reader: links resolved against xml:base and the feed's address first")
struct SafeHTMLReaderTests {
    @Test("a feed's relative links, resolved by the reader, survive sanitizing")
    func resolvedThenSanitized() throws {
        let xml = """
            <rss version="2.0"><channel><title>t</title>
            <item xml:base="https://example.org/posts/"><description><![CDATA[<a href="one" onclick="x()">one</a> \
            <img src="../i.png"> <a href="javascript:x()">j</a>]]></description></item>
            </channel></rss>
            """
        let options = FeedReader.Options(baseURL: URL(string: "https://feeds.example/rss"))
        var feed = try Feed(data: Data(xml.utf8), options: options)
        feed.sanitizeHTML()
        #expect(
            feed.items.first?.description?.value
                == #"<a href="https://example.org/posts/one">one</a> <img src="https://example.org/i.png"> <a>j</a>"#)
    }
}
