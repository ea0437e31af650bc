import Foundation

// gofeed's JSON, exactly: its keys (camelCase, `dcExt`, `itunesExt`), in the order
// of its structs, empty fields left out (`omitempty`) except where gofeed writes
// them always (`items`, `feedType`, `feedVersion`, and an extension's `value`,
// `attrs` and `children`), dates as RFC 3339 in UTC. What the Swift model holds
// beyond gofeed's (a text's type, a link's relation, a person's URL and avatar,
// well-formedness) is not written; decoding gives those their defaults.

extension Feed: Codable {
    enum CodingKeys: String, CodingKey {
        case title, description, link, feedLink, links, updated, updatedParsed, published, publishedParsed, author,
             authors, language, image, copyright, generator, categories, dcExt, itunesExt, extensions, custom, items,
             feedType, feedVersion
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(title, forKey: .title)
        try container.encodeIfPresent(description, forKey: .description)
        try container.encodeIfPresent(link, forKey: .link)
        try container.encodeIfPresent(feedLink, forKey: .feedLink)
        if !links.isEmpty { try container.encode(links, forKey: .links) }
        try container.encodeIfPresent(updated, forKey: .updated)
        try container.encodeIfPresent(updatedParsed, forKey: .updatedParsed)
        try container.encodeIfPresent(published, forKey: .published)
        try container.encodeIfPresent(publishedParsed, forKey: .publishedParsed)
        try container.encodeIfPresent(author, forKey: .author)
        if !authors.isEmpty { try container.encode(authors, forKey: .authors) }
        try container.encodeIfPresent(language, forKey: .language)
        try container.encodeIfPresent(image, forKey: .image)
        try container.encodeIfPresent(copyright, forKey: .copyright)
        try container.encodeIfPresent(generator, forKey: .generator)
        if !categories.isEmpty { try container.encode(categories, forKey: .categories) }
        try container.encodeIfPresent(dublinCore, forKey: .dcExt)
        try container.encodeIfPresent(iTunes, forKey: .itunesExt)
        if !extensions.isEmpty { try container.encode(extensions, forKey: .extensions) }
        if !custom.isEmpty { try container.encode(custom, forKey: .custom) }
        try container.encode(items, forKey: .items)
        try container.encode(format.family, forKey: .feedType)
        try container.encode(format.version, forKey: .feedVersion)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let family = try container.decodeIfPresent(FeedFormat.Family.self, forKey: .feedType) ?? .rss
        self.init(format: FeedFormat(family, version: try container.decodeIfPresent(String.self, forKey: .feedVersion) ?? ""))
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
        extensions = try container.decodeIfPresent(Extensions.self, forKey: .extensions) ?? [:]
        custom = try container.decodeIfPresent([String: String].self, forKey: .custom) ?? [:]
        items = try container.decodeIfPresent([FeedItem].self, forKey: .items) ?? []
    }

    /// The feed as gofeed's JSON: `/` unescaped, keys in gofeed's order, indented
    /// with `prettyPrinted`.
    public func gofeedJSON(prettyPrinted: Bool = false) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = prettyPrinted ? [.prettyPrinted, .withoutEscapingSlashes] : [.withoutEscapingSlashes]
        return try encoder.encode(self)
    }
}

extension FeedItem: Codable {
    enum CodingKeys: String, CodingKey {
        case title, description, content, link, links, updated, updatedParsed, published, publishedParsed, author,
             authors, guid, image, categories, enclosures, dcExt, itunesExt, extensions, custom
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(title, forKey: .title)
        try container.encodeIfPresent(description, forKey: .description)
        try container.encodeIfPresent(content, forKey: .content)
        try container.encodeIfPresent(link, forKey: .link)
        if !links.isEmpty { try container.encode(links, forKey: .links) }
        try container.encodeIfPresent(updated, forKey: .updated)
        try container.encodeIfPresent(updatedParsed, forKey: .updatedParsed)
        try container.encodeIfPresent(published, forKey: .published)
        try container.encodeIfPresent(publishedParsed, forKey: .publishedParsed)
        try container.encodeIfPresent(author, forKey: .author)
        if !authors.isEmpty { try container.encode(authors, forKey: .authors) }
        try container.encodeIfPresent(guid, forKey: .guid)
        try container.encodeIfPresent(image, forKey: .image)
        if !categories.isEmpty { try container.encode(categories, forKey: .categories) }
        if !enclosures.isEmpty { try container.encode(enclosures, forKey: .enclosures) }
        try container.encodeIfPresent(dublinCore, forKey: .dcExt)
        try container.encodeIfPresent(iTunes, forKey: .itunesExt)
        if !extensions.isEmpty { try container.encode(extensions, forKey: .extensions) }
        if !custom.isEmpty { try container.encode(custom, forKey: .custom) }
    }

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

extension Person: Codable {
    enum CodingKeys: String, CodingKey { case name, email }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(name: try container.decodeIfPresent(String.self, forKey: .name),
                  email: try container.decodeIfPresent(String.self, forKey: .email))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(name, forKey: .name)
        try container.encodeIfPresent(email, forKey: .email)
    }
}

extension Image: Codable {
    enum CodingKeys: String, CodingKey { case url, title }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(url: try container.decodeIfPresent(String.self, forKey: .url),
                  title: try container.decodeIfPresent(String.self, forKey: .title))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(url, forKey: .url)
        try container.encodeIfPresent(title, forKey: .title)
    }
}

extension Enclosure: Codable {
    enum CodingKeys: String, CodingKey { case url, length, type }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(url: try container.decodeIfPresent(String.self, forKey: .url),
                  length: try container.decodeIfPresent(String.self, forKey: .length),
                  type: try container.decodeIfPresent(String.self, forKey: .type))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(url, forKey: .url)
        try container.encodeIfPresent(length, forKey: .length)
        try container.encodeIfPresent(type, forKey: .type)
    }
}

extension Extension: Codable {
    enum CodingKeys: String, CodingKey { case name, value, attrs, children }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(name: try container.decodeIfPresent(String.self, forKey: .name) ?? "",
                  value: try container.decodeIfPresent(String.self, forKey: .value) ?? "",
                  attributes: try container.decodeIfPresent([String: String].self, forKey: .attrs) ?? [:],
                  children: try container.decodeIfPresent([String: [Extension]].self, forKey: .children) ?? [:])
    }

    /// All four keys, always, as gofeed writes them.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(value, forKey: .value)
        try container.encode(attributes, forKey: .attrs)
        try container.encode(children, forKey: .children)
    }
}
