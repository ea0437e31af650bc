import IngestTestSupport
import Testing
@testable import IngestFeeds

/// The sanitizer's shortcut: HTML that ``AlreadySafeHTML`` recognises is returned
/// without parsing, which is only right if libxml2's sanitizer would have returned
/// it unchanged too. Checked against the sanitizer itself on generated fragments.
@Suite("SafeHTML's shortcut for plain paragraphs")
struct AlreadySafeHTMLTests {
    private static func recognised(_ html: String) -> Bool {
        var html = html
        return html.withUTF8(AlreadySafeHTML.holds)
    }

    /// The slow path: libxml2's parser and the allow-list, always.
    private static func parsed(_ html: String) -> String { HTMLSanitizer.sanitize(html) }

    @Test("What a feed's description usually is: recognised, and the sanitizer agrees")
    func commonDescriptions() {
        let fragments = [
            "<p>Sail rope oar quay.</p><p>Ferry &amp; keel.</p>",
            "<p>One</p>\n<p>Two</p>\n",
            "Text before <em>a word</em> and after.<br>Next line",
            "<p><strong>Bold <em>and italic</em></strong> &lt;tag&gt; <code>x &amp;&amp; y</code></p>",
            "<p>Ünïcödé — “quotes” 日本語 🚀</p>",
            "\t<p>tab</p>  ",
            "<p></p>"
        ]
        for fragment in fragments {
            #expect(Self.recognised(fragment), "\(fragment)")
            #expect(Self.parsed(fragment) == fragment, "\(fragment)")
            #expect(SafeHTML.sanitize(fragment) == fragment)
        }
    }

    @Test(
        "Anything outside the subset goes to the sanitizer",
        arguments: [
            "<p class=\"x\">attribute</p>", "<P>uppercase</P>", "<p >space</p>", "<em><p>block in inline</p></em>",
            "<p><p>nested</p></p>", "<p>unclosed", "</p>", "<em>crossed<strong></em></strong>", "a > b",
            "&quot;quoted&quot;", "&nbsp;", "&#60;", "line\r\nbreak", "<br/>", "</br>", "<script>x()</script>",
            "<!-- comment -->", "<img src=x onerror=alert(1)>", "nul\u{0}", "bad\u{FFFE}char", "<>", "<a>link</a>",
            "&amp", "<p>" + String(repeating: "<em>", count: 20) + String(repeating: "</em>", count: 20) + "</p>"
        ])
    func outsideTheSubset(_ fragment: String) {
        #expect(!Self.recognised(fragment))
    }

    @Test(
        "A byte outside the subset is seen at any place in a run of plain text, read eight bytes at a time",
        arguments: ["<", ">", "&", "\r", "\u{1}", "\u{7F}", "\u{FFFE}", "\u{FFFF}"])
    func strayAtEveryPlace(_ stray: String) {
        for length in 0..<24 {
            for place in 0...length {
                let plain =
                    String(repeating: "a", count: place) + "é\t\n" + String(repeating: "z", count: length - place)
                #expect(Self.recognised(plain), "\(plain)")
                let spoiled =
                    String(repeating: "a", count: place) + stray + String(repeating: "z", count: length - place)
                #expect(!Self.recognised(spoiled), "\(stray.unicodeScalars.map(\.value)) at \(place) of \(length)")
            }
        }
        // U+EFBF is not a noncharacter: its first byte, 0xEE, is not looked at.
        #expect(Self.recognised(String(repeating: "a", count: 9) + "\u{EFBF}\u{FFFD}" + "bcdefghij"))
    }

    @Test("Generated fragments: whatever the shortcut recognises, the sanitizer gives back unchanged")
    func agreesWithTheSanitizer() {
        var random = SeededGenerator(seed: 0x5AFE_4747)
        let texts = [
            " ", "\n", "\t", "word", "é", "—", "日本", "x y", "  \n  ", ".", "\"", "'", "=", "/", "&amp;", "&lt;", "&gt;"
        ]
        let inline = ["em", "strong", "b", "i", "code", "u", "s", "small", "sub", "sup", "q", "span"]
        let strays = ["<p>", "</em>", "<br>", "<div>", "&quot;", ">", "\r", "<P>", "</p>"]

        func text() -> String {
            (0..<Int.random(in: 1...3, using: &random)).map { _ in texts.randomElement(using: &random)! }.joined()
        }
        func inlineContent(depth: Int) -> String {
            var html = ""
            for _ in 0..<Int.random(in: 0...4, using: &random) {
                switch Int.random(in: 0..<6, using: &random) {
                case 0, 1, 2: html += text()
                case 3: html += "<br>"
                default:
                    guard depth < 6 else {
                        html += text()
                        continue
                    }
                    let name = inline.randomElement(using: &random)!
                    html += "<\(name)>" + inlineContent(depth: depth + 1) + "</\(name)>"
                }
            }
            return html
        }
        func fragment() -> String {
            var html = ""
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                switch Int.random(in: 0..<3, using: &random) {
                case 0: html += text()
                case 1: html += "<p>" + inlineContent(depth: 1) + "</p>"
                default: html += inlineContent(depth: 0)
                }
            }
            return html
        }

        var recognisedCount = 0, checked = 0
        for round in 0..<3_000 {
            var html = fragment()
            if round % 3 == 0 {
                // A stray piece somewhere: mostly outside the subset, sometimes not.
                let offsets = Array(html.indices) + [html.endIndex]
                html.insert(
                    contentsOf: strays.randomElement(using: &random)!, at: offsets.randomElement(using: &random)!)
            }
            checked += 1
            guard Self.recognised(html) else { continue }
            recognisedCount += 1
            let parsed = Self.parsed(html)
            #expect(
                parsed == html,
                "the shortcut would return \(html.debugDescription), the sanitizer \(parsed.debugDescription)")
        }
        #expect(recognisedCount > checked / 2, "the generator reaches the subset often enough to test it")
        #expect(recognisedCount < checked, "and leaves it too")
    }
}
