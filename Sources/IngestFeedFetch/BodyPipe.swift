import Foundation
import IngestCore
import NIOCore

/// An HTTP body handed from the task that receives it to the thread that parses
/// it, as a ``IngestCore/ByteSource``: the task waits while a mebibyte waits to be
/// read, the thread while nothing does.
final class BodyPipe: ByteSource, @unchecked Sendable {
    static let capacity = 1 << 20
    let displayName: String
    private let condition = NSCondition()
    // Guarded by `condition`:
    /// Copies, not the client's buffers: those may be slices of a larger one, which
    /// each would keep whole.
    private var chunks: [[UInt8]] = []
    /// The next chunk, and where in it the next read starts.
    private var head = 0
    private var offset = 0
    private var queued = 0
    private var ended = false
    private var failure: (any Error)?
    private var closed = false
    private var roomWaiter: CheckedContinuation<Bool, Never>?

    init(displayName: String) {
        self.displayName = displayName
    }

    /// Adds the next piece of the body; waits while the pipe is full. `false` once
    /// the reader is done with the body (it failed, or the job is over).
    func put(_ buffer: ByteBuffer) async -> Bool {
        await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            condition.lock()
            guard !closed else {
                condition.unlock()
                return continuation.resume(returning: false)
            }
            chunks.append(Array(buffer.readableBytesView))
            queued += buffer.readableBytes
            condition.broadcast()
            if queued < Self.capacity {
                condition.unlock()
                continuation.resume(returning: true)
            } else {
                roomWaiter = continuation
                condition.unlock()
            }
        }
    }

    /// The body ended, with `error` when it did not end well: the reader gets the
    /// bytes before, then the end or the error. The first ending given counts.
    func finish(_ error: (any Error)?) {
        condition.lock()
        guard !ended else { return condition.unlock() }
        ended = true
        failure = error
        condition.broadcast()
        condition.unlock()
    }

    /// The reader reads no more: what waits is dropped, the task told to stop.
    func close() {
        condition.lock()
        closed = true
        chunks.removeAll()
        head = 0
        offset = 0
        queued = 0
        let waiter = roomWaiter
        roomWaiter = nil
        condition.unlock()
        waiter?.resume(returning: false)
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        condition.lock()
        while head == chunks.count && !ended { condition.wait() }
        guard head < chunks.count else {
            condition.unlock()
            if let failure { throw failure }
            return 0
        }
        let count = min(buffer.count, chunks[head].count - offset)
        chunks[head].withUnsafeBytes {
            buffer.baseAddress!.copyMemory(from: $0.baseAddress! + offset, byteCount: count)
        }
        offset += count
        if offset == chunks[head].count {
            // Freed now, not when the array is next compacted.
            chunks[head] = []
            head += 1
            offset = 0
        }
        if head == chunks.count || head >= 1024 {
            chunks.removeFirst(head)
            head = 0
        }
        queued -= count
        var waiter: CheckedContinuation<Bool, Never>?
        if queued < Self.capacity {
            waiter = roomWaiter
            roomWaiter = nil
        }
        condition.unlock()
        waiter?.resume(returning: true)
        return count
    }
}
