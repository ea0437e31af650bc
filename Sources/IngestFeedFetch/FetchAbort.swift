import Foundation

/// The whole-fetch timeout's hold on a fetch: once it ``fire()``s, the body being
/// read (if any) ends with the timeout, and a body attached later at once.
final class FetchAbort: @unchecked Sendable {
    private let lock = NSLock()
    private let failure: FeedFetchError
    // Guarded by `lock`:
    private var body: BodyPipe?
    private var isFired = false

    init(_ failure: FeedFetchError) {
        self.failure = failure
    }

    /// Whether the timeout came.
    var fired: Bool {
        lock.lock()
        defer { lock.unlock() }
        return isFired
    }

    /// The body now being read.
    func attach(_ body: BodyPipe) {
        lock.lock()
        self.body = body
        let fired = isFired
        lock.unlock()
        if fired { cut(body) }
    }

    /// The time is up.
    func fire() {
        lock.lock()
        isFired = true
        let body = self.body
        lock.unlock()
        if let body { cut(body) }
    }

    /// The reader gets the timeout next; a task waiting to hand it more stops.
    private func cut(_ body: BodyPipe) {
        body.finish(failure)
        body.close()
    }
}
