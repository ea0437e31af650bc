import Foundation
import IngestFeedFetch
import IngestKit

/// A job read by the writer, whatever its source: files and standard input are
/// parsed here, on the writing thread; a URL's items come from its fetching task.
extension FeedJob {
    /// What a source's read turned out to be before its first item.
    enum Opening {
        /// A feed to read, fetched as `fetch` says.
        case feed(FeedFetch)
        case notModified
        /// Another run sharing the archive fetches it.
        case leasedElsewhere
        case failed(FeedFailure)
    }

    /// Waits for the fetch to show what it got. Files are always feeds (errors come
    /// when they are read); a directory without feeds never is.
    func open() -> Opening {
        switch source {
        case .directory(_, let problem):
            return .failed(Self.unlisted(problem))
        case .file(_, let absolute):
            return .feed(FeedFetch(url: absolute))
        case .standardInput:
            return .feed(FeedFetch(url: "-"))
        case .url:
            switch endingBeforeItems() {
            case .notModified?: return .notModified
            case .leasedElsewhere?: return .leasedElsewhere
            case .failed(let failure)?: return .failed(failure)
            case .finished?, nil: return .feed(fetch ?? FeedFetch(url: source.displayName))
            }
        }
    }

    /// Reads the feed, calling `deliver` with each item and the feed so far, and
    /// returns the feed; their HTML sanitized when ``sanitizesHTML``. Throws the
    /// source's ``FeedFailure`` or the library's error.
    func read(limits: ParseLimits, _ deliver: (FeedItem, Feed) throws -> Void) throws -> Feed {
        guard sanitizesHTML else { return try readAsGiven(limits: limits, deliver) }
        var safe = SafeFeedHTML()
        let feed = try readAsGiven(limits: limits) { item, feed in try deliver(safe.item(item), safe.feed(feed)) }
        return safe.feed(feed)
    }

    /// Reads the feed as ``read(limits:_:)`` does, its text as the feed gave it.
    private func readAsGiven(limits: ParseLimits, _ deliver: (FeedItem, Feed) throws -> Void) throws -> Feed {
        switch source {
        case .file(let path, _):
            let reader = FeedReader(options: FeedReader.Options(limits: limits, onWarning: onWarning))
            return try reader.read(
                InputFile(path: path).decompressed(),
                reopen: { try InputFile(path: path).decompressed() }, deliver)
        case .standardInput:
            let reader = FeedReader(options: FeedReader.Options(limits: limits, onWarning: onWarning))
            return try reader.readOnce(InputFile(path: "-"), deliver)
        case .directory(_, let problem):
            throw Self.unlisted(problem)
        case .url:
            while true {
                switch next() {
                case .item(let item, let feed): try deliver(item, feed)
                case .ending(.finished(let feed)): return feed
                case .ending(.failed(let failure)): throw failure
                case .ending(.notModified): throw FeedFailure("HTTP 304 after the feed began", exitCode: 70)
                case .ending(.leasedElsewhere):
                    throw FeedFailure("claimed by another run after the feed began", exitCode: 70)
                }
            }
        }
    }

    /// A directory that gave no feed to read: as a missing file, 66.
    private static func unlisted(_ problem: String) -> FeedFailure {
        FeedFailure(problem, exitCode: IngestError.Kind.input.exitCode)
    }
}
