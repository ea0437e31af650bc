// ingest-feed-bench: a large feed through IngestFeeds' streaming API, as a feed
// reader app would read it — item by item, with FeedReader's callback or its
// AsyncSequence — and nothing kept but counts. Benchmarks/Feeds/run.sh runs it.
//
//   ingest-feed-bench FILE [callback|async]
//
// Prints one line: items, bytes, seconds, items/s, MB/s, peak RSS (VmHWM).
import Foundation
import IngestFeeds

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The peak resident set size so far, in kB (Linux's VmHWM), or 0 elsewhere.
func peakResidentKilobytes() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
    let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") }
    return line.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? 0
}

let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
    FileHandle.standardError.write(Data("usage: ingest-feed-bench FILE [callback|async]\n".utf8))
    exit(64)
}
let url = URL(fileURLWithPath: arguments[1])
let mode = arguments.count > 2 ? arguments[2] : "callback"
let bytes = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0
let started = Date()
var items = 0, titleBytes = 0, enclosures = 0, dated = 0

do {
    switch mode {
    case "async":
        for try await (item, _) in FeedReader().items(contentsOf: url) {
            items += 1
            titleBytes += item.title?.value.utf8.count ?? 0
            enclosures += item.enclosures.count
            if item.publishedParsed != nil { dated += 1 }
        }
    default:
        try FeedReader().read(contentsOf: url) { item, _ in
            items += 1
            titleBytes += item.title?.value.utf8.count ?? 0
            enclosures += item.enclosures.count
            if item.publishedParsed != nil { dated += 1 }
        }
    }
} catch {
    FileHandle.standardError.write(Data("ingest-feed-bench: \(error)\n".utf8))
    exit(65)
}

let seconds = Date().timeIntervalSince(started)
print(
    String(
        format:
            "%@: %d items (%d dated, %d enclosures, %d title bytes), %d bytes in %.2f s: %.0f items/s, %.1f MB/s, peak RSS %.1f MB",
        mode, items, dated, enclosures, titleBytes, bytes, seconds, Double(items) / seconds,
        Double(bytes) / seconds / 1e6, Double(peakResidentKilobytes()) / 1024))
