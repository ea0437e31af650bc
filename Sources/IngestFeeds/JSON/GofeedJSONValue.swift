import IngestCore

// The model as gofeed's JSON: each type's members in gofeed's order, described once
// (see GofeedMembers.swift), and the public ``IngestCore/JSONValue`` of each.

extension Feed {
    /// The feed as gofeed's JSON, keys in gofeed's order.
    public var gofeedJSONValue: JSONValue {
        .object(
            gofeedJSONMembersBeforeItems + [("items", .array(items.map(\.gofeedJSONValue)))]
                + gofeedJSONMembersAfterItems)
    }

    /// The members gofeed writes before `items`: every feed-level field.
    var gofeedJSONMembersBeforeItems: [(key: String, value: JSONValue)] {
        var writer = GofeedJSONWriter()
        var copy = self
        copy.visitGofeedMembers(&writer)
        return writer.object.members
    }

    /// The members gofeed writes after `items`: the format, always.
    var gofeedJSONMembersAfterItems: [(key: String, value: JSONValue)] {
        [("feedType", .string(format.family.rawValue)), ("feedVersion", .string(format.version))]
    }

    /// The feed-level members, before `items`.
    mutating func visitGofeedMembers<Visitor: GofeedMemberVisitor>(_ visitor: inout Visitor) throws(Visitor.Failure) {
        try visitor.text("title", &title)
        try visitor.text("description", &description)
        try visitor.string("link", &link)
        try visitor.string("feedLink", &feedLink)
        try visitor.links("links", &links)
        try visitor.string("updated", &updated)
        try visitor.date("updatedParsed", &updatedParsed)
        try visitor.string("published", &published)
        try visitor.date("publishedParsed", &publishedParsed)
        try visitor.object("author", &author)
        try visitor.objects("authors", &authors)
        try visitor.string("language", &language)
        try visitor.object("image", &image)
        try visitor.string("copyright", &copyright)
        try visitor.string("generator", &generator)
        try visitor.strings("categories", &categories)
        try visitor.object("dcExt", &dublinCore)
        try visitor.object("itunesExt", &iTunes)
        try visitor.object("podcastExt", &podcast)
        try visitor.extensions("extensions", &extensions)
        try visitor.map("custom", &custom, always: false)
    }
}

extension FeedItem: GofeedJSONCodable {
    /// The item as gofeed's JSON, keys in gofeed's order.
    public var gofeedJSONValue: JSONValue { gofeedJSONObject }

    mutating func visitGofeedMembers<Visitor: GofeedMemberVisitor>(_ visitor: inout Visitor) throws(Visitor.Failure) {
        try visitor.text("title", &title)
        try visitor.text("description", &description)
        try visitor.text("content", &content)
        try visitor.string("link", &link)
        try visitor.links("links", &links)
        try visitor.string("updated", &updated)
        try visitor.date("updatedParsed", &updatedParsed)
        try visitor.string("published", &published)
        try visitor.date("publishedParsed", &publishedParsed)
        try visitor.object("author", &author)
        try visitor.objects("authors", &authors)
        try visitor.string("guid", &guid)
        try visitor.object("image", &image)
        try visitor.strings("categories", &categories)
        try visitor.objects("enclosures", &enclosures)
        try visitor.object("dcExt", &dublinCore)
        try visitor.object("itunesExt", &iTunes)
        try visitor.object("podcastExt", &podcast)
        try visitor.extensions("extensions", &extensions)
        try visitor.map("custom", &custom, always: false)
    }
}

extension Person: GofeedJSONCodable {
    init() { self.init(name: nil) }

    mutating func visitGofeedMembers<Visitor: GofeedMemberVisitor>(_ visitor: inout Visitor) throws(Visitor.Failure) {
        try visitor.string("name", &name)
        try visitor.string("email", &email)
    }
}

extension Image: GofeedJSONCodable {
    init() { self.init(url: nil) }

    mutating func visitGofeedMembers<Visitor: GofeedMemberVisitor>(_ visitor: inout Visitor) throws(Visitor.Failure) {
        try visitor.string("url", &url)
        try visitor.string("title", &title)
    }
}

extension Enclosure: GofeedJSONCodable {
    init() { self.init(url: nil) }

    mutating func visitGofeedMembers<Visitor: GofeedMemberVisitor>(_ visitor: inout Visitor) throws(Visitor.Failure) {
        try visitor.string("url", &url)
        try visitor.string("length", &length)
        try visitor.string("type", &type)
    }
}

extension Extension: GofeedJSONCodable {
    init() { self.init(name: "") }

    /// All four members, always, as gofeed writes them; maps with sorted keys.
    public var gofeedJSONValue: JSONValue { gofeedJSONObject }

    mutating func visitGofeedMembers<Visitor: GofeedMemberVisitor>(_ visitor: inout Visitor) throws(Visitor.Failure) {
        try visitor.string("name", &name)
        try visitor.string("value", &value)
        try visitor.map("attrs", &attributes, always: true)
        try visitor.children("children", &children)
    }

    /// Extensions by prefix and name as gofeed's JSON writes them (its
    /// `extensions` member), keys sorted as Go writes maps.
    public static func gofeedJSONValue(_ extensions: Extensions) -> JSONValue {
        jsonValue(extensions)
    }

    /// Extensions by prefix and name, keys sorted as Go writes maps.
    static func jsonValue(_ extensions: Extensions) -> JSONValue {
        .object(extensions.sorted { $0.key < $1.key }.map { ($0.key, jsonValue($0.value)) })
    }

    /// Extensions by name (a prefix's, or an extension's children), keys sorted.
    static func jsonValue(_ byName: [String: [Extension]]) -> JSONValue {
        .object(byName.sorted { $0.key < $1.key }.map { ($0.key, .array($0.value.map(\.gofeedJSONValue))) })
    }

    static func jsonValue(_ map: [String: String]) -> JSONValue {
        .object(map.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })
    }
}

extension DublinCoreExtension: GofeedJSONCodable {
    /// The Dublin Core fields as gofeed's `dcExt`: each a list of strings, empty ones left out.
    public var gofeedJSONValue: JSONValue { gofeedJSONObject }

    mutating func visitGofeedMembers<Visitor: GofeedMemberVisitor>(_ visitor: inout Visitor) throws(Visitor.Failure) {
        try visitor.strings("title", &title)
        try visitor.strings("creator", &creator)
        try visitor.strings("author", &author)
        try visitor.strings("subject", &subject)
        try visitor.strings("description", &description)
        try visitor.strings("publisher", &publisher)
        try visitor.strings("contributor", &contributor)
        try visitor.strings("date", &date)
        try visitor.strings("type", &type)
        try visitor.strings("format", &format)
        try visitor.strings("identifier", &identifier)
        try visitor.strings("source", &source)
        try visitor.strings("language", &language)
        try visitor.strings("relation", &relation)
        try visitor.strings("coverage", &coverage)
        try visitor.strings("rights", &rights)
    }
}

extension ITunesFeedExtension: GofeedJSONCodable {
    /// The channel's iTunes tags as gofeed's `itunesExt`, `newFeedUrl` spelled as gofeed spells it.
    public var gofeedJSONValue: JSONValue { gofeedJSONObject }

    mutating func visitGofeedMembers<Visitor: GofeedMemberVisitor>(_ visitor: inout Visitor) throws(Visitor.Failure) {
        try visitor.string("author", &author)
        try visitor.string("block", &block)
        try visitor.objects("categories", &categories)
        try visitor.string("explicit", &explicit)
        try visitor.string("keywords", &keywords)
        try visitor.object("owner", &owner)
        try visitor.string("subtitle", &subtitle)
        try visitor.string("summary", &summary)
        try visitor.string("image", &image)
        try visitor.string("complete", &complete)
        try visitor.string("newFeedUrl", &newFeedURL)
        var typeText = type?.rawValue
        try visitor.string("type", &typeText)
        type = typeText.map(ITunesShowType.init(rawValue:))
    }
}

extension ITunesItemExtension: GofeedJSONCodable {
    /// The item's iTunes tags as gofeed's `itunesExt`: `episode` and `season` as the feed wrote them.
    public var gofeedJSONValue: JSONValue { gofeedJSONObject }

    mutating func visitGofeedMembers<Visitor: GofeedMemberVisitor>(_ visitor: inout Visitor) throws(Visitor.Failure) {
        try visitor.string("author", &author)
        try visitor.string("block", &block)
        try visitor.string("duration", &duration)
        try visitor.string("explicit", &explicit)
        try visitor.string("keywords", &keywords)
        try visitor.string("subtitle", &subtitle)
        try visitor.string("summary", &summary)
        try visitor.string("image", &image)
        try visitor.string("isClosedCaptioned", &isClosedCaptioned)
        try visitor.string("episode", &episodeText)
        try visitor.string("season", &seasonText)
        try visitor.string("order", &order)
        var episodeTypeText = episodeType?.rawValue
        try visitor.string("episodeType", &episodeTypeText)
        episodeType = episodeTypeText.map(ITunesEpisodeType.init(rawValue:))
    }
}

extension ITunesCategory: GofeedJSONCodable {
    init() { self.init(text: nil) }

    mutating func visitGofeedMembers<Visitor: GofeedMemberVisitor>(_ visitor: inout Visitor) throws(Visitor.Failure) {
        try visitor.string("text", &text)
        try visitor.object("subcategory", &subcategory)
    }
}

extension ITunesOwner: GofeedJSONCodable {
    init() { self.init(email: nil) }

    mutating func visitGofeedMembers<Visitor: GofeedMemberVisitor>(_ visitor: inout Visitor) throws(Visitor.Failure) {
        try visitor.string("email", &email)
        try visitor.string("name", &name)
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
