import Foundation
import IngestKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `--to json`: each feed as gofeed's JSON, items included — one feed as an object
/// when one source was given, else an array of the feeds read, in the order of the
/// sources — laid out as `prettyText()` lays out the whole value.
///
/// Items are written as they end, into a spool file (unlinked as soon as it is
/// made), for gofeed's JSON puts the feed-level fields, which a document may give
/// after its items, before them. At the end each feed's text is assembled from its
/// fields and its spooled items into the output — a temporary file renamed into
/// place, or standard output — so memory stays flat whatever the feeds' size.
final class JSONDestination: FeedDestination {
    let path: String
    let replace: Bool
    let limits: ParseLimits
    /// Whether one source was given: the output is then that feed, not an array.
    let single: Bool
    private var spool: Int32 = -1
    private var spooled: off_t = 0
    private var buffer: [UInt8] = []
    /// Each feed written: its source's place, its items' bytes in the spool and the
    /// text around them.
    private var feeds: [(index: Int, items: Range<off_t>, ending: GofeedPrettyJSON.Ending)] = []

    init(path: String, replace: Bool, single: Bool, limits: ParseLimits) throws {
        self.path = path
        self.replace = replace
        self.single = single
        self.limits = limits
        target = OutputTarget(path)
        if let filePath = target.filePath, !replace, FileStatus.exists(filePath) {
            throw IngestError(.output, "already exists", file: path, reason: .outputExists(appendable: false))
        }
        spool = try Self.makeSpool(beside: target.filePath, named: path)
    }

    /// Where ``path`` leads: a regular file, replaced atomically, or a stream
    /// (standard output, a FIFO, `/dev/null`) written through.
    private let target: OutputTarget

    deinit { closeSpool() }

    var displayName: String { path == "-" ? "standard output" : path }

    func write(_ job: FeedJob) -> SourceOutcome {
        switch job.open() {
        case .notModified: return .notModified
        case .leasedElsewhere: return .leasedElsewhere
        case .failed(let failure): return .failed(failure)
        case .feed: break
        }
        let start = spooled
        var json = GofeedPrettyJSON(indent: single ? 0 : 2)
        do {
            let feed = try job.read(limits: limits) { item, _ in
                json.appendItem(item, to: &buffer)
                if buffer.count >= 1 << 16 { try flush() }
            }
            try flush()
            feeds.append((job.index, start..<spooled, json.ending(of: feed)))
            return .written(items: json.itemCount, recovered: feed.firstError)
        } catch {
            job.abandon()
            buffer.removeAll(keepingCapacity: true)
            if ftruncate(spool, start) == 0, lseek(spool, start, SEEK_SET) == start { spooled = start }
            return .failed(.reading(error, of: job.source))
        }
    }

    /// Makes the spool beside the output file (in the temporary directory for a
    /// stream), and unlinks it at once: it goes when the process does.
    private static func makeSpool(beside filePath: String?, named path: String) throws -> Int32 {
        let directory =
            filePath.map { URL(fileURLWithPath: $0).deletingLastPathComponent().path }
            ?? FileManager.default.temporaryDirectory.path
        var template = Array("\(directory)/.ingest-json-items-XXXXXX".utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0, fcntl(descriptor, F_SETFD, FD_CLOEXEC) == 0 else {
            throw IngestError(
                .output, "cannot create a spool file in \(directory): \(POSIX.lastError)",
                file: path == "-" ? "standard output" : path)
        }
        unlink(template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })
        return descriptor
    }

    private func closeSpool() {
        guard spool >= 0 else { return }
        _ = POSIX.close(spool)
        spool = -1
    }

    private func flush() throws {
        guard !buffer.isEmpty else { return }
        try buffer.withUnsafeBytes { try POSIX.writeAll(spool, $0, to: "the spool file of \(displayName)") }
        spooled += off_t(buffer.count)
        buffer.removeAll(keepingCapacity: true)
    }

    func finish() throws {
        defer { closeSpool() }
        guard !feeds.isEmpty else { return }
        let file = try target.filePath.map { try AtomicFile(target: $0) }
        let output: Int32
        switch target {
        case .standardOutput: output = STDOUT_FILENO
        case .stream(let stream): output = open(stream, O_WRONLY | O_CLOEXEC)
        case .file: output = open(file!.temporaryPath, O_WRONLY | O_TRUNC | O_CLOEXEC)
        }
        guard output >= 0 else {
            file?.discard()
            throw IngestError(.output, "cannot open for writing: \(POSIX.lastError)", file: path)
        }
        defer { if output != STDOUT_FILENO { _ = POSIX.close(output) } }
        func put(_ text: String) throws {
            var text = text
            try text.withUTF8 { try POSIX.writeAll(output, UnsafeRawBufferPointer($0), to: displayName) }
        }
        if !single { try put("[\n") }
        for (number, feed) in feeds.sorted(by: { $0.index < $1.index }).enumerated() {
            if !single { try put("  ") }
            switch feed.ending {
            case .whole(let text):
                try put(text)
            case .around(let head, let tail):
                try put(head)
                try copySpool(feed.items, to: output)
                try put(tail)
            }
            if !single { try put(number < feeds.count - 1 ? ",\n" : "\n") }
        }
        try put(single ? "\n" : "]\n")
        try file?.commit()
    }

    /// Copies `range` of the spool to `output`, a block at a time.
    private func copySpool(_ range: Range<off_t>, to output: Int32) throws {
        var block = [UInt8](repeating: 0, count: 1 << 16)
        var offset = range.lowerBound
        while offset < range.upperBound {
            let wanted = Int(min(off_t(block.count), range.upperBound - offset))
            let count = block.withUnsafeMutableBytes { pread(spool, $0.baseAddress, wanted, offset) }
            guard count > 0 else {
                throw IngestError(
                    .output, "cannot read back the spool file: \(count < 0 ? POSIX.lastError : "it ended early")",
                    file: displayName)
            }
            try block.withUnsafeBytes {
                try POSIX.writeAll(output, UnsafeRawBufferPointer(rebasing: $0[..<count]), to: displayName)
            }
            offset += off_t(count)
        }
    }

    func discard() { closeSpool() }
}
