import Foundation
import IngestFeedArchive
import IngestFeeds
import Testing

/// The rules of the next fetch (issue 25: scheduling that a cron job can trust),
/// each alone and where they meet.
@Suite("FeedSchedule: when a feed may be fetched next")
struct FeedScheduleTests {
    /// Friday 27 November 2026, 10:30 UTC.
    static let friday = Date(timeIntervalSince1970: 1_795_775_400)
    let schedule = FeedSchedule()

    func next(
        _ fetch: FeedFetch = FeedFetch(url: "u", date: friday), hints: FeedUpdateHints = FeedUpdateHints(),
        failures: Int = 0
    ) -> TimeInterval {
        schedule.nextFetch(after: fetch, hints: hints, failures: failures).timeIntervalSince(Self.friday)
    }

    @Test("no word from the server or the feed: an hour")
    func byDefault() {
        #expect(next() == 3600)
    }

    @Test("Cache-Control max-age, Expires, no-cache; max-age wins over Expires")
    func httpFreshness() {
        let date = Self.friday
        func expires(_ cacheControl: String?, _ expires: String?) -> TimeInterval? {
            FeedFetch.expiry(cacheControl: cacheControl, expires: expires, at: date)?.timeIntervalSince(date)
        }
        #expect(expires("public, max-age=600", nil) == 600)
        #expect(expires("max-age=\"120\"", nil) == 120)
        #expect(expires("no-cache", "Fri, 27 Nov 2026 12:30:00 GMT") == 0)
        #expect(expires(nil, "Fri, 27 Nov 2026 12:30:00 GMT") == 7200)
        #expect(expires("max-age=60", "Fri, 27 Nov 2026 12:30:00 GMT") == 60)
        #expect(expires(nil, "0") == 0, "an Expires that is no date is in the past")
        #expect(expires("private", nil) == nil)
        #expect(expires(nil, nil) == nil)
        #expect(expires("max-age=99999999999999999999999", nil)! > 1e20, "a huge number does not trap")
        for malformed in ["=", "public,=,max-age=60", "==", ",=,", "=60", "max-age=", " = , max-age"] {
            let expected: TimeInterval? = malformed.contains("max-age=60") ? 60 : nil
            #expect(expires(malformed, nil) == expected, "a part with no name is passed over: \(malformed)")
        }

        let fresh = FeedFetch(url: "u", date: date, expires: date.addingTimeInterval(600))
        #expect(next(fresh) == 600, "shorter than the default: the server knows")
    }

    @Test("the longest of max-age, <ttl> and sy:updatePeriod ÷ sy:updateFrequency; a week at most")
    func longestHint() {
        let fetch = FeedFetch(url: "u", date: Self.friday, expires: Self.friday.addingTimeInterval(600))
        #expect(next(fetch, hints: FeedUpdateHints(timeToLive: 60)) == 3600)
        #expect(next(hints: FeedUpdateHints(timeToLive: 120)) == 7200)
        #expect(next(hints: FeedUpdateHints(updatePeriod: .hourly, updateFrequency: 2)) == 1800)
        #expect(next(hints: FeedUpdateHints(timeToLive: 30, updatePeriod: .daily)) == 86400)
        #expect(next(hints: FeedUpdateHints(timeToLive: 1_000_000)) == 7 * 86400)
    }

    @Test("failures: 15 minutes, doubling, at most a day; no trap however many")
    func backoff() {
        #expect(next(failures: 1) == 900)
        #expect(next(failures: 2) == 1800)
        #expect(next(failures: 3) == 3600)
        #expect(next(failures: 8) == 86400)
        #expect(next(failures: 1_000_000) == 86400)
        // What the feed says does not shorten a failure's wait, nor lengthen it.
        #expect(next(hints: FeedUpdateHints(timeToLive: 600), failures: 1) == 900)
    }

    @Test("Retry-After: seconds or an HTTP date, honoured up to a week")
    func retryAfter() {
        let date = Self.friday
        #expect(FeedFetch.retryDate("120", at: date)?.timeIntervalSince(date) == 120)
        #expect(FeedFetch.retryDate("Fri, 27 Nov 2026 11:30:00 GMT", at: date)?.timeIntervalSince(date) == 3600)
        #expect(FeedFetch.retryDate("Friday, 27-Nov-26 11:30:00 GMT", at: date)?.timeIntervalSince(date) == 3600)
        #expect(FeedFetch.retryDate("Fri Nov 27 11:30:00 2026", at: date)?.timeIntervalSince(date) == 3600)
        #expect(FeedFetch.retryDate("soon", at: date) == nil)
        #expect(FeedFetch.retryDate(nil, at: date) == nil)

        let later = FeedFetch(url: "u", status: 503, date: date, retryAfter: date.addingTimeInterval(7200))
        #expect(next(later, failures: 1) == 7200)
        let sooner = FeedFetch(url: "u", status: 503, date: date, retryAfter: date.addingTimeInterval(60))
        #expect(next(sooner, failures: 3) == 3600, "the backoff, when longer")
        let year = FeedFetch(url: "u", status: 429, date: date, retryAfter: date.addingTimeInterval(365 * 86400))
        #expect(next(year, failures: 1) == 7 * 86400)
    }

    @Test("skipHours and skipDays move the next fetch to the first hour neither rules out (UTC)")
    func skipping() {
        // 11:30 falls in skipped hours 11 and 12: 13:00.
        #expect(next(hints: FeedUpdateHints(skipHours: [11, 12])) == 2.5 * 3600)
        // Friday is day 5; skipping Friday and Saturday gives Sunday 00:00.
        let sunday = Date(timeIntervalSince1970: 1_795_910_400)  // 29 November 2026, 00:00 UTC
        #expect(next(hints: FeedUpdateHints(skipDays: [5, 6])) == sunday.timeIntervalSince(Self.friday))
        // An hour not skipped stays as it is.
        #expect(next(hints: FeedUpdateHints(skipHours: [3])) == 3600)
        // Every hour skipped: nothing skipped.
        #expect(next(hints: FeedUpdateHints(skipHours: Set(0..<24))) == 3600)
        #expect(next(hints: FeedUpdateHints(skipDays: Set(1...7))) == 3600)
    }
}
