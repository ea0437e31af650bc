import IngestFeeds
import Testing

@Suite("RFC 3986 reference resolution")
struct URIReferenceTests {
    static let base = "http://a/b/c/d;p?q"

    /// RFC 3986 section 5.4.1, normal examples.
    static let normal: [(String, String)] = [
        ("g:h", "g:h"), ("g", "http://a/b/c/g"), ("./g", "http://a/b/c/g"), ("g/", "http://a/b/c/g/"),
        ("/g", "http://a/g"), ("//g", "http://g"), ("?y", "http://a/b/c/d;p?y"), ("g?y", "http://a/b/c/g?y"),
        ("#s", "http://a/b/c/d;p?q#s"), ("g#s", "http://a/b/c/g#s"), ("g?y#s", "http://a/b/c/g?y#s"),
        (";x", "http://a/b/c/;x"), ("g;x", "http://a/b/c/g;x"), ("g;x?y#s", "http://a/b/c/g;x?y#s"),
        ("", "http://a/b/c/d;p?q"), (".", "http://a/b/c/"), ("./", "http://a/b/c/"), ("..", "http://a/b/"),
        ("../", "http://a/b/"), ("../g", "http://a/b/g"), ("../..", "http://a/"), ("../../", "http://a/"),
        ("../../g", "http://a/g")
    ]

    /// RFC 3986 section 5.4.2, abnormal examples (strict parser: `http:g` stays).
    static let abnormal: [(String, String)] = [
        ("../../../g", "http://a/g"), ("../../../../g", "http://a/g"), ("/./g", "http://a/g"),
        ("/../g", "http://a/g"), ("g.", "http://a/b/c/g."), (".g", "http://a/b/c/.g"), ("g..", "http://a/b/c/g.."),
        ("..g", "http://a/b/c/..g"), ("./../g", "http://a/b/g"), ("./g/.", "http://a/b/c/g/"),
        ("g/./h", "http://a/b/c/g/h"), ("g/../h", "http://a/b/c/h"), ("g;x=1/./y", "http://a/b/c/g;x=1/y"),
        ("g;x=1/../y", "http://a/b/c/y"), ("g?y/./x", "http://a/b/c/g?y/./x"), ("g?y/../x", "http://a/b/c/g?y/../x"),
        ("g#s/./x", "http://a/b/c/g#s/./x"), ("g#s/../x", "http://a/b/c/g#s/../x"), ("http:g", "http:g")
    ]

    @Test("section 5.4.1", arguments: normal)
    func normalExample(_ reference: String, _ expected: String) {
        #expect(URIReference.resolve(reference, against: Self.base) == expected)
    }

    @Test("section 5.4.2", arguments: abnormal)
    func abnormalExample(_ reference: String, _ expected: String) {
        #expect(URIReference.resolve(reference, against: Self.base) == expected)
    }

    @Test("a base that is not absolute leaves references alone; components split as appendix B says")
    func splitting() {
        #expect(URIReference.resolve("g", against: "/relative/base") == "g")
        let reference = URIReference("https://user@example.org:8080/a/b?c=d#e")
        #expect(reference.scheme == "https")
        #expect(reference.authority == "user@example.org:8080")
        #expect(reference.path == "/a/b")
        #expect(reference.query == "c=d")
        #expect(reference.fragment == "e")
        #expect(reference.text == "https://user@example.org:8080/a/b?c=d#e")
        #expect(URIReference.resolve("x", against: "http://example.org") == "http://example.org/x")
    }
}
