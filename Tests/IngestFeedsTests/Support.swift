import Foundation
import IngestFeeds
import IngestCore
import IngestTestSupport

/// gofeed's test data, in `../shared/testdata/gofeed` beside the repository.
enum GofeedData {
    static let root = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/testdata/gofeed")
    static var isPresent: Bool { FileManager.default.fileExists(atPath: root.path) }
    static let absentMessage = "gofeed's test data is not at ../shared/testdata/gofeed beside the repository; skipped"

    /// The files of `directory` (relative to the gofeed data) ending in `suffix`, sorted.
    static func files(_ directory: String, suffix: String) -> [URL] {
        let url = root.appendingPathComponent(directory)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
        return names.filter { $0.hasSuffix(suffix) }.sorted().map { url.appendingPathComponent($0) }
    }
}

/// Reads `text` as a whole feed.
func feed(_ text: String, options: FeedReader.Options = FeedReader.Options()) throws -> Feed {
    try Feed(data: Data(text.utf8), options: options)
}

/// A ByteSource over bytes made on demand, a chunk at a time: inputs of any size
/// without holding them.
final class GeneratedSource: ByteSource {
    let displayName = "<generated>"
    private var pending: [UInt8] = []
    private var offset = 0
    private let next: () -> [UInt8]?
    private var done = false
    private(set) var produced = 0

    init(next: @escaping () -> [UInt8]?) {
        self.next = next
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        while offset == pending.count {
            guard !done, let more = next() else {
                done = true
                return 0
            }
            pending = more
            offset = 0
        }
        let count = min(buffer.count, pending.count - offset)
        pending.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress! + offset, byteCount: count) }
        offset += count
        produced += count
        return count
    }
}

/// The resident set size of this process, in bytes (Linux `/proc/self/statm`).
func residentBytes() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let fields = text.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}
