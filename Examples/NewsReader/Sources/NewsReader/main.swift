import Foundation
import IngestFeedFetch
import News

// NewsReader URL…: the five newest items of each feed; exit 1 if any failed.
let fetcher = FeedFetcher()
var failed = false
for argument in CommandLine.arguments.dropFirst() {
    do {
        print("== \(argument)")
        for headline in try await newest(5, at: URL(string: argument)!, with: fetcher) {
            print("* \(headline.title)\n  \(headline.summary)")
        }
    } catch {
        failed = true
        FileHandle.standardError.write(Data("NewsReader: \(error)\n".utf8))
    }
}
try await fetcher.shutdown()
exit(failed ? 1 : 0)
