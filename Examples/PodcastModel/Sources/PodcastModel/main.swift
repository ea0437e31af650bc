import Foundation
import IngestFeedFetch
import Podcast

// PodcastModel FILE-OR-URL: the show and its episodes, as the app's model holds them.
guard let source = CommandLine.arguments.dropFirst().first else {
    FileHandle.standardError.write(Data("usage: PodcastModel FILE-OR-URL\n".utf8))
    exit(64)
}
let show: Show
if source.hasPrefix("http://") || source.hasPrefix("https://"), let url = URL(string: source) {
    let fetcher = FeedFetcher()
    do {
        show = try await Show.fetch(url, with: fetcher)
        try await fetcher.shutdown()
    } catch {
        try await fetcher.shutdown()
        throw error
    }
} else {
    show = try Show(contentsOf: source)
}
print("\(show.title) by \(show.author ?? "?"): \(show.episodes.count) episodes")
for episode in show.episodes {
    let number = [episode.season.map { "S\($0)" }, episode.number.map { "E\($0)" }].compactMap { $0 }.joined()
    print("\(number) \(episode.title) (\(episode.durationSeconds ?? 0) s, \(episode.chapters.count) chapters)")
}
