import Foundation
import IngestKit

/// One source's read, handed from the task that fetches it to the thread that
/// writes it (see ``FeedRun``).
///
/// The fetch ``begin(_:)``s once the response is known, ``deliver(_:_:)``s items
/// as they are parsed (on the thread parsing its body) and ``end(_:)``s with the whole feed, a failure or "not
/// modified". The writer ``next()``s them in order, blocking. Until the writer
/// takes the job, items wait here (so a small feed is fetched while others are
/// written); once it has, at most ``threshold`` wait and the fetching task waits
/// for room, so a large feed streams in flat memory. A job is handed to the writer
/// (``FeedJobQueue``) when it ends or when ``threshold`` items are waiting.
final class FeedJob: @unchecked Sendable {
    /// How a read ended.
    enum Ending: Sendable {
        /// The feed, read to its end, without items. Boxed: a run holds a job for
        /// every source from its start, and a `Feed` inline would make each one as
        /// large as a feed's header fields.
        indirect case finished(Feed)
        case failed(FeedFailure)
        /// 304: the stored copy is current.
        case notModified
        /// Another run sharing the archive holds the feed (``FeedLeases``): not fetched.
        case leasedElsewhere
    }

    /// What the writer gets next.
    enum Event {
        case item(FeedItem, Feed)
        case ending(Ending)
    }

    /// The source's place on the command line.
    let index: Int
    let source: FeedSource
    let threshold: Int
    /// Hears what the feed's XML parser read past (an entity kept as written).
    let onWarning: ParseWarningHandler?
    /// Whether the writer gets descriptions and content sanitized (`--html safe`).
    let sanitizesHTML: Bool
    private let queue: FeedJobQueue
    private let condition = NSCondition()
    // Guarded by `condition`:
    private var waiting: [(item: FeedItem, header: Header)] = []
    /// The header of the item delivered last, for the next one to share.
    private var lastHeader: Header?
    /// The fetch slot the job holds, until ``giveBackSlot()``.
    private var slot: FetchSlots?
    private var head = 0
    private var ending: Ending?
    private var fetched: FeedFetch?
    private var discoveredFeed: DiscoveredFeed?
    private var queued = false
    private var taken = false
    private var abandoned = false

    init(
        index: Int, source: FeedSource, queue: FeedJobQueue, threshold: Int = 512,
        onWarning: ParseWarningHandler? = nil,
        sanitizesHTML: Bool = false
    ) {
        self.index = index
        self.sanitizesHTML = sanitizesHTML
        self.onWarning = onWarning
        self.source = source
        self.queue = queue
        self.threshold = threshold
    }

    // MARK: - The fetching side

    /// The job holds one of `slots` (taken for it) until ``giveBackSlot()``.
    func hold(_ slots: FetchSlots) {
        condition.lock()
        slot = slots
        condition.unlock()
    }

    /// Gives back the slot the job holds, if it still holds one: the fetching side
    /// once the job ended without a feed, the writer once it wrote the job.
    func giveBackSlot() {
        condition.lock()
        let slots = slot
        slot = nil
        condition.unlock()
        slots?.giveBack()
    }

    /// The response is a feed: where it came from and its validators.
    func begin(_ fetch: FeedFetch) {
        condition.lock()
        fetched = fetch
        condition.unlock()
    }

    /// Passes an item on; blocks the calling thread (the one parsing a fetched body,
    /// never a task's) while the writer has `threshold` items to take. Returns
    /// `false` when the job is over (ended, or abandoned by the writer): the fetch
    /// should stop.
    func deliver(_ item: FeedItem, _ feed: Feed) -> Bool {
        condition.lock()
        guard !abandoned, ending == nil else {
            condition.unlock()
            return false
        }
        let header: Header
        if let last = lastHeader, last.feed == feed {
            header = last
        } else {
            header = Header(feed)
            lastHeader = header
        }
        waiting.append((item, header))
        let submit = !queued && waiting.count - head >= threshold
        if submit { queued = true }
        condition.broadcast()
        condition.unlock()
        if submit { queue.submit(self) }
        condition.lock()
        defer { condition.unlock() }
        while taken && !abandoned && ending == nil && waiting.count - head >= threshold { condition.wait() }
        return !abandoned && ending == nil
    }

    /// The read is over; the first ending given counts.
    func end(_ ending: Ending) {
        condition.lock()
        guard self.ending == nil else {
            condition.unlock()
            return
        }
        self.ending = ending
        let submit = !queued
        queued = true
        // A fetch waiting for room is done: it may not send again.
        condition.broadcast()
        condition.unlock()
        if submit { queue.submit(self) }
    }

    // MARK: - The writing side

    /// The fetch's account, once ``begin(_:)`` gave it.
    /// The feed an HTML page named as the source advertised, which was read instead.
    var discovered: DiscoveredFeed? {
        get {
            condition.lock()
            defer { condition.unlock() }
            return discoveredFeed
        }
        set {
            condition.lock()
            discoveredFeed = newValue
            condition.unlock()
        }
    }

    var fetch: FeedFetch? {
        condition.lock()
        defer { condition.unlock() }
        return fetched
    }

    /// Whether the read is over without a feed to write — not modified, failed
    /// before any item, or fetched by another run — so that its writing is only a
    /// note of the fetch. Never waits.
    var endedWithoutFeed: Bool {
        condition.lock()
        defer { condition.unlock() }
        guard head == waiting.count, let ending else { return false }
        if case .finished = ending { return false }
        return true
    }

    /// Waits until the read has an item or has ended; returns the ending if it
    /// ended without items, else `nil` (the item stays for ``next()``).
    func endingBeforeItems() -> Ending? {
        condition.lock()
        defer { condition.unlock() }
        while head == waiting.count && ending == nil { condition.wait() }
        return head < waiting.count ? nil : ending
    }

    /// The next item, or how the read ended; blocks until there is one.
    func next() -> Event {
        condition.lock()
        defer { condition.unlock() }
        taken = true
        while head == waiting.count && ending == nil { condition.wait() }
        guard head < waiting.count else {
            // Nothing more comes: the buffer goes too. Kept, it would stay to the end of
            // the run, which holds every job, so memory would grow with the feed list.
            waiting = []
            lastHeader = nil
            head = 0
            return .ending(ending!)
        }
        let (item, header) = waiting[head]
        head += 1
        if head == waiting.count {
            waiting.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= threshold {
            waiting.removeFirst(head)
            head = 0
        }
        if waiting.count - head < threshold { condition.broadcast() }
        return .item(item, header.feed)
    }

    /// The writer stops reading this job (its output failed): the fetch is told to
    /// stop, and what waits is dropped.
    func abandon() {
        condition.lock()
        abandoned = true
        waiting.removeAll()
        lastHeader = nil
        head = 0
        condition.broadcast()
        condition.unlock()
    }
}

/// The feed as read when an item was delivered, shared by the items delivered
/// while it stayed the same (the feed's elements are mostly read before its
/// items): a `Feed` is larger inline than most items' text.
private final class Header: Sendable {
    let feed: Feed

    init(_ feed: Feed) {
        self.feed = feed
    }
}

/// The jobs ready to be written, in the order they became ready.
final class FeedJobQueue: @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [FeedJob] = []
    private var closed = false

    func submit(_ job: FeedJob) {
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// No job will come but those submitted.
    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    /// Up to `limit` of the jobs ready now that `isWanted`, in order, without waiting.
    func takeReady(upTo limit: Int, where isWanted: (FeedJob) -> Bool) -> [FeedJob] {
        condition.lock()
        defer { condition.unlock() }
        var taken: [FeedJob] = []
        jobs.removeAll { job in
            guard taken.count < limit, isWanted(job) else { return false }
            taken.append(job)
            return true
        }
        return taken
    }

    /// The next ready job, blocking; `nil` once the queue is closed and empty.
    func take() -> FeedJob? {
        condition.lock()
        defer { condition.unlock() }
        while jobs.isEmpty && !closed { condition.wait() }
        return jobs.isEmpty ? nil : jobs.removeFirst()
    }
}
