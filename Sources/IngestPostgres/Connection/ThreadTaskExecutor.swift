import Foundation

/// A task executor with one thread of its own: tasks that prefer it run there and never
/// need a thread of Swift's shared pool.
///
/// ``PostgresSession`` runs PostgresNIO's async API on one of these while the import's
/// plain thread waits for results. Were the work on the shared pool, a caller that
/// blocks pool threads (a test, or an app calling the import from async code) could
/// starve it of the very thread it waits for; with a thread of its own, blocking the
/// caller is always safe.
final class ThreadTaskExecutor: TaskExecutor, @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var stopping = false

    init(name: String) {
        let thread = Thread { [self] in run() }
        thread.name = name
        thread.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Lets the thread end once the jobs enqueued so far have run.
    func shutdown() {
        condition.lock()
        stopping = true
        condition.signal()
        condition.unlock()
    }

    private func run() {
        while true {
            condition.lock()
            while jobs.isEmpty, !stopping { condition.wait() }
            if jobs.isEmpty {
                condition.unlock()
                return
            }
            let batch = jobs
            jobs.removeAll(keepingCapacity: true)
            condition.unlock()
            for job in batch { job.runSynchronously(on: asUnownedTaskExecutor()) }
        }
    }
}
