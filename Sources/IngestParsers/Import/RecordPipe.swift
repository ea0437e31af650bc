import IngestCore
import IngestPOSIX
import Foundation

/// Carries records from a parsing thread to the thread that writes them, so parsing
/// and writing overlap on two cores.
///
/// The producer side is a ``/IngestCore/RecordSink``: batches from the mapping pass through
/// whole, single records are gathered into batches of `batchSize`, and at most
/// `depth` batches wait in the pipe, so memory stays bounded (a slow writer makes
/// the parser wait). Three are enough to keep the writer busy; more only hold more
/// memory when the parser outruns the writer. The consumer calls ``drain(into:)``
/// to apply everything to the real sink, in order, on its own thread.
///
/// A pipe that may spill (`spillLimit` above 0) makes the parser wait only once
/// that many bytes of records are set aside: past `depth`, batches go to a
/// ``RecordSpill`` on disk, and the consumer reads them back in their turn. That is
/// how an input parsed ahead of its turn (``RecordReader/readInParallel(_:jobs:spillLimit:into:progress:written:)``)
/// waits in flat memory.
package final class RecordPipe: RecordSink, @unchecked Sendable {
    private enum Message {
        case records(RecordBatch)
        case spilled(RecordSpill.Stub)
        case rename(String, String)
        case flush
    }

    private let condition = NSCondition()
    private var queue: [Message] = []
    private var batch = RecordBatch()
    private var closed = false
    private var failure: (any Error)?
    private var consumerGone = false
    private let batchSize: Int
    private let depth: Int
    /// Messages in `queue` held in memory (all but the spilled ones).
    private var inMemory = 0
    /// Bytes spilled and not yet read back, and how many may be.
    private var spilledBytes = 0
    private let spillLimit: Int
    /// The spill, made at the first batch set aside; named after `spillName`.
    private var spill: RecordSpill?
    private let spillName: String

    /// A pipe holding `depth` batches (of `batchSize` records) in memory, and when
    /// `spillLimit` is above 0, up to that many bytes more of them in a temporary file
    /// that names the records as those of `spillName`.
    package init(batchSize: Int = 1024, depth: Int = 3, spillLimit: Int = 0, spillName: String = "an input") {
        self.batchSize = batchSize
        self.depth = depth
        self.spillLimit = spillLimit
        self.spillName = spillName
    }

    // MARK: Producer side

    package func write(_ record: IngestRecord) throws {
        batch.append(record)
        if batch.count >= batchSize { try flushBatch() }
    }

    package func write(_ batch: RecordBatch) throws {
        try flushBatch()
        try send(.records(batch))
    }

    package func renameTable(_ old: String, to new: String) throws {
        try flushBatch()
        try send(.rename(old, new))
    }

    /// Sends the records gathered so far, and asks the consumer's sink to flush
    /// once it has written them.
    package func flush() throws {
        try flushBatch()
        try send(.flush)
    }

    /// The producer is done: the consumer's ``drain(into:)`` returns after the rest.
    package func finish() throws {
        try flushBatch()
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    /// The producer failed: the consumer's ``drain(into:)`` throws `error`.
    package func fail(_ error: any Error) {
        condition.lock()
        failure = error
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    private func flushBatch() throws {
        guard batch.count > 0 else { return }
        let full = batch
        batch = RecordBatch(shapedLike: full)
        try send(.records(full))
    }

    private func send(_ message: Message) throws {
        condition.lock()
        if case .records(let batch) = message, inMemory >= depth, spilledBytes < spillLimit, !consumerGone {
            let spill: RecordSpill
            do {
                if self.spill == nil { self.spill = try RecordSpill(holding: spillName) }
                spill = self.spill!
            } catch {
                condition.unlock()
                throw error
            }
            // Only this thread sends: nothing can come between the spill and its stub.
            condition.unlock()
            let stub = try spill.write(batch)
            condition.lock()
            spilledBytes += stub.count
            queue.append(.spilled(stub))
            condition.broadcast()
            condition.unlock()
            return
        }
        defer { condition.unlock() }
        // A rename or a flush is a few bytes: a pipe that may spill takes it at once.
        let waits: Bool
        if case .records = message { waits = true } else { waits = spillLimit == 0 }
        while waits && inMemory >= depth && !consumerGone { condition.wait() }
        if consumerGone { throw CancellationError() }
        queue.append(message)
        inMemory += 1
        condition.broadcast()
    }

    // MARK: Consumer side

    /// The consumer gives up without draining: the producer's next write throws
    /// `CancellationError`, and what waits is dropped.
    package func stop() {
        condition.lock()
        consumerGone = true
        queue.removeAll()
        inMemory = 0
        condition.broadcast()
        condition.unlock()
    }

    /// Whether ``stop()`` was called: the producer's work is wasted from now on.
    package var isStopped: Bool {
        condition.lock()
        defer { condition.unlock() }
        return consumerGone
    }

    /// Applies every batch and rename to `sink` until the producer finishes; rethrows
    /// the producer's error. If `sink` throws, the producer is stopped.
    package func drain(into sink: any RecordSink) throws {
        while true {
            condition.lock()
            while queue.isEmpty && !closed { condition.wait() }
            if let failure {
                condition.unlock()
                throw failure
            }
            if queue.isEmpty && closed {
                condition.unlock()
                return
            }
            let message = queue.removeFirst()
            var spill: RecordSpill?
            if case .spilled(let stub) = message {
                spilledBytes -= stub.count
                spill = self.spill
            } else {
                inMemory -= 1
            }
            condition.broadcast()
            condition.unlock()
            do {
                switch message {
                case .records(let batch): try sink.write(batch)
                case .spilled(let stub): try sink.write(spill!.read(stub))
                case .rename(let old, let new): try sink.renameTable(old, to: new)
                case .flush: try sink.flush()
                }
            } catch {
                condition.lock()
                consumerGone = true
                condition.broadcast()
                condition.unlock()
                throw error
            }
        }
    }
}

extension RecordPipe {
    /// Runs `produce` on a second thread (a ``LargeStackThread``), writing into a
    /// pipe, while this thread drains the pipe into `sink`: on two cores, making
    /// records and writing them overlap. Returns when both sides are done; throws the
    /// first error of either, and an error of `sink` stops `produce` at its next write.
    ///
    /// `sink` is only ever used on this thread (a database connection may insist on
    /// it); `produce` must not touch it.
    package static func overlap(into sink: any RecordSink, _ produce: (any RecordSink) throws -> Void) throws {
        let pipe = RecordPipe()
        try LargeStackThread.alongside({
            do {
                try produce(pipe)
                try pipe.finish()
            } catch {
                pipe.fail(error)
            }
        }) {
            try pipe.drain(into: sink)
        }
    }
}
