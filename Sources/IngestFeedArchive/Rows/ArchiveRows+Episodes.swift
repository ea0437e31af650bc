import Foundation
import IngestCore
import IngestFeeds

/// What a podcast app queries, typed, beside the `extensions` JSON: an item's
/// episode columns and its chapters, transcripts, persons, funding, alternate
/// enclosures and soundbites as child tables of `items`; a show's persons and
/// funding as child tables of `feeds`.
extension ArchiveRows {
    /// Adds the `items` row's episode columns: `duration_seconds`, `episode` and
    /// `season` (iTunes', else the Podcasting 2.0 tag's whole number),
    /// `episode_type`, `explicit`.
    func addEpisodeColumns(of item: FeedItem) {
        let iTunes = item.iTunes
        add("duration_seconds", iTunes?.durationSeconds.map { .integer(Int64($0)) } ?? .null)
        let episode = iTunes?.episode ?? item.podcast?.episode?.number.flatMap(Self.wholeNumber)
        add("episode", episode.map { .integer(Int64($0)) } ?? .null)
        let season = iTunes?.season ?? item.podcast?.season?.number
        add("season", season.map { .integer(Int64($0)) } ?? .null)
        add("episode_type", iTunes?.episodeType?.rawValue)
        add("explicit", iTunes?.isExplicit.map(FieldValue.bool) ?? .null)
    }

    /// Writes the item's episode child rows, each once by its key.
    func writeEpisodeChildren(of item: FeedItem, id: Int64, to sink: any RecordSink) throws {
        var starts: Set<String> = []
        for chapter in item.chapters where starts.insert(chapter.startText).inserted {
            start(FeedArchive.Table.chapters)
            add("item_id", .integer(id))
            add("start_seconds", Self.real(chapter.start))
            add("start", chapter.startText)
            add("title", chapter.title)
            add("href", chapter.href)
            add("image", chapter.image)
            try sink.write(record)
        }
        guard let podcast = item.podcast else { return }
        var transcriptURLs: Set<String> = []
        var alternateURLs: Set<String> = [], soundbites: Set<[Double]> = []
        for transcript in podcast.transcripts where transcriptURLs.insert(transcript.url).inserted {
            start(FeedArchive.Table.transcripts)
            add("item_id", .integer(id))
            add("url", transcript.url)
            add("type", transcript.type)
            add("language", transcript.language)
            add("rel", transcript.rel)
            try sink.write(record)
        }
        try write(podcast.persons, in: FeedArchive.Table.persons, parent: ("item_id", id), to: sink)
        try write(podcast.funding, in: FeedArchive.Table.funding, parent: ("item_id", id), to: sink)
        for enclosure in podcast.alternateEnclosures {
            guard let url = enclosure.sources.first?.uri, alternateURLs.insert(url).inserted else { continue }
            start(FeedArchive.Table.alternateEnclosures)
            add("item_id", .integer(id))
            add("url", url)
            add("type", enclosure.type)
            add("length", enclosure.length.map { .integer(Int64($0)) } ?? .null)
            add("bitrate", enclosure.bitrate.map(Self.real) ?? .null)
            add("height", enclosure.height.map { .integer(Int64($0)) } ?? .null)
            add("lang", enclosure.lang)
            add("title", enclosure.title)
            add("rel", enclosure.rel)
            add("codecs", enclosure.codecs)
            add("is_default", enclosure.isDefault.map(FieldValue.bool) ?? .null)
            try sink.write(record)
        }
        for soundbite in podcast.soundbites {
            guard let startTime = soundbite.startTime, let duration = soundbite.duration,
                soundbites.insert([startTime, duration]).inserted
            else { continue }
            start(FeedArchive.Table.soundbites)
            add("item_id", .integer(id))
            add("start_seconds", Self.real(startTime))
            add("duration_seconds", Self.real(duration))
            add("title", soundbite.title)
            try sink.write(record)
        }
    }

    /// Writes the show's child rows: the people and funding its channel names
    /// (`feed.podcast`).
    func writeShowChildren(of podcast: PodcastFeedExtension?, id: Int64, to sink: any RecordSink) throws {
        guard let podcast else { return }
        try write(podcast.persons, in: FeedArchive.Table.showPersons, parent: ("feed_id", id), to: sink)
        try write(podcast.funding, in: FeedArchive.Table.showFunding, parent: ("feed_id", id), to: sink)
    }

    /// Writes `persons` as rows of `table` (`persons` or `show_persons`) under the
    /// parent's key, each name and role once.
    private func write(
        _ persons: [PodcastPerson], in table: String, parent: (column: String, id: Int64),
        to sink: any RecordSink
    ) throws {
        var people: Set<[String]> = []
        for person in persons where people.insert([person.name, person.role ?? ""]).inserted {
            start(table)
            add(parent.column, .integer(parent.id))
            add("name", person.name)
            add("role", person.role ?? "")
            add("role_group", person.group)
            add("img", person.img)
            add("href", person.href)
            try sink.write(record)
        }
    }

    /// Writes `funding` as rows of `table` (`funding` or `show_funding`) under the
    /// parent's key, each URL once.
    private func write(
        _ funding: [PodcastFunding], in table: String, parent: (column: String, id: Int64),
        to sink: any RecordSink
    ) throws {
        var urls: Set<String> = []
        for entry in funding where urls.insert(entry.url).inserted {
            start(table)
            add(parent.column, .integer(parent.id))
            add("url", entry.url)
            add("text", entry.text)
            try sink.write(record)
        }
    }

    /// Writes again the show's child rows of a feed stored before the archive kept
    /// them, from the `extensions` JSON its `feeds` row holds (`stored`).
    func writeShowChildren(stored extensions: String, id: Int64, to sink: any RecordSink) throws {
        guard let tree = try? JSONDecoder().decode(StoredExtensionTree.self, from: Data(extensions.utf8)),
            let podcast = tree.extensions?["podcast"]
        else { return }
        try writeShowChildren(of: PodcastFeedExtension(podcast), id: id, to: sink)
    }

    /// Writes again the episode columns and child rows of an item stored before the
    /// archive kept them, from the `extensions` JSON it stored (`stored`); its other
    /// columns stay.
    func writeEpisodeColumns(
        stored extensions: String, id: Int64, feedID: Int64, contentHash: Int64,
        to sink: any RecordSink
    ) throws {
        guard let item = Self.item(fromStoredExtensions: extensions) else { return }
        start(FeedArchive.Table.items)
        add("feed_id", .integer(feedID))
        add("id", .integer(id))
        add("content_hash", .integer(contentHash))
        addEpisodeColumns(of: item)
        try sink.write(record)
        try writeEpisodeChildren(of: item, id: id, to: sink)
    }

    /// An item holding only what the `extensions` column stored for it — the
    /// extension tree, from which the typed views are read again.
    static func item(fromStoredExtensions text: String) -> FeedItem? {
        guard var item = try? JSONDecoder().decode(FeedItem.self, from: Data(text.utf8)) else { return nil }
        item.iTunes = item.extensions["itunes"].map(ITunesItemExtension.init) ?? item.iTunes
        item.podcast = item.extensions["podcast"].map(PodcastItemExtension.init) ?? item.podcast
        return item
    }

    /// `value` as a database real.
    static func real(_ value: Double) -> FieldValue {
        .number(FieldValue.Number(text: value.description, kind: .real))
    }

    /// `value` when it is a whole number that fits an `Int`.
    private static func wholeNumber(_ value: Double) -> Int? {
        guard value.rounded() == value, let whole = Int(exactly: value) else { return nil }
        return whole
    }
}

/// The extension tree of an `extensions` column (`{"extensions": {"podcast": …}}`).
private struct StoredExtensionTree: Decodable {
    var extensions: Extensions?
}
