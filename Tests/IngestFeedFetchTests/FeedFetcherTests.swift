import Foundation
import IngestFeedFetch
import IngestFeeds
import LoopbackHTTPServer
import Testing

/// IngestFeedFetch's public API against a real HTTP server on 127.0.0.1.
@Suite("FeedFetcher: conditional GET, moves, limits")
struct FeedFetcherTests {
    let server: LoopbackHTTPServer

    init() throws {
        server = try LoopbackHTTPServer()
    }

    static func rss(_ titles: [String]) -> String {
        "<rss version=\"2.0\"><channel><title>T</title>"
            + titles.map { "<item><guid>\($0)</guid><title>\($0)</title></item>" }.joined() + "</channel></rss>"
    }

    func url(_ path: String) -> URL { URL(string: server.url(path))! }

    /// `body` with a fetcher configured by `configure`, shut down after.
    ///
    /// It waits a minute for an answer: the loopback server answers at once, but under
    /// ThreadSanitizer, with every suite at once on two cores, answers took over 5 s.
    func withFetcher<T>(
        _ configure: (inout FeedFetcher.Configuration) -> Void = { _ in },
        _ body: (FeedFetcher) async throws -> T
    ) async throws -> T {
        var configuration = FeedFetcher.Configuration(timeout: .seconds(60))
        configure(&configuration)
        let fetcher = FeedFetcher(configuration: configuration)
        do {
            let result = try await body(fetcher)
            try await fetcher.shutdown()
            return result
        } catch {
            try await fetcher.shutdown()
            throw error
        }
    }

    @Test("200 with every item, then 304 by ETag; the User-Agent names the project")
    func notModified() async throws {
        var route = LoopbackHTTPServer.Route.feed(
            Self.rss(["a", "b"]), headers: [("ETag", "\"v1\""), ("Cache-Control", "max-age=600")])
        route.notModifiedForETag = "\"v1\""
        server.route("/feed.xml", route)
        try await withFetcher { fetcher in
            let first = try await fetcher.fetch(FeedRequest(url: url("/feed.xml")))
            #expect(first.feed?.items.map(\.title) == ["a", "b"])
            #expect(first.response.etag == "\"v1\"")
            #expect(first.response.status == 200)
            #expect(first.response.move == nil)
            let record = first.response.archiveRecord
            #expect(record.expires.map { $0.timeIntervalSince(record.date) } == 600)
            let second = try await fetcher.fetch(first.response.nextRequest)
            guard case .notModified(let response) = second else {
                Issue.record("expected not modified, got \(second)")
                return
            }
            #expect(response.status == 304)
        }
        let requests = server.requests("/feed.xml")
        #expect(requests.map { $0.header("If-None-Match") } == [nil, "\"v1\""])
        #expect(requests[0].header("User-Agent") == FeedFetcher.defaultUserAgent)
        #expect(FeedFetcher.defaultUserAgent.contains("ingest"))
    }

    @Test("a 304 to a request without validators is a temporary failure")
    func notModifiedWithoutValidators() async throws {
        server.route("/odd.xml", LoopbackHTTPServer.Route(status: .notModified))
        await #expect { try await withFetcher { try await $0.fetch(FeedRequest(url: url("/odd.xml"))) } } throws: {
            error in
            let error = error as? FeedFetchError
            return error?.kind == .notModifiedWithoutValidators && error?.isTemporary == true
        }
    }

    @Test("301 then 308 moves the feed for good; a 302 on the way makes the move temporary")
    func moves() async throws {
        server.route("/old.xml", .redirect(.movedPermanently, to: "/older.xml"))
        server.route("/older.xml", .redirect(.permanentRedirect, to: "/new.xml"))
        server.route("/hop.xml", .redirect(.found, to: "/old.xml"))
        server.route("/new.xml", .feed(Self.rss(["n"])))
        try await withFetcher { fetcher in
            let permanent = try await fetcher.fetch(FeedRequest(url: url("/old.xml"))).response
            #expect(permanent.move == FeedMove(url: url("/new.xml"), isPermanent: true))
            #expect(permanent.permanentURL == url("/new.xml"))
            #expect(permanent.requestedURL == url("/old.xml"))
            let temporary = try await fetcher.fetch(FeedRequest(url: url("/hop.xml"))).response
            #expect(temporary.move == FeedMove(url: url("/new.xml"), isPermanent: false))
            #expect(temporary.permanentURL == url("/hop.xml"))
        }
    }

    @Test("an HTML page is read for the feed it advertises, as a permanent move")
    func advertised() async throws {
        server.route(
            "/page",
            .feed(
                #"<html><head><link rel="alternate" type="application/rss+xml" href="/f.xml"></head></html>"#,
                type: "text/html"))
        server.route("/f.xml", .feed(Self.rss(["x"])))
        try await withFetcher { fetcher in
            let result = try await fetcher.fetch(FeedRequest(url: url("/page")))
            #expect(result.feed?.items.count == 1)
            #expect(result.response.discoveredFeed?.url == server.url("/f.xml"))
            #expect(result.response.permanentURL == url("/f.xml"))
            #expect(try await fetcher.advertisedFeeds(at: url("/page"))?.map(\.url) == [server.url("/f.xml")])
            #expect(try await fetcher.advertisedFeeds(at: url("/f.xml")) == nil)
        }
    }

    @Test("a body past the byte limit ends with tooLarge; a limit as large lets it through")
    func byteLimit() async throws {
        let titles = (0..<2000).map { "item \($0)" }
        server.route("/big.xml", .feed(Self.rss(titles)))
        await #expect {
            try await withFetcher({ $0.maxBodyBytes = 10_000 }) {
                try await $0.fetch(FeedRequest(url: url("/big.xml")))
            }
        } throws: { ($0 as? FeedFetchError)?.kind == .tooLarge && ($0 as? FeedFetchError)?.isTemporary == false }
        let whole = try await withFetcher { try await $0.fetch(FeedRequest(url: url("/big.xml"))) }
        #expect(whole.feed?.items.count == 2000)
    }

    @Test("items stream to the handler as they are read; its error ends the fetch as it is")
    func streaming() async throws {
        struct Enough: Error {}
        server.route("/s.xml", .feed(Self.rss(["1", "2", "3"])))
        let seen = Seen()
        await #expect(throws: Enough.self) {
            try await withFetcher { fetcher in
                try await fetcher.fetch(FeedRequest(url: url("/s.xml"))) { item, _ in
                    seen.add(item.title?.plainText ?? "")
                    if seen.all.count == 2 { throw Enough() }
                }
            }
        }
        #expect(seen.all == ["1", "2"])
    }

    @Test("at most maxFetchesPerHost fetches from one host at a time")
    func perHost() async throws {
        for index in 0..<4 {
            var route = LoopbackHTTPServer.Route.feed(Self.rss(["\(index)"]))
            route.delay = .milliseconds(150)
            server.route("/h\(index).xml", route)
        }
        let counts = try await withFetcher({ $0.maxFetchesPerHost = 1 }) { fetcher in
            try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<4 {
                    group.addTask {
                        try await fetcher.fetch(FeedRequest(url: url("/h\(index).xml"))).feed?.items.count ?? 0
                    }
                }
                return try await group.reduce(0, +)
            }
        }
        #expect(counts == 4)
        #expect(server.mostConcurrent == 1)
    }

    @Test("HTTP statuses: 404 lasting, 503 temporary with its Retry-After; a trickle ends at maxTime")
    func failures() async throws {
        server.route(
            "/busy.xml", LoopbackHTTPServer.Route(status: .serviceUnavailable, headers: [("Retry-After", "120")]))
        var trickle = LoopbackHTTPServer.Route.feed(Self.rss((0..<50).map { "t\($0)" }))
        trickle.piece = 64
        trickle.pause = .milliseconds(100)
        server.route("/trickle.xml", trickle)
        try await withFetcher { fetcher in
            do {
                _ = try await fetcher.fetch(FeedRequest(url: url("/none.xml")))
                Issue.record("404 gave a feed")
            } catch let error as FeedFetchError {
                #expect(error.kind == .httpStatus && error.status == 404 && !error.isTemporary)
                #expect(error.description == "\(server.url("/none.xml")): HTTP 404 Not Found")
            }
            do {
                _ = try await fetcher.fetch(FeedRequest(url: url("/busy.xml")))
                Issue.record("503 gave a feed")
            } catch let error as FeedFetchError {
                #expect(error.isTemporary)
                let now = Date()
                #expect(error.retryAfter(at: now) == now.addingTimeInterval(120))
            }
        }
        // The trickle takes about four seconds to send in all.
        try await withFetcher({ $0.maxTime = .seconds(1) }) { fetcher in
            do {
                _ = try await fetcher.fetch(FeedRequest(url: url("/trickle.xml")))
                Issue.record("the trickle gave a feed")
            } catch let error as FeedFetchError {
                #expect(error.kind == .timedOut, "\(error)")
                #expect(error.message == "not read within 1 s in all (timed out)")
            }
        }
    }
}

/// Titles seen by an item handler.
private final class Seen: @unchecked Sendable {
    private let lock = NSLock()
    private var titles: [String] = []

    func add(_ title: String) {
        lock.lock()
        titles.append(title)
        lock.unlock()
    }

    var all: [String] {
        lock.lock()
        defer { lock.unlock() }
        return titles
    }
}
