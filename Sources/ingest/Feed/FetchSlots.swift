import Foundation

/// A count of the URL sources a run is fetching, or has fetched with a feed and not
/// yet written: the fetching side takes a slot before it starts a fetch and waits
/// while none is free; the slot comes back when the fetch ends without a feed (a
/// 304, a failure: nothing to hold), else once the writing thread has written the
/// source (``FeedJob/giveBackSlot()``).
///
/// Without it, fetches outrun a slower writer and every fetched feed waits, whole,
/// for its turn: memory grows with the number of feeds. With it, at most the
/// slots' count of feeds wait, whatever the list's length. It cannot deadlock: the
/// writer takes sources in the order they are ready, and each source holding a slot
/// is either ready or still fetching, which ends (each fetch has its time limit).
final class FetchSlots: @unchecked Sendable {
    private let lock = NSLock()
    // Guarded by `lock`:
    private var free: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// `count` slots, at least one.
    init(_ count: Int) {
        free = max(1, count)
    }

    /// Takes a slot, waiting (without holding a thread) until one is free.
    func take() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let granted = lock.withLock { () -> Bool in
                guard free > 0 else {
                    waiting.append(continuation)
                    return false
                }
                free -= 1
                return true
            }
            if granted { continuation.resume() }
        }
    }

    /// Gives a slot back: to the longest waiting ``take()``, else to the free ones.
    func giveBack() {
        let next = lock.withLock { () -> CheckedContinuation<Void, Never>? in
            guard !waiting.isEmpty else {
                free += 1
                return nil
            }
            return waiting.removeFirst()
        }
        next?.resume()
    }
}
