import Archiver
import Foundation
import IngestFeedFetch

// FeedArchiver DATABASE URL…: one line per feed; exit 0, 75 (try later) or 1.
// In a crontab:  */30 * * * *  FeedArchiver ~/feeds.db https://example.com/feed.xml
let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count >= 2 else {
    FileHandle.standardError.write(Data("usage: FeedArchiver DATABASE URL…\n".utf8))
    exit(64)
}
let fetcher = FeedFetcher()
var outcomes: [Archiver.Outcome] = []
do {
    let archiver = try Archiver(databasePath: arguments[0], fetcher: fetcher)
    for url in arguments.dropFirst().compactMap(URL.init(string:)) {
        let outcome = await archiver.update(url)
        outcomes.append(outcome)
        switch outcome {
        case .archived(let counts): print("\(url.absoluteString): \(counts)")
        case .notModified: print("\(url.absoluteString): not modified")
        case .failed(let message, _): FileHandle.standardError.write(Data("\(url.absoluteString): \(message)\n".utf8))
        }
    }
} catch {
    FileHandle.standardError.write(Data("FeedArchiver: \(error)\n".utf8))
    outcomes.append(.failed("\(error)", temporary: false))
}
try await fetcher.shutdown()
exit(Archiver.exitStatus(outcomes))
