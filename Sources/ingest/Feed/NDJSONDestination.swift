import Foundation
import IngestKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `--to ndjson`: one item a line, as it is read — gofeed's JSON of the item with
/// its feed's address first (`feedUrl`: the URL it was read from, after permanent
/// redirects; a file's path; standard input's feed link). Written to a temporary
/// file renamed into place at the end; a source that fails half-way has its lines
/// taken back. On standard output, or a path that is not a regular file (a FIFO,
/// `/dev/null`), lines go out as they come, and cannot be.
final class NDJSONDestination: FeedDestination {
    let path: String
    let limits: ParseLimits
    private let file: AtomicFile?
    private var descriptor: Int32
    /// Whether ``descriptor`` was opened here (a file, or a stream by its path).
    private let ownsDescriptor: Bool
    private var buffer: [UInt8] = []
    private var written: off_t = 0

    init(path: String, replace: Bool, limits: ParseLimits) throws {
        self.path = path
        self.limits = limits
        let filePath: String
        switch OutputTarget(path) {
        case .standardOutput:
            (file, descriptor, ownsDescriptor) = (nil, STDOUT_FILENO, false)
            return
        case .stream(let stream):
            let descriptor = open(stream, O_WRONLY | O_CLOEXEC)
            guard descriptor >= 0 else {
                throw IngestError(.output, "cannot open for writing: \(POSIX.lastError)", file: path)
            }
            (file, self.descriptor, ownsDescriptor) = (nil, descriptor, true)
            return
        case .file(let resolved):
            filePath = resolved
        }
        if !replace, FileStatus.exists(filePath) {
            throw IngestError(.output, "already exists", file: path, reason: .outputExists(appendable: false))
        }
        ownsDescriptor = true
        let file = try AtomicFile(target: filePath)
        let descriptor = open(file.temporaryPath, O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            file.discard()
            throw IngestError(.output, "cannot write: \(String(cString: strerror(errno)))", file: path)
        }
        self.file = file
        self.descriptor = descriptor
    }

    deinit { closeFile() }

    /// Closes the temporary file's or the stream's descriptor (never standard output's).
    private func closeFile() {
        guard ownsDescriptor, descriptor >= 0 else { return }
        _ = POSIX.close(descriptor)
        descriptor = -1
    }

    var displayName: String { path == "-" ? "standard output" : path }

    func write(_ job: FeedJob) -> SourceOutcome {
        switch job.open() {
        case .notModified: return .notModified
        case .leasedElsewhere: return .leasedElsewhere
        case .failed(let failure): return .failed(failure)
        case .feed: break
        }
        let start = written
        var count = 0
        do {
            let fetch = job.fetch
            let feed = try job.read(limits: limits) { item, feed in
                let address = fetch?.url ?? job.source.archiveName ?? feed.feedLink ?? feed.link ?? "-"
                guard case .object(let members) = item.gofeedJSONValue else { return }
                JSONValue.object([("feedUrl", .string(address))] + members).write(into: &buffer)
                buffer.append(UInt8(ascii: "\n"))
                count += 1
                if buffer.count >= 1 << 16 { try flush() }
            }
            try flush()
            return .written(items: count, recovered: feed.firstError)
        } catch {
            job.abandon()
            buffer.removeAll(keepingCapacity: true)
            if file != nil, ftruncate(descriptor, start) == 0 {
                _ = lseek(descriptor, start, SEEK_SET)
                written = start
            }
            return .failed(.reading(error, of: job.source))
        }
    }

    private func flush() throws {
        guard !buffer.isEmpty else { return }
        try buffer.withUnsafeBytes { try POSIX.writeAll(descriptor, $0, to: displayName) }
        written += off_t(buffer.count)
        buffer.removeAll(keepingCapacity: true)
    }

    func finish() throws {
        try flush()
        closeFile()
        try file?.commit()
    }

    func discard() {
        closeFile()
        file?.discard()
    }
}
