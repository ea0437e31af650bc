import Foundation
import IngestFeeds

/// When a feed may be fetched next: the rules a polite reader follows, which the
/// archive applies after every fetch and stores as the feed's `next_fetch`.
///
/// After a successful fetch (or a 304), the feed is fresh for the **longest** of
/// what the server and the feed say — the response's `Cache-Control: max-age` or
/// `Expires` (``FeedFetch/expires``), the feed's `<ttl>`, and its
/// `sy:updatePeriod` ÷ `sy:updateFrequency` — or ``defaultInterval`` when none
/// says anything, never more than ``maximumInterval``. After a failure, the wait
/// doubles with each consecutive failure from ``firstRetry`` up to ``longestRetry``
/// (reset by the next success). A `Retry-After` (``FeedFetch/retryAfter``) is
/// honoured either way, up to ``maximumInterval``. Last, the time moves past the
/// hours of the feed's `<skipHours>` and the days of its `<skipDays>` (in UTC, as
/// RSS says), unless they skip every hour.
///
/// ```swift
/// let next = FeedSchedule().nextFetch(after: fetch, hints: feed.updateHints, failures: 0)
/// ```
public struct FeedSchedule: Sendable, Hashable {
    /// How long a feed is fresh when neither the server nor the feed says.
    public var defaultInterval: TimeInterval = 3600
    /// The longest a feed waits, whatever the server or the feed says.
    public var maximumInterval: TimeInterval = 7 * 86400
    /// The wait after a first failure.
    public var firstRetry: TimeInterval = 15 * 60
    /// The longest wait after failures.
    public var longestRetry: TimeInterval = 86400

    /// The usual rules: an hour by default, a week at most; retries after 15
    /// minutes, doubling up to a day.
    public init() {}

    /// When the feed read by `fetch` may be fetched again, given what the feed says
    /// (`hints`: the last ones read, for a 304) and how many fetches in a row have
    /// now failed (0 after a success).
    public func nextFetch(after fetch: FeedFetch, hints: FeedUpdateHints, failures: Int) -> Date {
        var wait: TimeInterval
        if failures > 0 {
            // 2^(failures - 1) times the first wait; past 30 doublings it is capped anyway.
            wait = min(firstRetry * Double(1 << min(failures - 1, 30)), longestRetry)
        } else {
            let said = [
                fetch.expires.map { $0.timeIntervalSince(fetch.date) },
                hints.timeToLive.map { Double($0) * 60 },
                hints.syndicationInterval
            ].compactMap { $0 }
            wait = said.max() ?? defaultInterval
        }
        if let retryAfter = fetch.retryAfter { wait = max(wait, retryAfter.timeIntervalSince(fetch.date)) }
        wait = min(max(wait, 0), maximumInterval)
        return skippingHours(from: fetch.date.addingTimeInterval(wait), hints: hints)
    }

    /// `date`, or the start of the first hour after it that neither `<skipHours>`
    /// nor `<skipDays>` rules out (UTC).
    func skippingHours(from date: Date, hints: FeedUpdateHints) -> Date {
        guard !hints.skipHours.isEmpty || !hints.skipDays.isEmpty else { return date }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        func skipped(_ date: Date) -> Bool {
            let parts = calendar.dateComponents([.hour, .weekday], from: date)
            // Calendar's weekday is 1 for Sunday; the hints' are ISO 8601's, 7 for Sunday.
            let isoDay = ((parts.weekday ?? 1) + 5) % 7 + 1
            return hints.skipHours.contains(parts.hour ?? 0) || hints.skipDays.contains(isoDay)
        }
        guard skipped(date) else { return date }
        var hour = calendar.dateInterval(of: .hour, for: date)?.start ?? date
        // A week of hours covers every combination; if all are skipped, skip none.
        for _ in 0..<(7 * 24) {
            hour = hour.addingTimeInterval(3600)
            if !skipped(hour) { return hour }
        }
        return date
    }
}
