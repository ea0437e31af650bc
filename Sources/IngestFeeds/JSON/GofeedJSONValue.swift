import IngestCore

// The model as gofeed's JSON, built as an ordered ``IngestCore/JSONValue``: the one
// place that knows gofeed's keys and their order. `Codable` encoding, compact text
// and indented text all come from it.

/// An object's members, gofeed's `omitempty` applied as they are added.
struct JSONObjectBuilder {
    private(set) var members: [(key: String, value: JSONValue)] = []

    mutating func add(_ key: String, _ value: String?) {
        if let value, !value.isEmpty { members.append((key, .string(value))) }
    }

    mutating func add(_ key: String, _ values: [String]) {
        if !values.isEmpty { members.append((key, .array(values.map { .string($0) }))) }
    }

    mutating func add(_ key: String, _ value: JSONValue?) {
        if let value { members.append((key, value)) }
    }

    mutating func add(_ key: String, _ values: [JSONValue]) {
        if !values.isEmpty { members.append((key, .array(values))) }
    }

    var value: JSONValue { .object(members) }
}

extension Feed {
    /// The feed as gofeed's JSON, keys in gofeed's order.
    public var gofeedJSONValue: JSONValue {
        .object(
            gofeedJSONMembersBeforeItems + [("items", .array(items.map(\.gofeedJSONValue)))]
                + gofeedJSONMembersAfterItems)
    }

    /// The members gofeed writes before `items`: every feed-level field.
    var gofeedJSONMembersBeforeItems: [(key: String, value: JSONValue)] {
        var object = JSONObjectBuilder()
        object.add("title", title?.value)
        object.add("description", description?.value)
        object.add("link", link)
        object.add("feedLink", feedLink)
        object.add("links", links.map(\.href))
        object.add("updated", updated)
        object.add("updatedParsed", updatedParsed?.rfc3339)
        object.add("published", published)
        object.add("publishedParsed", publishedParsed?.rfc3339)
        object.add("author", author?.gofeedJSONValue)
        object.add("authors", authors.map(\.gofeedJSONValue))
        object.add("language", language)
        object.add("image", image?.gofeedJSONValue)
        object.add("copyright", copyright)
        object.add("generator", generator)
        object.add("categories", categories)
        object.add("dcExt", dublinCore?.gofeedJSONValue)
        object.add("itunesExt", iTunes?.gofeedJSONValue)
        object.add("podcastExt", podcast?.jsonValue)
        object.add("extensions", extensions.isEmpty ? nil : Extension.jsonValue(extensions))
        object.add("custom", custom.isEmpty ? nil : Extension.jsonValue(custom))
        return object.members
    }

    /// The members gofeed writes after `items`: the format, always.
    var gofeedJSONMembersAfterItems: [(key: String, value: JSONValue)] {
        [("feedType", .string(format.family.rawValue)), ("feedVersion", .string(format.version))]
    }
}

extension FeedItem {
    /// The item as gofeed's JSON, keys in gofeed's order.
    public var gofeedJSONValue: JSONValue {
        var object = JSONObjectBuilder()
        object.add("title", title?.value)
        object.add("description", description?.value)
        object.add("content", content?.value)
        object.add("link", link)
        object.add("links", links.map(\.href))
        object.add("updated", updated)
        object.add("updatedParsed", updatedParsed?.rfc3339)
        object.add("published", published)
        object.add("publishedParsed", publishedParsed?.rfc3339)
        object.add("author", author?.gofeedJSONValue)
        object.add("authors", authors.map(\.gofeedJSONValue))
        object.add("guid", guid)
        object.add("image", image?.gofeedJSONValue)
        object.add("categories", categories)
        object.add("enclosures", enclosures.map(\.gofeedJSONValue))
        object.add("dcExt", dublinCore?.gofeedJSONValue)
        object.add("itunesExt", iTunes?.gofeedJSONValue)
        object.add("podcastExt", podcast?.jsonValue)
        object.add("extensions", extensions.isEmpty ? nil : Extension.jsonValue(extensions))
        object.add("custom", custom.isEmpty ? nil : Extension.jsonValue(custom))
        return object.value
    }
}

extension Person {
    /// `name` and `email`: gofeed's person has no more.
    public var gofeedJSONValue: JSONValue {
        var object = JSONObjectBuilder()
        object.add("name", name)
        object.add("email", email)
        return object.value
    }
}

extension Image {
    /// This value as gofeed's JSON, keys in gofeed's order.
    public var gofeedJSONValue: JSONValue {
        var object = JSONObjectBuilder()
        object.add("url", url)
        object.add("title", title)
        return object.value
    }
}

extension Enclosure {
    /// This value as gofeed's JSON, keys in gofeed's order.
    public var gofeedJSONValue: JSONValue {
        var object = JSONObjectBuilder()
        object.add("url", url)
        object.add("length", length)
        object.add("type", type)
        return object.value
    }
}

extension Extension {
    /// All four members, always, as gofeed writes them; maps with sorted keys.
    public var gofeedJSONValue: JSONValue {
        .object([
            ("name", .string(name)),
            ("value", .string(value)),
            ("attrs", Self.jsonValue(attributes)),
            (
                "children",
                .object(children.sorted { $0.key < $1.key }.map { ($0.key, .array($0.value.map(\.gofeedJSONValue))) })
            )
        ])
    }

    /// Extensions by prefix and name as gofeed's JSON writes them (its
    /// `extensions` member), keys sorted as Go writes maps.
    public static func gofeedJSONValue(_ extensions: Extensions) -> JSONValue {
        jsonValue(extensions)
    }

    /// Extensions by prefix and name, keys sorted as Go writes maps.
    static func jsonValue(_ extensions: Extensions) -> JSONValue {
        .object(
            extensions.sorted { $0.key < $1.key }.map { prefix in
                (
                    prefix.key,
                    .object(
                        prefix.value.sorted { $0.key < $1.key }.map {
                            ($0.key, .array($0.value.map(\.gofeedJSONValue)))
                        })
                )
            })
    }

    static func jsonValue(_ map: [String: String]) -> JSONValue {
        .object(map.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })
    }
}

extension DublinCoreExtension {
    /// This value as gofeed's JSON, keys in gofeed's order.
    public var gofeedJSONValue: JSONValue {
        var object = JSONObjectBuilder()
        for (key, values) in [
            ("title", title), ("creator", creator), ("author", author), ("subject", subject),
            ("description", description), ("publisher", publisher), ("contributor", contributor),
            ("date", date), ("type", type), ("format", format), ("identifier", identifier),
            ("source", source), ("language", language), ("relation", relation),
            ("coverage", coverage), ("rights", rights)
        ] {
            object.add(key, values)
        }
        return object.value
    }
}

extension ITunesFeedExtension {
    /// This value as gofeed's JSON, keys in gofeed's order.
    public var gofeedJSONValue: JSONValue {
        var object = JSONObjectBuilder()
        object.add("author", author)
        object.add("block", block)
        object.add("categories", categories.map(\.gofeedJSONValue))
        object.add("explicit", explicit)
        object.add("keywords", keywords)
        object.add("owner", owner?.gofeedJSONValue)
        object.add("subtitle", subtitle)
        object.add("summary", summary)
        object.add("image", image)
        object.add("complete", complete)
        object.add("newFeedUrl", newFeedURL)
        object.add("type", type?.rawValue)
        return object.value
    }
}

extension ITunesItemExtension {
    /// This value as gofeed's JSON, keys in gofeed's order.
    public var gofeedJSONValue: JSONValue {
        var object = JSONObjectBuilder()
        object.add("author", author)
        object.add("block", block)
        object.add("duration", duration)
        object.add("explicit", explicit)
        object.add("keywords", keywords)
        object.add("subtitle", subtitle)
        object.add("summary", summary)
        object.add("image", image)
        object.add("isClosedCaptioned", isClosedCaptioned)
        object.add("episode", episodeText)
        object.add("season", seasonText)
        object.add("order", order)
        object.add("episodeType", episodeType?.rawValue)
        return object.value
    }
}

extension ITunesCategory {
    /// This value as gofeed's JSON, keys in gofeed's order.
    public var gofeedJSONValue: JSONValue {
        var object = JSONObjectBuilder()
        object.add("text", text)
        object.add("subcategory", subcategory?.gofeedJSONValue)
        return object.value
    }
}

extension ITunesOwner {
    /// This value as gofeed's JSON, keys in gofeed's order.
    public var gofeedJSONValue: JSONValue {
        var object = JSONObjectBuilder()
        object.add("email", email)
        object.add("name", name)
        return object.value
    }
}

/// A model type whose JSON is gofeed's: its ``gofeedJSONValue`` is the one
/// description of that JSON, and `Encodable` writes it.
protocol GofeedJSONWritable: Encodable {
    var gofeedJSONValue: JSONValue { get }
}

extension GofeedJSONWritable {
    /// Encodes ``gofeedJSONValue``: gofeed's keys, in its order where the encoder
    /// keeps order.
    public func encode(to encoder: any Encoder) throws {
        try EncodableJSON(gofeedJSONValue).encode(to: encoder)
    }
}

/// A ``IngestCore/JSONValue`` through any `Encoder`, members in order.
struct EncodableJSON: Encodable {
    let value: JSONValue

    init(_ value: JSONValue) { self.value = value }

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    func encode(to encoder: any Encoder) throws {
        switch value {
        case .null:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        case .bool(let flag):
            var container = encoder.singleValueContainer()
            try container.encode(flag)
        case .number(let text):
            var container = encoder.singleValueContainer()
            if let integer = Int64(text) {
                try container.encode(integer)
            } else {
                try container.encode(Double(text) ?? 0)
            }
        case .string(let text):
            var container = encoder.singleValueContainer()
            try container.encode(text)
        case .array(let items):
            var container = encoder.unkeyedContainer()
            for item in items { try container.encode(EncodableJSON(item)) }
        case .object(let members):
            var container = encoder.container(keyedBy: Key.self)
            for member in members {
                try container.encode(EncodableJSON(member.value), forKey: Key(stringValue: member.key))
            }
        }
    }
}
