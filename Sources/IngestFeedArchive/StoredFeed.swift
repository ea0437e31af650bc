import Foundation
import IngestCore
import IngestFeeds

/// A source as the archive holds it: its key, where to fetch it and the validators
/// of its last successful fetch.
public struct StoredFeed: Sendable, Equatable {
    /// The `feeds` row's key, which its items refer to.
    public var id: Int64
    /// The source as it was first archived: a path, `-`'s feed address, a URL.
    public var source: String
    /// Where it is read from now (moved by permanent redirects).
    public var url: String?
    /// The stored `ETag`, for `If-None-Match`.
    public var etag: String?
    /// The stored `Last-Modified`, for `If-Modified-Since`.
    public var lastModified: String?
    /// The feed's title when it was last read.
    public var title: String?
    /// When it was last fetched, successfully or not.
    public var lastFetched: Date?
    /// The HTTP status of its last fetch (304 included); `nil` for files.
    public var lastStatus: Int?
    /// How many fetches in a row have failed; 0 after a success.
    public var failures: Int
    /// When it may be fetched again (``FeedArchive/schedule``); `nil` in rows
    /// stored before the archive kept it: due now.
    public var nextFetch: Date?
    /// What the feed said, when it was last read, about how often to fetch it.
    public var updateHints: FeedUpdateHints
    /// The folders of the subscription list it was imported from, as `News/Tech`
    /// paths (``FeedArchive/recordSubscriptions(_:)``).
    public var subscriptionCategories: [String]
    /// The site the feed belongs to (its `link`), when it was last read.
    public var link: String?
    /// The row's ``columns``, by name: what a write of some of them is merged over
    /// to give the row as stored.
    var row: [String: FieldValue]

    /// The columns of a `feeds` row that the properties are read from. A row keeps
    /// only these: an archive holds one for every feed it lists, and descriptions,
    /// images and extensions have no part in fetching.
    static let columns: Set<String> = [
        "id", "source", "url", "etag", "last_modified", "title", "last_fetched", "last_status", "failures",
        "next_fetch", "link", "subscription_categories", "ttl", "skip_hours", "skip_days", "update_period",
        "update_frequency"
    ]

    init(row: [String: FieldValue]) {
        self.row = row.filter { Self.columns.contains($0.key) }
        id = row["id"]?.int64 ?? 0
        source = row["source"]?.text ?? ""
        url = row["url"]?.text
        etag = row["etag"]?.text
        lastModified = row["last_modified"]?.text
        title = row["title"]?.text
        lastFetched = row["last_fetched"]?.text.flatMap(Self.date)
        lastStatus = row["last_status"]?.int64.flatMap { Int(exactly: $0) }
        failures = row["failures"]?.int64.flatMap { Int(exactly: $0) } ?? 0
        nextFetch = row["next_fetch"]?.text.flatMap(Self.date)
        link = row["link"]?.text
        if let text = row["subscription_categories"]?.text, case .array(let elements)? = try? JSONValue(parsing: text) {
            subscriptionCategories = elements.compactMap { if case .string(let name) = $0 { name } else { nil } }
        } else {
            subscriptionCategories = []
        }
        updateHints = FeedUpdateHints(
            timeToLive: row["ttl"]?.int64.flatMap { Int(exactly: $0) },
            skipHours: Set(Self.integers(row["skip_hours"])), skipDays: Set(Self.integers(row["skip_days"])),
            updatePeriod: row["update_period"]?.text.flatMap(FeedUpdateHints.UpdatePeriod.init(rawValue:)),
            updateFrequency: row["update_frequency"]?.int64.flatMap { Int(exactly: $0) })
    }

    /// Whether the feed is due at `date`: its next fetch is not later.
    public func isDue(at date: Date = Date()) -> Bool {
        nextFetch.map { $0 <= date } ?? true
    }

    /// A stored RFC 3339 timestamp (as ``ArchiveRows`` writes them) as a date, read
    /// by the feeds' own date parser: a Foundation `ISO8601DateFormatter` made per
    /// call (an ICU formatter each time) was a quarter of a 2,000-feed re-run's CPU.
    static func date(_ text: String) -> Date? {
        FeedDate(parsing: text)?.date
    }

    /// The integers of a stored JSON array.
    private static func integers(_ value: FieldValue?) -> [Int] {
        guard let text = value?.text, case .array(let elements)? = try? JSONValue(parsing: text) else { return [] }
        return elements.compactMap { element in
            if case .number(let number) = element { return Int(number) } else { return nil }
        }
    }
}
