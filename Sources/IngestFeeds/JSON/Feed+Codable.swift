import Foundation
import IngestCore

// A feed's `Codable`: gofeed's JSON (GofeedMembers.swift), and one addition. A feed's
// update hints, which gofeed does not read, are written after gofeed's keys, under
// `updateHints`, when the feed has any — so a cron job that keeps a feed as JSON keeps
// them too. `gofeedJSON()` and `gofeedJSONValue` never write them. What the Swift
// model holds beyond gofeed's (a text's type, a link's relation, a person's URL and
// avatar, well-formedness) is not written; decoding gives those their defaults.

extension Feed: Codable {
    /// The keys read beside the feed-level members.
    enum CodingKeys: String, CodingKey {
        case items, feedType, feedVersion, updateHints
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
        var reader = GofeedJSONReader(try decoder.container(keyedBy: GofeedJSONReader.Key.self))
        try visitGofeedMembers(&reader)
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

extension FeedItem {
    /// The item as gofeed's JSON text (one line): an NDJSON line without its end.
    public func gofeedJSON() -> Data {
        Data(gofeedJSONValue.serialized.utf8)
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
