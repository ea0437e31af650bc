import Foundation

/// What one read of a source learned besides the feed: where it was read from, the
/// validators for the next conditional GET, the status and when.
///
/// ```swift
/// let fetch = FeedFetch(url: "https://example.org/feed.xml", status: 200,
///                       etag: response.headers.first(name: "ETag"))
/// ```
public struct FeedFetch: Sendable, Hashable {
    /// Where the feed is to be read from next time, stored as the feed's `url`: the
    /// address after permanent redirects (301, 308), else the one asked for; a
    /// file's path.
    public var url: String
    /// The HTTP status of the response the feed came in (or the failure's); `nil`
    /// for files and for failures without a response.
    public var status: Int?
    /// The response's `ETag`, sent back as `If-None-Match`.
    public var etag: String?
    /// The response's `Last-Modified`, sent back as `If-Modified-Since`.
    public var lastModified: String?
    /// When the read started.
    public var date: Date
    /// When the response goes stale, by its `Cache-Control: max-age` or else its
    /// `Expires` (see ``expiry(cacheControl:expires:at:)``); `nil` when it says
    /// nothing. ``FeedSchedule`` does not fetch again before.
    public var expires: Date?
    /// When the server asked to be asked again, by its `Retry-After` (on a 429 or
    /// 503, usually; see ``retryDate(_:at:)``); `nil` when it did not.
    public var retryAfter: Date?

    /// A read of `url`; see the properties.
    public init(
        url: String, status: Int? = nil, etag: String? = nil, lastModified: String? = nil, date: Date = Date(),
        expires: Date? = nil, retryAfter: Date? = nil
    ) {
        self.url = url
        self.status = status
        self.etag = etag
        self.lastModified = lastModified
        self.date = date
        self.expires = expires
        self.retryAfter = retryAfter
    }
}

/// How many items of a feed were new, changed or unchanged in one run.
public struct FeedArchiveCounts: Sendable, Hashable, CustomStringConvertible {
    /// Items not stored before: inserted.
    public var new = 0
    /// Items stored before whose content differs: updated in place.
    public var changed = 0
    /// Items stored before with the same content: left as they were.
    public var unchanged = 0
    /// Items that repeat an earlier item of the same read (the same guid, or link,
    /// or title and date): the first is kept.
    public var repeated = 0

    /// No items.
    public init() {}

    /// Every item read.
    public var total: Int { new + changed + unchanged + repeated }

    /// Adds another feed's counts.
    public static func + (lhs: FeedArchiveCounts, rhs: FeedArchiveCounts) -> FeedArchiveCounts {
        var sum = lhs
        sum.new += rhs.new
        sum.changed += rhs.changed
        sum.unchanged += rhs.unchanged
        sum.repeated += rhs.repeated
        return sum
    }

    /// `3 new, 1 changed, 40 unchanged` (and the repeats, if any).
    public var description: String {
        "\(new) new, \(changed) changed, \(unchanged) unchanged" + (repeated > 0 ? ", \(repeated) repeated" : "")
    }
}
