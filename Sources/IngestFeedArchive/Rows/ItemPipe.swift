import Foundation
import IngestFeeds
import IngestPOSIX

/// Carries a feed's items from the thread that reads them to the thread that makes
/// their rows, so that reading a feed, making its rows and writing them (the
/// output's own thread, through a `RecordPipe`) are three stages that keep two
/// cores busy: the reading is about half of an archive's work, the rest is split
/// between rows and the database.
///
/// Items go over in batches of `batchSize`, and at most `depth` batches wait, so
/// memory stays bounded: a slow consumer makes the reader wait.
package final class ItemPipe: @unchecked Sendable {
    private typealias Element = (item: FeedItem, feed: Feed)

    private let condition = NSCondition()
    private var queue: [[Element]] = []
    private var batch: [Element] = []
    private let batchSize: Int
    private let depth: Int
    /// What the reader returned or threw; set when it is done.
    private var result: Result<Feed, any Error>?
    private var consumerGone = false

    private init(batchSize: Int, depth: Int) {
        self.batchSize = batchSize
        self.depth = depth
        batch.reserveCapacity(batchSize)
    }

    /// Runs `read` on a second thread (a `LargeStackThread`, as parsing needs),
    /// handing each item and the feed so far to `consume` on this thread, in order,
    /// `batchSize` at a time with at most `depth` batches waiting; returns the feed
    /// `read` returns. Throws the first error of either side: an error of `read`
    /// fails the call at once, and an error of `consume` stops `read` at its next
    /// batch (it throws `CancellationError` from `deliver`).
    package static func overlap(
        batchSize: Int = 64, depth: Int = 4,
        read: (_ deliver: (FeedItem, Feed) throws -> Void) throws -> Feed,
        consume: (FeedItem, Feed) throws -> Void
    ) throws -> Feed {
        let pipe = ItemPipe(batchSize: max(batchSize, 1), depth: max(depth, 1))
        return try LargeStackThread.alongside({ pipe.end(Result { try read(pipe.send) }) }) {
            try pipe.drain(into: consume)
        }
    }

    // MARK: Reading side

    private func send(_ item: FeedItem, _ feed: Feed) throws {
        batch.append((item, feed))
        guard batch.count >= batchSize else { return }
        try flushBatch()
    }

    private func flushBatch() throws {
        condition.lock()
        defer { condition.unlock() }
        while queue.count >= depth && !consumerGone { condition.wait() }
        if consumerGone {
            // Nothing more is taken: a read that goes on after the error holds no more.
            batch.removeAll(keepingCapacity: true)
            throw CancellationError()
        }
        queue.append(batch)
        condition.broadcast()
        batch = []
        batch.reserveCapacity(batchSize)
    }

    private func end(_ result: Result<Feed, any Error>) {
        var result = result
        if case .success = result, !batch.isEmpty {
            do { try flushBatch() } catch { result = .failure(error) }
        }
        condition.lock()
        self.result = result
        condition.broadcast()
        condition.unlock()
    }

    // MARK: Consuming side

    private static func failed(_ result: Result<Feed, any Error>) -> Bool {
        if case .failure = result { return true }
        return false
    }

    private func drain(into consume: (FeedItem, Feed) throws -> Void) throws -> Feed {
        while true {
            condition.lock()
            while queue.isEmpty && result == nil { condition.wait() }
            // A failed read fails at once: its items would be rolled back with it.
            if let result, queue.isEmpty || Self.failed(result) {
                condition.unlock()
                return try result.get()
            }
            let items = queue.removeFirst()
            condition.broadcast()
            condition.unlock()
            do {
                for (item, feed) in items { try consume(item, feed) }
            } catch {
                condition.lock()
                consumerGone = true
                queue.removeAll()
                condition.broadcast()
                condition.unlock()
                throw error
            }
        }
    }
}
