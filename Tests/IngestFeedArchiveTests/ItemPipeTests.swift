import Foundation
import IngestFeedArchive
import IngestFeeds
import Testing

@Suite("ItemPipe: a feed read on one thread, its items consumed on another")
struct ItemPipeTests {
    struct ReadFailed: Error {}
    struct ConsumeFailed: Error {}

    /// Counts across the two threads.
    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0
        var value: Int { lock.withLock { count } }
        func increment() { lock.withLock { count += 1 } }
    }

    static func item(_ index: Int) -> FeedItem {
        var item = FeedItem()
        item.guid = "\(index)"
        return item
    }

    @Test("every item reaches the consumer in order, with the feed as read so far, and the read's feed is returned")
    func keepsOrder() throws {
        let consumer = pthread_self()
        var readOn: pthread_t?
        var seen: [String] = []
        var titles: Set<String> = []
        let feed = try ItemPipe.overlap(batchSize: 7, depth: 2) { deliver in
            readOn = pthread_self()
            var feed = Feed(format: FeedFormat(.rss, version: "2.0"))
            for index in 0..<1000 {
                feed.title = FeedText("after \(index / 100)")
                try deliver(Self.item(index), feed)
            }
            feed.title = "whole"
            return feed
        } consume: { item, feed in
            #expect(pthread_equal(pthread_self(), consumer) != 0)
            seen.append(item.guid ?? "")
            titles.insert(feed.title?.value ?? "")
        }
        #expect(seen == (0..<1000).map(String.init))
        #expect(titles == Set((0..<10).map { "after \($0)" }))
        #expect(feed.title?.value == "whole")
        let reader = try #require(readOn)
        #expect(pthread_equal(reader, consumer) == 0)
    }

    @Test("a read without items returns its feed")
    func noItems() throws {
        var consumed = 0
        let feed = try ItemPipe.overlap { _ in
            var feed = Feed(format: FeedFormat(.atom, version: "1.0"))
            feed.title = "empty"
            return feed
        } consume: { _, _ in
            consumed += 1
        }
        #expect(consumed == 0)
        #expect(feed.title?.value == "empty")
    }

    @Test("a read that fails fails the call, even with items still waiting")
    func readFailure() {
        #expect(throws: ReadFailed.self) {
            try ItemPipe.overlap(batchSize: 1, depth: 8) { deliver in
                for index in 0..<5 { try deliver(Self.item(index), Feed(format: FeedFormat(.rss, version: "2.0"))) }
                throw ReadFailed()
            } consume: { _, _ in
                Thread.sleep(forTimeInterval: 0.01)
            }
        }
    }

    @Test("a consumer that fails stops the read at its next batch, and its error is the call's")
    func consumerFailureStopsTheRead() {
        let delivered = Counter()
        var readError: (any Error)?
        #expect(throws: ConsumeFailed.self) {
            try ItemPipe.overlap(batchSize: 10, depth: 2) { deliver in
                do {
                    for index in 0..<1_000_000 {
                        try deliver(Self.item(index), Feed(format: FeedFormat(.rss, version: "2.0")))
                        delivered.increment()
                    }
                } catch {
                    readError = error
                    throw error
                }
                return Feed(format: FeedFormat(.rss, version: "2.0"))
            } consume: { item, _ in
                if item.guid == "3" { throw ConsumeFailed() }
            }
        }
        #expect(readError is CancellationError)
        // The batch being consumed, the two waiting and the one being filled, at most.
        #expect(delivered.value <= 40)
    }

    @Test("a read that carries on past the consumer's error still ends the call, with the consumer's error")
    func readThatIgnoresTheStop() {
        var refusals = 0
        var consumed = 0
        #expect(throws: ConsumeFailed.self) {
            try ItemPipe.overlap(batchSize: 4, depth: 1) { deliver in
                for index in 0..<10_000 {
                    do { try deliver(Self.item(index), Feed(format: FeedFormat(.rss, version: "2.0"))) } catch {
                        refusals += 1
                    }
                }
                return Feed(format: FeedFormat(.rss, version: "2.0"))
            } consume: { _, _ in
                consumed += 1
                throw ConsumeFailed()
            }
        }
        #expect(consumed == 1)
        // Every batch after the error is refused, and none waits for a consumer that is
        // gone; each refused batch is dropped, so the next is refused only when full
        // again (a batch kept would refuse every item from then on, and grow).
        #expect(refusals >= 10_000 / 4 - 3)
        #expect(refusals <= 10_000 / 4)
    }

    @Test("a slow consumer holds the reader back: it runs at most depth + 1 batches ahead")
    func bounded() throws {
        let delivered = Counter()
        var most = 0
        _ = try ItemPipe.overlap(batchSize: 5, depth: 3) { deliver in
            for index in 0..<200 {
                try deliver(Self.item(index), Feed(format: FeedFormat(.rss, version: "2.0")))
                delivered.increment()
            }
            return Feed(format: FeedFormat(.rss, version: "2.0"))
        } consume: { item, _ in
            // Whatever the threads' timing, the reader cannot be further ahead than the
            // batch taken, the `depth` waiting and the one it is filling.
            if item.guid == "0" { Thread.sleep(forTimeInterval: 0.2) }
            most = max(most, delivered.value - Int(item.guid!)!)
        }
        #expect(delivered.value == 200)
        #expect(most <= 5 * (1 + 3 + 1))
        #expect(most >= 5)
    }
}
