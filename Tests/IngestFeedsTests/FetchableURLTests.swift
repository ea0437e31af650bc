import Foundation
import IngestFeeds
import Testing

@Suite("FetchableURL: what an HTTP client may be given")
struct FetchableURLTests {
    /// The message `check` throws for `text`, or nil when it passes.
    func problem(_ text: String) throws -> String? {
        let url = try #require(URL(string: text))
        do {
            try FetchableURL.check(url)
            return nil
        } catch {
            return error.description
        }
    }

    @Test(
        "http and https with a host pass, with or without a port from 1 to 65535",
        arguments: [
            "http://example.org/feed.xml", "HTTPS://example.org/", "http://127.0.0.1:1/", "http://127.0.0.1:65535/x",
            "http://user@example.org:8080/", "http://[::1]:8080/", "http://example.org:/", "http://example.org:0080/"
        ])
    func valid(_ text: String) throws {
        #expect(try problem(text) == nil)
    }

    @Test("a port past 65535 or 0 is out of range, whether Foundation reads it as a number or not")
    func portOutOfRange() throws {
        #expect(
            try problem("http://127.0.0.1:99999/")
                == "invalid URL http://127.0.0.1:99999/: port 99999 is out of range 1-65535")
        #expect(
            try problem("http://example.org:99999/")
                == "invalid URL http://example.org:99999/: port 99999 is out of range 1-65535")
        #expect(
            try problem("http://example.org:65536/")
                == "invalid URL http://example.org:65536/: port 65536 is out of range 1-65535")
        #expect(
            try problem("http://example.org:0/") == "invalid URL http://example.org:0/: port 0 is out of range 1-65535")
        #expect(
            try problem("http://u@[::1]:70000/")
                == "invalid URL http://u@[::1]:70000/: port 70000 is out of range 1-65535")
        // Foundation's `port` is nil here: the client would take port 80.
        #expect(
            try problem("http://example.org:99999999999999999999/")
                == "invalid URL http://example.org:99999999999999999999/: port 99999999999999999999 is out of range 1-65535"
        )
    }

    @Test("no host, or a scheme other than http and https")
    func hostAndScheme() throws {
        #expect(try problem("http:///x") == "invalid URL http:///x: it has no host")
        #expect(try problem("http://:8080/x") == "invalid URL http://:8080/x: it has no host")
        #expect(
            try problem("ftp://example.org/feed.xml")
                == "invalid URL ftp://example.org/feed.xml: the scheme ftp is not http or https")
        #expect(try problem("/feed.xml") == "invalid URL /feed.xml: it has no scheme (expected http or https)")
    }
}
