import Foundation
import NIOCore
import PostgresTestServer
import LoopbackHTTPServer
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Several `ingest feed --due --to postgres` runs at once on one archive, as cron
/// starts them on many hosts: each due feed is fetched by exactly one run, and a run
/// killed mid-way holds its feeds only until their leases end.
@Suite(
    "ingest feed --due: a fleet of runs on one PostgreSQL archive",
    .enabled(
        if: TestPostgresServer.enabled, "needs PostgreSQL's server programs (Debian's postgresql package), or CI set"))
struct FeedFleetTests {
    static let feeds = 200

    /// A loopback server with `feeds` feeds of two items each, every one answering
    /// after `delay`, and an OPML file in `box` that lists them.
    static func serve(in box: Sandbox, delay: TimeAmount) throws -> LoopbackHTTPServer {
        let http = try LoopbackHTTPServer()
        var outlines = ""
        for index in 0..<feeds {
            var route = LoopbackHTTPServer.Route.feed(
                feedText(
                    [("\(index)a", "A", "one"), ("\(index)b", "B", "two")],
                    title: "Feed \(index)"))
            route.delay = delay
            http.route("/f\(index).xml", route)
            outlines += #"<outline text="Feed \#(index)" type="rss" xmlUrl="\#(http.url("/f\(index).xml"))"/>"#
        }
        try box.write("subs.opml", #"<?xml version="1.0"?><opml version="2.0"><head/><body>\#(outlines)</body></opml>"#)
        return http
    }

    /// How many times the server was asked for each feed, by index.
    static func requestCounts(_ http: LoopbackHTTPServer) -> [Int: Int] {
        var counts: [Int: Int] = [:]
        for request in http.requests {
            guard request.path.hasPrefix("/f"), let index = Int(request.path.dropFirst(2).dropLast(4)) else { continue }
            counts[index, default: 0] += 1
        }
        return counts
    }

    @Test("four runs share 200 due feeds: each fetched once, every item archived once")
    func fourRunsShareTheDueFeeds() throws {
        let (server, database, uri) = try PostgresCLITests.database("feed_fleet")
        let box = try Sandbox()
        let http = try Self.serve(in: box, delay: .milliseconds(20))
        let run = [
            "feed", "--opml", "subs.opml", "--due", "--to", "postgres", "--db", uri, "--jobs", "4", "--timeout", "10"
        ]

        let runs = try box.runConcurrently(Array(repeating: run, count: 4))

        for result in runs { #expect(result.status == 0, "\(result)") }
        let counts = Self.requestCounts(http)
        #expect(counts.count == Self.feeds, "every feed fetched")
        #expect(counts.values.allSatisfy { $0 == 1 }, "none twice: \(counts.filter { $0.value > 1 })")
        #expect(
            try server.psql(
                """
                SELECT (SELECT count(*) FROM feeds), (SELECT count(*) FROM feeds WHERE last_status = 200),
                       (SELECT count(*) FROM items), (SELECT count(DISTINCT worker) > 1 FROM feed_leases)
                """, database: database) == [["200", "200", "400", "t"]], "the runs shared the work")
        let told = runs.map(\.stderr).joined()
        #expect(told.isEmpty, "silent off a terminal: \(told)")

        // Right after, nothing is due: a fifth run fetches nothing.
        let again = try box.run(run + ["-v"])
        #expect(again.status == 0, "\(again)")
        #expect(again.stderr.contains("200 not due"), "\(again)")
        #expect(http.requests.count == Self.feeds)
    }

    @Test("a run killed mid-way blocks nobody; its feeds are fetched once its leases end")
    func aKilledRunLosesNothing() throws {
        let (server, database, uri) = try PostgresCLITests.database("feed_fleet_kill")
        let box = try Sandbox()
        let http = try Self.serve(in: box, delay: .milliseconds(40))
        let arguments = [
            "feed", "--opml", box.path("subs.opml"), "--due", "--to", "postgres", "--db", uri,
            "--jobs", "4", "--timeout", "10"
        ]
        let binary = try Locations.requireIngest().path

        let victim = try spawnWithSignalsUnblocked(binary, arguments)
        let others = try (0..<3).map { _ in try spawnWithSignalsUnblocked(binary, arguments) }
        // Kill one run once the fleet is well under way.
        let deadline = Date().addingTimeInterval(60)
        while http.requests.count < 30, Date() < deadline { usleep(2_000) }
        kill(victim, SIGKILL)
        var status: Int32 = 0
        waitpid(victim, &status, 0)
        for pid in others {
            let status = waitForExit(pid, within: 120)
            #expect(
                status == 0, "a run sharing the archive with a killed one ends, and well: \(String(describing: status))"
            )
        }
        let beforeRecovery = Self.requestCounts(http)
        #expect(
            beforeRecovery.values.allSatisfy { $0 == 1 },
            "no feed fetched twice: \(beforeRecovery.filter { $0.value > 1 })")

        // The killed run's leases end (here: now, rather than in 200 s).
        let held = try server.psql(
            """
            SELECT count(*)::text FROM feed_leases l JOIN feeds f ON f.id = l.feed_id
            WHERE l.worker LIKE '%:\(victim)' AND f.last_fetched IS NULL
            """, database: database)[0][0]
        try server.psql("UPDATE feed_leases SET until = now() WHERE worker LIKE '%:\(victim)'", database: database)
        let recovery = try box.run(["feed", "--opml", "subs.opml", "--due", "--to", "postgres", "--db", uri, "-v"])

        #expect(recovery.status == 0, "\(recovery)")
        #expect(
            recovery.stderr.contains("\(Self.feeds - Int(held ?? "0")!) not due"),
            "only the killed run's unfinished feeds: \(recovery)")
        let counts = Self.requestCounts(http)
        #expect(counts.count == Self.feeds, "every feed fetched in the end")
        #expect(counts.values.allSatisfy { $0 <= 2 }, "\(counts.filter { $0.value > 2 })")
        #expect(
            try server.psql(
                """
                SELECT (SELECT count(*) FROM feeds WHERE last_status = 200), (SELECT count(*) FROM items),
                       (SELECT count(*) FROM (SELECT guid FROM items GROUP BY guid HAVING count(*) > 1) twice)
                """, database: database) == [["200", "400", "0"]], "every feed archived, every item once")
    }
}
