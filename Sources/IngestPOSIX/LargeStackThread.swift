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
        try withoutActuallyEscaping(body) { body in
            let job = Job(body)
            let done = DispatchSemaphore(value: 0)
            detach {
                job.result = Result { try job.body!() }
                // Let go of the closure before the caller goes on: it must not
                // outlive the call (withoutActuallyEscaping checks).
                job.body = nil
                done.signal()
            }
            done.wait()
            return try job.result!.get()
        }
    }

    /// A closure handed to the thread that runs it, and what it gave.
    private final class Job<T>: @unchecked Sendable {
        var body: (() throws -> T)?
        var result: Result<T, any Error>?
        init(_ body: @escaping () throws -> T) { self.body = body }
    }
}
