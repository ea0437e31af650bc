import Foundation
import Testing
@testable import IngestPOSIX

/// `LargeStackThread.run` and `alongside`, which every stage of the library that
/// runs beside another (the event relay, the record pipe, the feed archive's item
/// pipe) starts its thread with.
@Suite struct LargeStackThreadTests {
    @Test("run: the body runs on another thread with the large stack, and its result or error comes back")
    func runReturnsAndThrows() throws {
        let caller = Thread.current
        let (stack, other) = try LargeStackThread.run { (Thread.current.stackSize, Thread.current !== caller) }
        #expect(other)
        #expect(stack >= LargeStackThread.stackBytes)
        struct Failure: Error, Equatable { let code: Int }
        #expect(throws: Failure(code: 7)) { try LargeStackThread.run { () throws -> Int in throw Failure(code: 7) } }
    }

    @Test("alongside: both sides run at once, and the call returns the foreground's value after the background ends")
    func bothSidesOverlap() {
        // A handshake each way: run one after the other, in either order, one side
        // would wait out its timeout.
        let backgroundStarted = DispatchSemaphore(value: 0)
        let foregroundStarted = DispatchSemaphore(value: 0)
        let finished = NSLock()
        var backgroundEnded = false
        var backgroundSawForeground = false
        let value = LargeStackThread.alongside({
            backgroundStarted.signal()
            let saw = foregroundStarted.wait(timeout: .now() + 60) == .success
            Thread.sleep(forTimeInterval: 0.05)
            finished.withLock {
                backgroundSawForeground = saw
                backgroundEnded = true
            }
        }) { () -> Int in
            foregroundStarted.signal()
            #expect(backgroundStarted.wait(timeout: .now() + 60) == .success)
            return 42
        }
        #expect(finished.withLock { backgroundSawForeground }, "the background side ran after the foreground's")
        #expect(value == 42)
        #expect(finished.withLock { backgroundEnded }, "returned before the background side ended")
    }

    @Test("alongside: a throwing foreground still waits for the background, and its error comes back")
    func foregroundErrorWaits() {
        struct Failure: Error {}
        let finished = NSLock()
        var backgroundEnded = false
        #expect(throws: Failure.self) {
            try LargeStackThread.alongside({
                Thread.sleep(forTimeInterval: 0.05)
                finished.withLock { backgroundEnded = true }
            }) { () throws -> Void in throw Failure() }
        }
        #expect(finished.withLock { backgroundEnded })
    }

    @Test("alongside: what the background closure captured is let go of before the call returns")
    func backgroundCapturesReleased() {
        final class Captured: @unchecked Sendable { var touched = false }
        weak var released: Captured?
        do {
            let captured = Captured()
            released = captured
            LargeStackThread.alongside({ captured.touched = true }, while: {})
            #expect(captured.touched)
        }
        #expect(released == nil, "the background closure outlived the call")
    }
}
