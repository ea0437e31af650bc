import Foundation
import IngestFeedFetch
import IngestKit

/// Fetches a URL source into its ``FeedJob`` with the library's ``IngestFeedFetch/FeedFetcher``:
/// the response begins the job, items are delivered as the body is read (the
/// fetch stops when the job is over), and the job ends however the fetch ends —
/// its failures given the command's words and exit statuses (``FeedFailure``).
struct FeedJobFetcher: Sendable {
    let fetcher: FeedFetcher

    /// Fetches `request` into `job`, ending it however the fetch ends.
    func fetch(_ request: FeedRequest, into job: FeedJob) async {
        struct Stopped: Error {}
        do {
            let result = try await fetcher.fetch(
                request,
                onItem: { item, feed in
                    guard job.deliver(item, feed) else { throw Stopped() }
                },
                onResponse: { response in
                    if let feed = response.discoveredFeed { job.discovered = feed }
                    job.begin(response.archiveRecord)
                })
            switch result {
            case .notModified(let response):
                // The 304's caching headers say when to ask again.
                job.begin(response.archiveRecord)
                job.end(.notModified)
            case .feed(let feed, _):
                job.end(.finished(feed))
            }
        } catch is Stopped {
            return
        } catch let error as FeedFetchError {
            if let feed = error.discoveredFeed { job.discovered = feed }
            job.end(.failed(.fetching(error, of: job.source, maxBodyBytes: fetcher.configuration.maxBodyBytes)))
        } catch {
            job.end(.failed(.reading(error, of: job.source)))
        }
    }
}
