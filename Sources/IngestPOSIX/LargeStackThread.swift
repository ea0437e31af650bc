import IngestCore
import Foundation

/// The threads the library parses on, with a stack of a known size.
///
/// A thread's stack on Linux is whatever `ulimit -s` says when the process starts
/// (8 MiB usually, 2 MiB when it is unlimited, less if someone lowered it), and
/// 512 KiB on Darwin. What a record nested as deep as the parsers accept
/// (``/IngestCore/ParseLimits/maxSupportedDepth``) costs there — releasing its tree of nested
/// values, decoding a recursive model type — must not depend on that; so the
/// import loop's parsing thread and `records(_:at:from:options:buffer:onFailure:)`'s get
/// ``stackBytes``, set explicitly, and the command runs its whole import on one.
package enum LargeStackThread {
    /// 64 MiB: reserved, not committed — only the pages a deep record touches are
    /// used. The deepest record measured (10 000 levels, an XML element with an
    /// attribute and repeated children at each) takes under 8 MiB in a debug build.
    package static let stackBytes = 64 << 20

    /// Starts `body` on a new thread with ``stackBytes`` of stack.
    package static func detach(_ body: @escaping @Sendable () -> Void) {
        let thread = Thread(block: body)
        thread.stackSize = stackBytes
        thread.start()
    }

    /// Runs `body` on a new thread with ``stackBytes`` of stack and waits for it;
    /// returns what it returns, throws what it throws.
    package static func run<T>(_ body: () throws -> T) throws -> T {
        var result: Result<T, any Error>?
        alongside({ result = Result { try body() } }, while: {})
        return try result!.get()
    }

    /// Runs `background` on a new thread with ``stackBytes`` of stack while
    /// `foreground` runs on this one, and returns what `foreground` returns, or throws
    /// what it throws, once `background` has ended too.
    ///
    /// This is how a stage of the library runs beside the next: one side parses or
    /// reads into something both share (a pipe, which must be safe across threads),
    /// the other drains it. `background` is let go of on its thread before this
    /// returns, so nothing it captured outlives the call, whichever side fails; it
    /// reports its own outcome through what it shares, since it cannot throw.
    package static func alongside<T>(
        _ background: () -> Void, while foreground: () throws -> T
    ) rethrows -> T {
        try withoutActuallyEscaping(background) { background in
            let job = Job(background)
            let done = DispatchSemaphore(value: 0)
            detach {
                job.run()
                done.signal()
            }
            defer { done.wait() }
            return try foreground()
        }
    }

    /// A closure handed to the thread that runs it, which lets go of it as it runs
    /// it: the thread's block outlives the call by a moment, the closure must not.
    private final class Job: @unchecked Sendable {
        private var body: (() -> Void)?
        init(_ body: @escaping () -> Void) { self.body = body }

        func run() {
            let body = self.body!
            self.body = nil
            body()
        }
    }
}
