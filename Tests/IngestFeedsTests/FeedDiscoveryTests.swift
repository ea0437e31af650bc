import IngestFeeds
import Testing

/// Feed autodiscovery from HTML pages (issue 25): link order, relative addresses
/// and `<base>`, several feeds, none, and what is not an advertisement.
@Suite("FeedDiscovery: the feeds a page advertises")
struct FeedDiscoveryTests {
    static let page = "https://site.example/blog/post.html"

    func urls(_ html: String, page: String? = page) -> [String] {
        FeedDiscovery.feeds(inHTML: html, pageURL: page).map(\.url)
    }

    @Test("several feeds, in the page's order, each with its type and title; relative addresses resolved")
    func several() {
        let html = """
            <!DOCTYPE html><html><head><title>Blog</title>
            <link rel="stylesheet" href="/style.css">
            <link rel="alternate" type="application/rss+xml" title="RSS &amp; more" href="feed.xml">
            <LINK REL="Alternate" TYPE="application/atom+xml; charset=utf-8" HREF="/atom.xml?a=1&amp;b=2">
            <link rel='alternate' type='application/feed+json' href='//cdn.example/feed.json'>
            <link rel="alternate" hreflang="fr" type="text/html" href="/fr/">
            </head><body></body></html>
            """
        let feeds = FeedDiscovery.feeds(inHTML: html, pageURL: Self.page)
        #expect(
            feeds == [
                DiscoveredFeed(
                    url: "https://site.example/blog/feed.xml", type: "application/rss+xml", title: "RSS & more"),
                DiscoveredFeed(url: "https://site.example/atom.xml?a=1&b=2", type: "application/atom+xml"),
                DiscoveredFeed(url: "https://cdn.example/feed.json", type: "application/feed+json")
            ])
    }

    @Test("<base href> is the base, itself resolved against the page; only the first counts")
    func base() {
        let html =
            #"<head><base href="/feeds/"><base href="https://other.example/"><link rel="alternate" type="application/rss+xml" href="rss"></head>"#
        #expect(urls(html) == ["https://site.example/feeds/rss"])
        #expect(urls(html, page: nil) == ["/feeds/rss"])
    }

    @Test("rel must hold the token alternate; the same address once; links in scripts and comments are no links")
    func notAdvertised() {
        let html = """
            <link rel="alternative" type="application/rss+xml" href="/a">
            <link rel="home alternate" type="application/rss+xml" href="/b">
            <link rel="alternate" type="application/rss+xml" href="/b">
            <link rel="alternate" type="application/rss+xml">
            <link rel="alternate" type="application/rss+xml" href="  ">
            <script>document.write('<link rel="alternate" type="application/rss+xml" href="/c">')</script>
            <!-- <link rel="alternate" type="application/rss+xml" href="/d"> -->
            <link rel=alternate type=application/rss+xml href=/e>
            """
        #expect(urls(html) == ["https://site.example/b", "https://site.example/e"])
    }

    @Test("a page without feeds, and text that is no HTML, give none")
    func none() {
        #expect(urls("<html><head><title>x</title></head><body><a href=feed.xml>feed</a></body></html>") == [])
        #expect(urls("") == [])
        #expect(urls("<link rel=\"alternate\" type=\"application/rss+xml\" href=\"/x\"") == [], "an unfinished tag")
    }

    @Test("looksLikeHTML: a doctype or <html> after white space, a BOM and comments; a feed is not")
    func sniffing() {
        #expect(FeedDiscovery.looksLikeHTML(Array("<!DOCTYPE html>\n<html>".utf8)))
        #expect(FeedDiscovery.looksLikeHTML([0xEF, 0xBB, 0xBF] + Array("\n  <!-- hi --><HTML lang=en>".utf8)))
        #expect(!FeedDiscovery.looksLikeHTML(Array("<?xml version=\"1.0\"?><rss version=\"2.0\">".utf8)))
        #expect(!FeedDiscovery.looksLikeHTML(Array("{\"version\": \"https://jsonfeed.org/version/1.1\"}".utf8)))
        #expect(!FeedDiscovery.looksLikeHTML(Array("<!-- never closed".utf8)))
        #expect(!FeedDiscovery.looksLikeHTML([UInt8]()))
    }
}
