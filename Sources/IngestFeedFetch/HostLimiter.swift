/// At most so many fetches from one host at a time, for the fetches a
/// ``FeedFetcher`` is asked for at once: the others wait their turn, first come
/// first served.
actor HostLimiter {
    private let perHost: Int
    private var running: [String: Int] = [:]
    private var waiting: [String: [CheckedContinuation<Void, Never>]] = [:]

    init(perHost: Int) {
        self.perHost = max(1, perHost)
    }

    /// Waits until `host` has room, then takes it.
    func acquire(_ host: String) async {
        if running[host, default: 0] < perHost {
            running[host, default: 0] += 1
            return
        }
        await withCheckedContinuation { waiting[host, default: []].append($0) }
    }

    /// A fetch from `host` is over: its room goes to the first waiting, if any.
    func release(_ host: String) {
        if var queue = waiting[host], !queue.isEmpty {
            let next = queue.removeFirst()
            waiting[host] = queue.isEmpty ? nil : queue
            next.resume()
        } else {
            running[host, default: 1] -= 1
            if running[host] == 0 { running[host] = nil }
        }
    }
}
