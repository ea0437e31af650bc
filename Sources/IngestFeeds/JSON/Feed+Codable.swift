import Foundation
import IngestCore

// gofeed's JSON, exactly: its keys (camelCase, `dcExt`, `itunesExt`), in the order
// of its structs, empty fields left out (`omitempty`) except where gofeed writes
// them always (`items`, `feedType`, `feedVersion`, and an extension's `value`,
// `attrs` and `children`), dates as RFC 3339 in UTC. What the Swift model holds
// beyond gofeed's (a text's type, a link's relation, a person's URL and avatar,
// well-formedness) is not written; decoding gives those their defaults. One
// exception: a feed's update hints, which gofeed does not read, are written after
// gofeed's keys, under `updateHints`, when the feed has any — so a cron job that
// keeps a feed as JSON keeps them too. `gofeedJSON()` and `gofeedJSONValue` never
// write them.
// The typed Podcasting 2.0 tags, which gofeed has no key for, go under `podcastExt`
// (Podcast+Codable.swift), in both.

extension Feed: Codable {
    enum CodingKeys: String, CodingKey {
        case title, description, link, feedLink, links, updated, updatedParsed, published, publishedParsed, author,
            authors, language, image, copyright, generator, categories, dcExt, itunesExt, extensions, custom, items,
            feedType, feedVersion, updateHints
        case podcastExt
    }

    /// The members of `updateHints`.
    enum UpdateHintsKeys: String, CodingKey {
        case ttl, skipHours, skipDays, updatePeriod, updateFrequency
    }

    /// Encodes ``gofeedJSONValue``: gofeed's keys, in its order where the encoder
    /// keeps order — then ``updateHints`` under `updateHints`, when not empty.
    public func encode(to encoder: any Encoder) throws {
        guard !updateHints.isEmpty, case .object(let members) = gofeedJSONValue else {
            try EncodableJSON(gofeedJSONValue).encode(to: encoder)
            return
        }
        try EncodableJSON(.object(members + [("updateHints", updateHints.jsonValue)])).encode(to: encoder)
    }

    /// Decodes gofeed's JSON; absent members are empty.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let family = try container.decodeIfPresent(FeedFormat.Family.self, forKey: .feedType) ?? .rss
        self.init(
            format: FeedFormat(family, version: try container.decodeIfPresent(String.self, forKey: .feedVersion) ?? ""))
        title = try container.decodeIfPresent(FeedText.self, forKey: .title)
        description = try container.decodeIfPresent(FeedText.self, forKey: .description)
        link = try container.decodeIfPresent(String.self, forKey: .link).nonEmpty
        feedLink = try container.decodeIfPresent(String.self, forKey: .feedLink).nonEmpty
        links = try container.decodeIfPresent([Link].self, forKey: .links) ?? []
        updated = try container.decodeIfPresent(String.self, forKey: .updated).nonEmpty
        updatedParsed = try container.decodeIfPresent(FeedDate.self, forKey: .updatedParsed)
        published = try container.decodeIfPresent(String.self, forKey: .published).nonEmpty
        publishedParsed = try container.decodeIfPresent(FeedDate.self, forKey: .publishedParsed)
        author = try container.decodeIfPresent(Person.self, forKey: .author)
        authors = try container.decodeIfPresent([Person].self, forKey: .authors) ?? []
        language = try container.decodeIfPresent(String.self, forKey: .language).nonEmpty
        image = try container.decodeIfPresent(Image.self, forKey: .image)
        copyright = try container.decodeIfPresent(String.self, forKey: .copyright).nonEmpty
        generator = try container.decodeIfPresent(String.self, forKey: .generator).nonEmpty
        categories = try container.decodeIfPresent([String].self, forKey: .categories) ?? []
        dublinCore = try container.decodeIfPresent(DublinCoreExtension.self, forKey: .dcExt)
        iTunes = try container.decodeIfPresent(ITunesFeedExtension.self, forKey: .itunesExt)
        podcast = try container.decodeIfPresent(PodcastFeedExtension.self, forKey: .podcastExt)
        extensions = try container.decodeIfPresent(Extensions.self, forKey: .extensions) ?? [:]
        custom = try container.decodeIfPresent([String: String].self, forKey: .custom) ?? [:]
        items = try container.decodeIfPresent([FeedItem].self, forKey: .items) ?? []
        if container.contains(.updateHints) {
            let hints = try container.nestedContainer(keyedBy: UpdateHintsKeys.self, forKey: .updateHints)
            updateHints.timeToLive = try hints.decodeIfPresent(Int.self, forKey: .ttl)
            updateHints.skipHours = Set(try hints.decodeIfPresent([Int].self, forKey: .skipHours) ?? [])
            updateHints.skipDays = Set(try hints.decodeIfPresent([Int].self, forKey: .skipDays) ?? [])
            updateHints.updatePeriod = try hints.decodeIfPresent(String.self, forKey: .updatePeriod)
                .flatMap(FeedUpdateHints.UpdatePeriod.init(rawValue:))
            updateHints.updateFrequency = try hints.decodeIfPresent(Int.self, forKey: .updateFrequency)
        }
    }

    /// The feed as gofeed's JSON text, in UTF-8: keys in the order of gofeed's
    /// structs, map keys sorted (as Go writes them), compact or indented.
    public func gofeedJSON(prettyPrinted: Bool = false) -> Data {
        Data((prettyPrinted ? gofeedJSONValue.prettyText() : gofeedJSONValue.serialized).utf8)
    }
}

extension FeedUpdateHints {
    /// The hints as `Feed`'s `Codable` writes them: `ttl`, `skipHours` and
    /// `skipDays` (sorted), `updatePeriod`, `updateFrequency`, each when present.
    var jsonValue: JSONValue {
        var object = JSONObjectBuilder()
        object.add("ttl", timeToLive.map { .number(String($0)) })
        object.add("skipHours", skipHours.sorted().map { JSONValue.number(String($0)) })
        object.add("skipDays", skipDays.sorted().map { JSONValue.number(String($0)) })
        object.add("updatePeriod", updatePeriod?.rawValue)
        object.add("updateFrequency", updateFrequency.map { .number(String($0)) })
        return object.value
    }
}

extension FeedItem: Codable, GofeedJSONWritable {
    enum CodingKeys: String, CodingKey {
        case title, description, content, link, links, updated, updatedParsed, published, publishedParsed, author,
            authors, guid, image, categories, enclosures, dcExt, itunesExt, extensions, custom
        case podcastExt
    }

    /// The item as gofeed's JSON text (one line): an NDJSON line without its end.
    public func gofeedJSON() -> Data {
        Data(gofeedJSONValue.serialized.utf8)
    }

    /// Decodes gofeed's JSON; absent members are empty.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init()
        title = try container.decodeIfPresent(FeedText.self, forKey: .title)
        description = try container.decodeIfPresent(FeedText.self, forKey: .description)
        content = try container.decodeIfPresent(FeedText.self, forKey: .content)
        link = try container.decodeIfPresent(String.self, forKey: .link).nonEmpty
        links = try container.decodeIfPresent([Link].self, forKey: .links) ?? []
        updated = try container.decodeIfPresent(String.self, forKey: .updated).nonEmpty
        updatedParsed = try container.decodeIfPresent(FeedDate.self, forKey: .updatedParsed)
        published = try container.decodeIfPresent(String.self, forKey: .published).nonEmpty
        publishedParsed = try container.decodeIfPresent(FeedDate.self, forKey: .publishedParsed)
        author = try container.decodeIfPresent(Person.self, forKey: .author)
        authors = try container.decodeIfPresent([Person].self, forKey: .authors) ?? []
        guid = try container.decodeIfPresent(String.self, forKey: .guid).nonEmpty
        image = try container.decodeIfPresent(Image.self, forKey: .image)
        categories = try container.decodeIfPresent([String].self, forKey: .categories) ?? []
        enclosures = try container.decodeIfPresent([Enclosure].self, forKey: .enclosures) ?? []
        dublinCore = try container.decodeIfPresent(DublinCoreExtension.self, forKey: .dcExt)
        iTunes = try container.decodeIfPresent(ITunesItemExtension.self, forKey: .itunesExt)
        podcast = try container.decodeIfPresent(PodcastItemExtension.self, forKey: .podcastExt)
        extensions = try container.decodeIfPresent(Extensions.self, forKey: .extensions) ?? [:]
        custom = try container.decodeIfPresent([String: String].self, forKey: .custom) ?? [:]
    }
}

extension FeedText: Codable {
    /// Decodes a string; its type is HTML when it looks like HTML.
    public init(from decoder: any Decoder) throws {
        let value = try decoder.singleValueContainer().decode(String.self)
        self.init(value, type: HTMLText.looksLikeHTML(value) ? .html : .text)
    }

    /// Encodes ``value``, as gofeed writes its strings.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }
}

extension Link: Codable {
    /// Decodes a link written as its `href`.
    public init(from decoder: any Decoder) throws {
        self.init(href: try decoder.singleValueContainer().decode(String.self))
    }

    /// Encodes ``href`` alone, as gofeed's `links` hold strings.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(href)
    }
}

extension Person: Codable, GofeedJSONWritable {
    enum CodingKeys: String, CodingKey { case name, email }

    /// Decodes gofeed's JSON; absent members are empty.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            name: try container.decodeIfPresent(String.self, forKey: .name),
            email: try container.decodeIfPresent(String.self, forKey: .email))
    }
}

extension Image: Codable, GofeedJSONWritable {
    enum CodingKeys: String, CodingKey { case url, title }

    /// Decodes gofeed's JSON; absent members are empty.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            url: try container.decodeIfPresent(String.self, forKey: .url),
            title: try container.decodeIfPresent(String.self, forKey: .title))
    }
}

extension Enclosure: Codable, GofeedJSONWritable {
    enum CodingKeys: String, CodingKey { case url, length, type }

    /// Decodes gofeed's JSON; absent members are empty.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            url: try container.decodeIfPresent(String.self, forKey: .url),
            length: try container.decodeIfPresent(String.self, forKey: .length),
            type: try container.decodeIfPresent(String.self, forKey: .type))
    }
}

extension Extension: Codable, GofeedJSONWritable {
    enum CodingKeys: String, CodingKey { case name, value, attrs, children }

    /// Decodes gofeed's JSON; absent members are empty.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            name: try container.decodeIfPresent(String.self, forKey: .name) ?? "",
            value: try container.decodeIfPresent(String.self, forKey: .value) ?? "",
            attributes: try container.decodeIfPresent([String: String].self, forKey: .attrs) ?? [:],
            children: try container.decodeIfPresent([String: [Extension]].self, forKey: .children) ?? [:])
    }
}
