import Foundation
import IngestCore
import IngestFeeds

/// The records of the archive's tables, built from the model: one `feeds` row, one
/// `items` row and its children. Column names are interned once in a table of the
/// archive's own, which lives as long as the records it names.
final class ArchiveRows {
    private let names = NameTable()
    /// Per table, the names of its last row's columns by place: a row of a table
    /// names its columns in the same order as the one before, so the name at the same
    /// place is checked first, with one comparison of two short strings, before
    /// `names` hashes the column's name. A few tables, so found by a walk.
    private var namesByPlace: [(table: String, names: [Name])] = [("", [])]
    /// The index in `namesByPlace` of the row being filled's table (`record.table`).
    private var current = 0
    /// The record being filled (its storage reused row after row).
    var record = IngestRecord(table: "")

    /// The interned name of `column`, the next of the row being filled.
    private func name(_ column: String) -> Name {
        let place = record.fields.count
        let count = namesByPlace[current].names.count
        if place < count, namesByPlace[current].names[place].qualified == column {
            return namesByPlace[current].names[place]
        }
        let name = names.intern(column)
        if place < count {
            namesByPlace[current].names[place] = name
        } else {
            namesByPlace[current].names.append(name)
        }
        return name
    }

    func start(_ table: String) {
        if namesByPlace[current].table != table {
            current =
                namesByPlace.firstIndex { $0.table == table }
                ?? {
                    namesByPlace.append((table, []))
                    return namesByPlace.count - 1
                }()
        }
        record.table = table
        record.fields.removeAll(keepingCapacity: true)
    }

    func add(_ column: String, _ value: FieldValue) {
        record.fields.append(IngestRecord.Field(name: name(column), value: value))
    }

    func add(_ column: String, _ text: String?) {
        add(column, text.map(FieldValue.text) ?? .null)
    }

    // MARK: - feeds

    /// Writes the `feeds` row of `feed` read as `fetch`, to be fetched next at
    /// `nextFetch`; returns it by column.
    @discardableResult
    func writeFeed(
        _ feed: Feed, id: Int64, source: String, fetch: FeedFetch, nextFetch: Date,
        to sink: any RecordSink
    ) throws -> [String: FieldValue] {
        start(FeedArchive.Table.feeds)
        add("id", .integer(id))
        add("source", source)
        add("url", fetch.url)
        add("title", feed.title?.value)
        add("link", feed.link)
        add("feed_link", feed.feedLink)
        add("description", feed.description?.value)
        add("type", feed.format.family.rawValue)
        add("version", feed.format.version.isEmpty ? nil : feed.format.version)
        add("language", feed.language)
        add("copyright", feed.copyright)
        add("generator", feed.generator)
        add("image", feed.image?.url)
        add("author", feed.author.flatMap(Self.display))
        add("categories", Self.jsonArray(feed.categories))
        add("updated", feed.updated)
        add("updated_at", feed.updatedParsed?.rfc3339)
        add("published", feed.published)
        add("published_at", feed.publishedParsed?.rfc3339)
        add("well_formed", .bool(feed.wellFormed))
        add("first_error", feed.firstError.map { "\($0.line):\($0.column): \($0.message)" })
        add(
            "extensions",
            Self.extensions(
                dublinCore: feed.dublinCore?.gofeedJSONValue, iTunes: feed.iTunes?.gofeedJSONValue,
                extensions: feed.extensions, custom: [:]))
        add("etag", fetch.etag)
        add("last_modified", fetch.lastModified)
        add("last_fetched", Self.timestamp(fetch.date))
        add("last_status", fetch.status.map { .integer(Int64($0)) } ?? .null)
        add("last_error", .null)
        add("failures", .integer(0))
        add("next_fetch", Self.timestamp(nextFetch))
        let hints = feed.updateHints
        add("ttl", hints.timeToLive.map { .integer(Int64($0)) } ?? .null)
        add("skip_hours", Self.jsonIntegers(hints.skipHours))
        add("skip_days", Self.jsonIntegers(hints.skipDays))
        add("update_period", hints.updatePeriod?.rawValue)
        add("update_frequency", hints.updateFrequency.map { .integer(Int64($0)) } ?? .null)
        try sink.write(record)
        return currentRow
    }

    /// A set of integers as a sorted JSON array; NULL when empty.
    private static func jsonIntegers(_ values: Set<Int>) -> FieldValue {
        guard !values.isEmpty else { return .null }
        return .json(JSONValue.array(values.sorted().map { .number(String($0)) }).serialized, .array)
    }

    /// The record being written, by column.
    private var currentRow: [String: FieldValue] {
        Dictionary(record.fields.map { ($0.name.qualified, $0.value) }) { first, _ in first }
    }

    /// Writes a fetch's columns of a `feeds` row, and only them: when, the status if
    /// there was a response, what went wrong (`error`; `nil` for a 304), the
    /// failures in a row and the next fetch. The validators and everything read
    /// before stay as stored (the archive's outputs upsert, keeping the columns a
    /// record lacks); a source never archived gets a row that says only that.
    /// Returns the columns written.
    func writeFetch(
        stored: StoredFeed?, id: Int64, source: String, fetch: FeedFetch, error: String?, failures: Int,
        nextFetch: Date, to sink: any RecordSink
    ) throws -> [String: FieldValue] {
        start(FeedArchive.Table.feeds)
        add("id", .integer(id))
        add("source", stored?.source ?? source)
        if stored?.url == nil { add("url", fetch.url) }
        add("last_fetched", Self.timestamp(fetch.date))
        add("last_status", fetch.status.map { .integer(Int64($0)) } ?? .null)
        add("last_error", error)
        add("failures", .integer(Int64(failures)))
        add("next_fetch", Self.timestamp(nextFetch))
        try sink.write(record)
        return currentRow
    }

    /// Writes the categories of the subscription list a `feeds` row is in, and only
    /// them, so that a fetch another run records meanwhile stays whole; a source never
    /// archived gets a row that says only that. Returns the columns written.
    func writeSubscription(
        stored: StoredFeed?, id: Int64, source: String, categories: [String],
        to sink: any RecordSink
    ) throws -> [String: FieldValue] {
        start(FeedArchive.Table.feeds)
        add("id", .integer(id))
        add("source", stored?.source ?? source)
        if stored?.url == nil { add("url", source) }
        add("subscription_categories", Self.jsonArray(categories))
        try sink.write(record)
        return currentRow
    }

    // MARK: - items

    /// Writes the `items` row of `item` and its children.
    func writeItem(
        _ item: FeedItem, extensions: FieldValue, id: Int64, feedID: Int64, contentHash: Int64,
        firstSeen: String, now: String, to sink: any RecordSink
    ) throws {
        start(FeedArchive.Table.items)
        add("feed_id", .integer(feedID))
        add("id", .integer(id))
        add("guid", item.guid)
        add("link", item.link)
        add("title", item.title?.value)
        add("summary", item.description?.value)
        add("content", item.content?.value)
        add("author", item.author.flatMap(Self.display))
        add("published", item.published)
        add("published_at", item.publishedParsed?.rfc3339)
        add("updated", item.updated)
        add("updated_at", item.updatedParsed?.rfc3339)
        add("image", item.image?.url)
        add("extensions", extensions)
        add("content_hash", .integer(contentHash))
        add("first_seen", firstSeen)
        add("last_changed", now)
        addEpisodeColumns(of: item)
        try sink.write(record)
        try writeEpisodeChildren(of: item, id: id, to: sink)

        var enclosureURLs: Set<String> = []
        for enclosure in item.enclosures {
            guard let url = enclosure.url, enclosureURLs.insert(url).inserted else { continue }
            start(FeedArchive.Table.enclosures)
            add("item_id", .integer(id))
            add("url", url)
            add("type", enclosure.type)
            add("length", enclosure.byteCount.map { .integer(Int64($0)) } ?? .null)
            try sink.write(record)
        }
        var categories: Set<String> = []
        for category in item.categories where categories.insert(category).inserted {
            start(FeedArchive.Table.categories)
            add("item_id", .integer(id))
            add("name", category)
            try sink.write(record)
        }
        var people: Set<[String]> = []
        for person in item.authors.isEmpty ? (item.author.map { [$0] } ?? []) : item.authors {
            let name = person.name ?? "", email = person.email ?? ""
            guard !(name.isEmpty && email.isEmpty), people.insert([name, email]).inserted else { continue }
            start(FeedArchive.Table.authors)
            add("item_id", .integer(id))
            add("name", name)
            add("email", email)
            add("url", person.url)
            try sink.write(record)
        }
    }

    /// The `extensions` column of `item`'s row.
    static func extensions(of item: FeedItem) -> FieldValue {
        extensions(
            dublinCore: item.dublinCore?.gofeedJSONValue, iTunes: item.iTunes?.gofeedJSONValue,
            extensions: item.extensions, custom: item.custom)
    }

    /// The hash of everything an item's rows hold, but the keys and the times: what
    /// tells a changed item from an unchanged one. `extensions` is the item's
    /// ``extensions(of:)``.
    static func contentHash(of item: FeedItem, extensions: FieldValue) -> Int64 {
        var key = ArchiveKey("content")
        for text in [
            item.guid, item.link, item.title?.value, item.description?.value, item.content?.value,
            item.author.flatMap(display), item.published, item.updated, item.image?.url
        ] {
            key.add(text)
        }
        for enclosure in item.enclosures {
            key.add("enclosure")
            key.add(enclosure.url)
            key.add(enclosure.type)
            key.add(enclosure.length)
        }
        for category in item.categories {
            key.add("category")
            key.add(category)
        }
        for person in item.authors {
            key.add("author")
            key.add(person.name)
            key.add(person.email)
            key.add(person.url)
        }
        if extensions != .null {
            key.add("extensions")
            key.add(extensions.text)
        }
        return key.value
    }

    // MARK: - Values

    /// `Name <email>`, or whichever of the two there is.
    static func display(_ person: Person) -> String? {
        switch (person.name, person.email) {
        case let (name?, email?): "\(name) <\(email)>"
        case let (name?, nil): name
        case let (nil, email?): email
        case (nil, nil): nil
        }
    }

    /// `["a","b"]`, or NULL for none.
    private static func jsonArray(_ values: [String]) -> FieldValue {
        guard !values.isEmpty else { return .null }
        return .json(JSONValue.array(values.map(JSONValue.string)).serialized, .array)
    }

    /// gofeed's `dcExt`, `itunesExt`, `extensions` and `custom`, as one JSON object;
    /// NULL when there are none.
    private static func extensions(
        dublinCore: JSONValue?, iTunes: JSONValue?, extensions: Extensions,
        custom: [String: String]
    ) -> FieldValue {
        var members: [(String, JSONValue)] = []
        if let dublinCore { members.append(("dcExt", dublinCore)) }
        if let iTunes { members.append(("itunesExt", iTunes)) }
        if !extensions.isEmpty {
            members.append(("extensions", Extension.gofeedJSONValue(extensions)))
        }
        if !custom.isEmpty {
            members.append(("custom", .object(custom.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })))
        }
        return members.isEmpty ? .null : .json(JSONValue.object(members).serialized, .object)
    }

    /// `2026-11-23T02:00:00Z`.
    static func timestamp(_ date: Date) -> String {
        FeedDate(secondsSince1970: Int64(date.timeIntervalSince1970.rounded(.down))).rfc3339
    }
}
