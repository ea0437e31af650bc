import IngestCore

// The Podcasting 2.0 views as JSON: under `podcastExt`, beside gofeed's `itunesExt`
// in a feed's and an item's JSON (gofeed has no such key, so gofeed's keys keep
// gofeed's values). Keys are the Swift property names except `protocol` and
// `default`; empty fields are left out as gofeed leaves its own out; times and
// numbers are JSON numbers, flags JSON booleans, parsed dates RFC 3339 in UTC.
// `Decodable` reads the same shape back; the simple types have it synthesized
// beside their declaration, the ones holding arrays here.

/// A Podcasting 2.0 value that writes itself as a JSON object.
protocol PodcastJSONWritable {
    var jsonValue: JSONValue { get }
}

extension JSONObjectBuilder {
    mutating func add(_ key: String, _ value: Int?) {
        if let value { add(key, JSONValue.number(String(value))) }
    }

    /// A whole number is written without a fraction (`60`, not `60.0`).
    mutating func add(_ key: String, _ value: Double?) {
        guard let value else { return }
        if value == value.rounded(), abs(value) < 1e15, let whole = Int64(exactly: value) {
            add(key, JSONValue.number(String(whole)))
        } else {
            add(key, JSONValue.number(String(value)))
        }
    }

    mutating func add(_ key: String, _ value: Bool?) {
        if let value { add(key, JSONValue.bool(value)) }
    }

    mutating func add(_ key: String, _ value: FeedDate?) {
        add(key, value?.rfc3339)
    }

    mutating func add(_ key: String, _ value: (some PodcastJSONWritable)?) {
        add(key, value?.jsonValue)
    }

    mutating func add(_ key: String, _ values: [some PodcastJSONWritable]) {
        add(key, values.map(\.jsonValue))
    }
}

extension KeyedDecodingContainer {
    /// The array under `key`; empty when absent, as the writer leaves empty ones out.
    func list<Element: Decodable>(_ key: Key) throws -> [Element] {
        try decodeIfPresent([Element].self, forKey: key) ?? []
    }
}

extension PodcastJSONWritable {
    /// Encodes the JSON object of ``jsonValue``.
    public func encode(to encoder: any Encoder) throws {
        try EncodableJSON(jsonValue).encode(to: encoder)
    }
}

extension PodcastFeedExtension: Codable, PodcastJSONWritable {
    enum CodingKeys: String, CodingKey {
        case locked, funding, persons, locations, trailers, license, guid, values, medium, imagesSrcset, images,
            liveItems, socialInteracts, blocks, txts, remoteItems, podroll, updateFrequency, usesPodping, chat,
            publisher
    }

    var jsonValue: JSONValue {
        var object = JSONObjectBuilder()
        object.add("locked", locked)
        object.add("funding", funding)
        object.add("persons", persons)
        object.add("locations", locations)
        object.add("trailers", trailers)
        object.add("license", license)
        object.add("guid", guid)
        object.add("values", values)
        object.add("medium", medium)
        object.add("imagesSrcset", imagesSrcset)
        object.add("images", images)
        object.add("liveItems", liveItems)
        object.add("socialInteracts", socialInteracts)
        object.add("blocks", blocks)
        object.add("txts", txts)
        object.add("remoteItems", remoteItems)
        object.add("podroll", podroll)
        object.add("updateFrequency", updateFrequency)
        object.add("usesPodping", usesPodping)
        object.add("chat", chat)
        object.add("publisher", publisher)
        return object.value
    }

    /// Decodes the JSON this type encodes; absent members are empty.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init()
        locked = try container.decodeIfPresent(PodcastLocked.self, forKey: .locked)
        funding = try container.list(.funding)
        persons = try container.list(.persons)
        locations = try container.list(.locations)
        trailers = try container.list(.trailers)
        license = try container.decodeIfPresent(PodcastLicense.self, forKey: .license)
        guid = try container.decodeIfPresent(String.self, forKey: .guid)
        values = try container.list(.values)
        medium = try container.decodeIfPresent(String.self, forKey: .medium)
        imagesSrcset = try container.decodeIfPresent(String.self, forKey: .imagesSrcset)
        images = try container.list(.images)
        liveItems = try container.list(.liveItems)
        socialInteracts = try container.list(.socialInteracts)
        blocks = try container.list(.blocks)
        txts = try container.list(.txts)
        remoteItems = try container.list(.remoteItems)
        podroll = try container.list(.podroll)
        updateFrequency = try container.decodeIfPresent(PodcastUpdateFrequency.self, forKey: .updateFrequency)
        usesPodping = try container.decodeIfPresent(Bool.self, forKey: .usesPodping)
        chat = try container.decodeIfPresent(PodcastChat.self, forKey: .chat)
        publisher = try container.decodeIfPresent(PodcastRemoteItem.self, forKey: .publisher)
    }
}

extension PodcastItemExtension: Codable, PodcastJSONWritable {
    enum CodingKeys: String, CodingKey {
        case transcripts, chapters, soundbites, persons, locations, season, episode, license, alternateEnclosures,
            values, imagesSrcset, images, socialInteracts, txts, chat, funding, contentLinks
    }

    var jsonValue: JSONValue {
        var object = JSONObjectBuilder()
        object.add("transcripts", transcripts)
        object.add("chapters", chapters)
        object.add("soundbites", soundbites)
        object.add("persons", persons)
        object.add("locations", locations)
        object.add("season", season)
        object.add("episode", episode)
        object.add("license", license)
        object.add("alternateEnclosures", alternateEnclosures)
        object.add("values", values)
        object.add("imagesSrcset", imagesSrcset)
        object.add("images", images)
        object.add("socialInteracts", socialInteracts)
        object.add("txts", txts)
        object.add("chat", chat)
        object.add("funding", funding)
        object.add("contentLinks", contentLinks)
        return object.value
    }

    /// Decodes the JSON this type encodes; absent members are empty.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init()
        transcripts = try container.list(.transcripts)
        chapters = try container.decodeIfPresent(PodcastChapters.self, forKey: .chapters)
        soundbites = try container.list(.soundbites)
        persons = try container.list(.persons)
        locations = try container.list(.locations)
        season = try container.decodeIfPresent(PodcastSeason.self, forKey: .season)
        episode = try container.decodeIfPresent(PodcastEpisode.self, forKey: .episode)
        license = try container.decodeIfPresent(PodcastLicense.self, forKey: .license)
        alternateEnclosures = try container.list(.alternateEnclosures)
        values = try container.list(.values)
        imagesSrcset = try container.decodeIfPresent(String.self, forKey: .imagesSrcset)
        images = try container.list(.images)
        socialInteracts = try container.list(.socialInteracts)
        txts = try container.list(.txts)
        chat = try container.decodeIfPresent(PodcastChat.self, forKey: .chat)
        funding = try container.list(.funding)
        contentLinks = try container.list(.contentLinks)
    }
}

extension PodcastAlternateEnclosure: Codable, PodcastJSONWritable {
    enum CodingKeys: String, CodingKey {
        case type, length, bitrate, height, lang, title, rel, codecs, isDefault = "default", sources, integrity
    }

    var jsonValue: JSONValue {
        var object = JSONObjectBuilder()
        object.add("type", type)
        object.add("length", length)
        object.add("bitrate", bitrate)
        object.add("height", height)
        object.add("lang", lang)
        object.add("title", title)
        object.add("rel", rel)
        object.add("codecs", codecs)
        object.add("default", isDefault)
        object.add("sources", sources)
        object.add("integrity", integrity)
        return object.value
    }

    /// Decodes the JSON this type encodes; absent members are empty.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        type = try container.decodeIfPresent(String.self, forKey: .type)
        length = try container.decodeIfPresent(Int.self, forKey: .length)
        bitrate = try container.decodeIfPresent(Double.self, forKey: .bitrate)
        height = try container.decodeIfPresent(Int.self, forKey: .height)
        lang = try container.decodeIfPresent(String.self, forKey: .lang)
        title = try container.decodeIfPresent(String.self, forKey: .title)
        rel = try container.decodeIfPresent(String.self, forKey: .rel)
        codecs = try container.decodeIfPresent(String.self, forKey: .codecs)
        isDefault = try container.decodeIfPresent(Bool.self, forKey: .isDefault)
        sources = try container.list(.sources)
        integrity = try container.decodeIfPresent(PodcastIntegrity.self, forKey: .integrity)
    }
}

extension PodcastValue: Codable, PodcastJSONWritable {
    enum CodingKeys: String, CodingKey { case type, method, suggested, recipients, timeSplits }

    var jsonValue: JSONValue {
        var object = JSONObjectBuilder()
        object.add("type", type)
        object.add("method", method)
        object.add("suggested", suggested)
        object.add("recipients", recipients)
        object.add("timeSplits", timeSplits)
        return object.value
    }

    /// Decodes the JSON this type encodes; absent members are empty.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        type = try container.decodeIfPresent(String.self, forKey: .type)
        method = try container.decodeIfPresent(String.self, forKey: .method)
        suggested = try container.decodeIfPresent(String.self, forKey: .suggested)
        recipients = try container.list(.recipients)
        timeSplits = try container.list(.timeSplits)
    }
}

extension PodcastValueTimeSplit: Codable, PodcastJSONWritable {
    enum CodingKeys: String, CodingKey {
        case startTime, duration, remoteStartTime, remotePercentage, remoteItem, recipients
    }

    var jsonValue: JSONValue {
        var object = JSONObjectBuilder()
        object.add("startTime", startTime)
        object.add("duration", duration)
        object.add("remoteStartTime", remoteStartTime)
        object.add("remotePercentage", remotePercentage)
        object.add("remoteItem", remoteItem)
        object.add("recipients", recipients)
        return object.value
    }

    /// Decodes the JSON this type encodes; absent members are empty.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        startTime = try container.decodeIfPresent(Double.self, forKey: .startTime)
        duration = try container.decodeIfPresent(Double.self, forKey: .duration)
        remoteStartTime = try container.decodeIfPresent(Double.self, forKey: .remoteStartTime)
        remotePercentage = try container.decodeIfPresent(Double.self, forKey: .remotePercentage)
        remoteItem = try container.decodeIfPresent(PodcastRemoteItem.self, forKey: .remoteItem)
        recipients = try container.list(.recipients)
    }
}

extension PodcastLiveItem: Codable, PodcastJSONWritable {
    enum CodingKeys: String, CodingKey {
        case status, start, startParsed, end, endParsed, title, guid, contentLinks, alternateEnclosures
    }

    var jsonValue: JSONValue {
        var object = JSONObjectBuilder()
        object.add("status", status)
        object.add("start", start)
        object.add("startParsed", startParsed)
        object.add("end", end)
        object.add("endParsed", endParsed)
        object.add("title", title)
        object.add("guid", guid)
        object.add("contentLinks", contentLinks)
        object.add("alternateEnclosures", alternateEnclosures)
        return object.value
    }

    /// Decodes the JSON this type encodes; absent members are empty.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        status = try container.decodeIfPresent(String.self, forKey: .status)
        start = try container.decodeIfPresent(String.self, forKey: .start)
        startParsed = try container.decodeIfPresent(FeedDate.self, forKey: .startParsed)
        end = try container.decodeIfPresent(String.self, forKey: .end)
        endParsed = try container.decodeIfPresent(FeedDate.self, forKey: .endParsed)
        title = try container.decodeIfPresent(String.self, forKey: .title)
        guid = try container.decodeIfPresent(String.self, forKey: .guid)
        contentLinks = try container.list(.contentLinks)
        alternateEnclosures = try container.list(.alternateEnclosures)
    }
}
