import Foundation

/// Jobs waiting to be fetched, handed out in the order given but at most
/// `perHost` at a time from one host: a job whose host is busy lets the next job
/// of another host go first. Each hand-out and each ``finished(_:)`` costs O(hosts).
///
/// A scheduler for many feeds at once: take ``next()`` while there is room
/// overall, call ``finished(_:)`` with the host of each fetch that ends.
public struct HostQueues<Job> {
    private let perHost: Int
    /// The jobs of each host, with their places in the order given, handed out up
    /// to `heads`; `hosts`, those with some left, in the order their first job came.
    private var queues: [String: [(order: Int, job: Job)]] = [:]
    private var heads: [String: Int] = [:]
    private var hosts: [String] = []
    /// The fetches under way, by host.
    private var running: [String: Int] = [:]

    /// The jobs in the order to start them, `host` naming each one's host
    /// (``host(of:)`` of its URL), at most `perHost` (at least 1) of a host at a time.
    public init(_ jobs: [Job], perHost: Int, host: (Job) -> String) {
        self.perHost = max(1, perHost)
        for (order, job) in jobs.enumerated() {
            let name = host(job)
            if queues[name] == nil { hosts.append(name) }
            queues[name, default: []].append((order, job))
        }
    }

    /// What counts as one host: the URL's host, lowercased (the port apart).
    public static func host(of url: URL) -> String {
        (url.host ?? "").lowercased()
    }

    /// The next job to start and its host: the earliest given of those whose host
    /// has room; `nil` when none has.
    public mutating func next() -> (job: Job, host: String)? {
        var chosen: (host: String, order: Int)?
        for host in hosts where running[host, default: 0] < perHost {
            guard let entry = queues[host]?[heads[host, default: 0]] else { continue }
            if chosen.map({ entry.order < $0.order }) ?? true { chosen = (host, entry.order) }
        }
        guard let host = chosen?.host, let queue = queues[host] else { return nil }
        let head = heads[host, default: 0]
        heads[host] = head + 1
        running[host, default: 0] += 1
        if head + 1 == queue.count {
            // Every job of the host handed out: it no longer needs scanning.
            queues[host] = nil
            hosts.removeAll { $0 == host }
        }
        return (queue[head].job, host)
    }

    /// A fetch from `host` is over: the host has room for one more.
    public mutating func finished(_ host: String) {
        running[host, default: 1] -= 1
    }
}
