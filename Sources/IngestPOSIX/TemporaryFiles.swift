import IngestCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The temporary files outputs are being built in, so that a program can remove
/// them when a signal is about to end it.
///
/// The library installs no signal handlers (a host application owns its process's
/// signals); a command-line program installs its own and calls ``removeAll()``:
///
/// ```swift
/// signal(SIGINT) { number in
///     TemporaryFiles.removeAll()
///     signal(number, SIG_DFL)
///     raise(number)
/// }
/// ```
///
/// Any number of outputs may be open at once, from any thread: registering and
/// unregistering take a lock. Paths are kept as C strings in chunks of plain memory
/// that are chained as more are needed and never freed, since a signal handler may
/// touch nothing else and may take no lock.
public enum TemporaryFiles {
    private typealias Slot = UnsafeMutablePointer<CChar>?

    /// Paths a chunk holds; after them comes the pointer to the next chunk, or nil.
    private static let slotsPerChunk = 64

    // Safety: `lock` guards every write to the chunks and to `serial`. ``removeAll()``
    // reads the chunks without it, as a signal handler must: a chunk is linked in only
    // after its slots are initialised, and a slot is cleared before its string is freed.
    nonisolated(unsafe) private static let firstChunk = makeChunk()
    nonisolated(unsafe) private static let lock: UnsafeMutablePointer<pthread_mutex_t> = {
        let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        pthread_mutex_init(lock, nil)
        return lock
    }()
    nonisolated(unsafe) private static var serial = 0

    /// A number no other call in this process has had: temporary names carry it.
    static func nextSerial() -> Int {
        withLock {
            serial += 1
            return serial
        }
    }

    /// Remembers `path` until ``unregister(_:)``, for ``removeAll()``.
    static func register(_ path: String) {
        guard let copy = strdup(path) else { return }
        withLock {
            var chunk = firstChunk
            while true {
                for index in 0..<slotsPerChunk where chunk[index] == nil {
                    chunk[index] = copy
                    return
                }
                guard let next = nextChunk(after: chunk) else { break }
                chunk = next
            }
            let added = makeChunk()
            added[0] = copy
            chunk[slotsPerChunk] = UnsafeMutablePointer<CChar>(OpaquePointer(added))
        }
    }

    /// Forgets `path`: its output was committed or discarded.
    static func unregister(_ path: String) {
        let removed: [UnsafeMutablePointer<CChar>] = withLock {
            var removed: [UnsafeMutablePointer<CChar>] = []
            forEachSlot { slot in
                if let entry = slot.pointee, String(cString: entry) == path {
                    slot.pointee = nil
                    removed.append(entry)
                }
            }
            return removed
        }
        removed.forEach { free($0) }
    }

    /// Whether `path` is registered now; for tests.
    package static func isRegistered(_ path: String) -> Bool {
        withLock {
            var found = false
            forEachSlot { slot in
                if let entry = slot.pointee, String(cString: entry) == path { found = true }
            }
            return found
        }
    }

    /// Removes every temporary file an output is being built in. Async-signal-safe:
    /// it takes no lock and calls only `unlink(2)`, so it may run in a signal handler.
    public static func removeAll() {
        forEachSlot { slot in
            if let entry = slot.pointee { unlink(entry) }
        }
    }

    private static func forEachSlot(_ body: (UnsafeMutablePointer<Slot>) -> Void) {
        var chunk: UnsafeMutablePointer<Slot>? = firstChunk
        while let current = chunk {
            for index in 0..<slotsPerChunk { body(current + index) }
            chunk = nextChunk(after: current)
        }
    }

    private static func nextChunk(after chunk: UnsafeMutablePointer<Slot>) -> UnsafeMutablePointer<Slot>? {
        chunk[slotsPerChunk].map { UnsafeMutablePointer<Slot>(OpaquePointer($0)) }
    }

    private static func makeChunk() -> UnsafeMutablePointer<Slot> {
        let chunk = UnsafeMutablePointer<Slot>.allocate(capacity: slotsPerChunk + 1)
        chunk.initialize(repeating: nil, count: slotsPerChunk + 1)
        return chunk
    }

    private static func withLock<T>(_ body: () -> T) -> T {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        return body()
    }
}
