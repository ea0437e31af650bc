import Foundation
import IngestKit

/// `ingest feed page.html`: a file that holds an HTML page stands for the feed it
/// advertises (every one with `--all`), as a URL answering with a page does. The
/// page's relative links are resolved against the file's own `file:` address, so a
/// saved page beside its feed finds it; an `http(s)` link is fetched.
///
/// A page is told by its first bytes (`<!DOCTYPE html` or `<html`, after white space
/// and a byte order mark) and read whole up to ``maxPageBytes``. A file that is no
/// page, a page past that size, or one that advertises no feed stays a source as it
/// is: the run reads it and says what it is.
enum HTMLPageFiles {
    /// The most bytes of a page read for its links.
    static let maxPageBytes = 8 << 20

    /// `sources` with every HTML page among the files replaced by the feed it
    /// advertises first (`all`: by each), in order; says what it chose on `console`.
    static func expand(_ sources: [FeedSource], all: Bool, console: Console) -> [FeedSource] {
        var expanded: [FeedSource] = []
        for source in sources {
            guard case .file(let path, let absolute) = source, let page = htmlPage(at: path) else {
                expanded.append(source)
                continue
            }
            let feeds = FeedDiscovery.feeds(inHTML: page, pageURL: URL(fileURLWithPath: absolute).absoluteString)
            let chosen = all ? feeds : Array(feeds.prefix(1))
            guard let first = chosen.first else {
                expanded.append(source)
                continue
            }
            if all {
                console.notice(
                    "\(path): an HTML page advertising \(feeds.count) feed\(feeds.count == 1 ? "" : "s"): "
                        + feeds.map(\.url).joined(separator: ", "))
            } else {
                console.notice(
                    "\(path): an HTML page; reading the first feed it advertises, \(first.url) (\(first.type))")
            }
            for feed in chosen {
                guard let address = try? FeedSource(argument: feed.url) else {
                    console.warning("\(path): advertises \(feed.url), which is no file or URL to read; left out")
                    continue
                }
                expanded.append(address)
            }
        }
        return expanded
    }

    /// The text of the file at `path` when it is an HTML page of at most
    /// ``maxPageBytes``; `nil` otherwise.
    private static func htmlPage(at path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let head = try? handle.read(upToCount: 512), isHTML(head) else { return nil }
        let rest = (try? handle.read(upToCount: maxPageBytes - head.count + 1)) ?? Data()
        guard head.count + rest.count <= maxPageBytes else { return nil }
        return String(decoding: head + rest, as: UTF8.self)
    }

    /// Whether `head` starts, after a byte order mark and white space, with
    /// `<!DOCTYPE html` or `<html`, in any case.
    static func isHTML(_ head: Data) -> Bool {
        var bytes = head[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        let text = String(decoding: bytes.drop { [0x20, 0x09, 0x0A, 0x0D].contains($0) }.prefix(14), as: UTF8.self)
            .lowercased()
        return text.hasPrefix("<!doctype html") || text.hasPrefix("<html")
    }
}
