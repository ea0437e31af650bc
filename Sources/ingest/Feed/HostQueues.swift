import Foundation

/// The URLs of a run waiting to be fetched, handed out in the order given but at most
/// `perHost` at a time from one host: a URL whose host is busy lets the next URL of
/// another host go first. Each hand-out and each ``finished(_:)`` costs O(hosts).
struct HostQueues {
    typealias Job = (FeedJob, FeedFetcher.Plan)

    private let perHost: Int
    /// The URLs of each host, handed out up to `heads`; `hosts`, those with some
    /// left, in the order their first URL came.
    private var queues: [String: [Job]] = [:]
    private var heads: [String: Int] = [:]
    private var hosts: [String] = []
    /// The fetches under way, by host.
    private var running: [String: Int] = [:]

    init(_ jobs: [Job], perHost: Int) {
        self.perHost = max(1, perHost)
        for job in jobs {
            let host = Self.host(of: job.1)
            if queues[host] == nil { hosts.append(host) }
            queues[host, default: []].append(job)
        }
    }

    /// What counts as one host: the URL's host, lowercased (the port apart).
    static func host(of plan: FeedFetcher.Plan) -> String {
        (plan.url.host ?? "").lowercased()
    }

    /// The next URL to fetch: the earliest given of those whose host has room;
    /// `nil` when none has.
    mutating func next() -> Job? {
        var chosen: (host: String, index: Int)?
        for host in hosts where running[host, default: 0] < perHost {
            guard let job = queues[host]?[heads[host, default: 0]] else { continue }
            if chosen.map({ job.0.index < $0.index }) ?? true { chosen = (host, job.0.index) }
        }
        guard let host = chosen?.host, let queue = queues[host] else { return nil }
        let head = heads[host, default: 0]
        heads[host] = head + 1
        running[host, default: 0] += 1
        if head + 1 == queue.count {
            // Every URL of the host handed out: it no longer needs scanning.
            queues[host] = nil
            hosts.removeAll { $0 == host }
        }
        return queue[head]
    }

    /// A fetch from `host` is over: the host has room for one more.
    mutating func finished(_ host: String) {
        running[host, default: 1] -= 1
    }
}
