// gofeed's JSON for its Dublin Core and iTunes structs: empty fields left out.

extension DublinCoreExtension: Codable, GofeedJSONWritable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case title, creator, author, subject, description, publisher, contributor, date, type, format, identifier,
            source, language, relation, coverage, rights
    }

    private static var fields: [(CodingKeys, WritableKeyPath<DublinCoreExtension, [String]>)] {
        [
            (.title, \.title), (.creator, \.creator), (.author, \.author), (.subject, \.subject),
            (.description, \.description), (.publisher, \.publisher), (.contributor, \.contributor), (.date, \.date),
            (.type, \.type), (.format, \.format), (.identifier, \.identifier), (.source, \.source),
            (.language, \.language), (.relation, \.relation), (.coverage, \.coverage), (.rights, \.rights)
        ]
    }

    /// Decodes gofeed's JSON; absent members are empty.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init()
        for (key, path) in Self.fields {
            self[keyPath: path] = try container.decodeIfPresent([String].self, forKey: key) ?? []
        }
    }
}

extension ITunesFeedExtension: Codable, GofeedJSONWritable {
    enum CodingKeys: String, CodingKey {
        case author, block, categories, explicit, keywords, owner, subtitle, summary, image, complete, type
        case newFeedURL = "newFeedUrl"
    }

    /// Decodes gofeed's JSON; absent members are empty.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init()
        author = try container.decodeIfPresent(String.self, forKey: .author).nonEmpty
        block = try container.decodeIfPresent(String.self, forKey: .block).nonEmpty
        categories = try container.decodeIfPresent([ITunesCategory].self, forKey: .categories) ?? []
        explicit = try container.decodeIfPresent(String.self, forKey: .explicit).nonEmpty
        keywords = try container.decodeIfPresent(String.self, forKey: .keywords).nonEmpty
        owner = try container.decodeIfPresent(ITunesOwner.self, forKey: .owner)
        subtitle = try container.decodeIfPresent(String.self, forKey: .subtitle).nonEmpty
        summary = try container.decodeIfPresent(String.self, forKey: .summary).nonEmpty
        image = try container.decodeIfPresent(String.self, forKey: .image).nonEmpty
        complete = try container.decodeIfPresent(String.self, forKey: .complete).nonEmpty
        newFeedURL = try container.decodeIfPresent(String.self, forKey: .newFeedURL).nonEmpty
        type = try container.decodeIfPresent(String.self, forKey: .type).nonEmpty.map(ITunesShowType.init(rawValue:))
    }
}

extension ITunesItemExtension: Codable, GofeedJSONWritable {
    enum CodingKeys: String, CodingKey {
        case author, block, duration, explicit, keywords, subtitle, summary, image, isClosedCaptioned, order
        case episode, season, episodeType
    }

    /// Decodes gofeed's JSON; absent members are empty.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init()
        author = try container.decodeIfPresent(String.self, forKey: .author).nonEmpty
        block = try container.decodeIfPresent(String.self, forKey: .block).nonEmpty
        duration = try container.decodeIfPresent(String.self, forKey: .duration).nonEmpty
        explicit = try container.decodeIfPresent(String.self, forKey: .explicit).nonEmpty
        keywords = try container.decodeIfPresent(String.self, forKey: .keywords).nonEmpty
        subtitle = try container.decodeIfPresent(String.self, forKey: .subtitle).nonEmpty
        summary = try container.decodeIfPresent(String.self, forKey: .summary).nonEmpty
        image = try container.decodeIfPresent(String.self, forKey: .image).nonEmpty
        isClosedCaptioned = try container.decodeIfPresent(String.self, forKey: .isClosedCaptioned).nonEmpty
        order = try container.decodeIfPresent(String.self, forKey: .order).nonEmpty
        episodeText = try container.decodeIfPresent(String.self, forKey: .episode).nonEmpty
        seasonText = try container.decodeIfPresent(String.self, forKey: .season).nonEmpty
        episodeType = try container.decodeIfPresent(String.self, forKey: .episodeType).nonEmpty
            .map(ITunesEpisodeType.init(rawValue:))
    }
}

extension ITunesCategory: Codable, GofeedJSONWritable {
    enum CodingKeys: String, CodingKey { case text, subcategory }

    /// Decodes gofeed's JSON; absent members are empty.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            text: try container.decodeIfPresent(String.self, forKey: .text),
            subcategory: try container.decodeIfPresent(ITunesCategory.self, forKey: .subcategory))
    }
}

extension ITunesOwner: Codable, GofeedJSONWritable {
    enum CodingKeys: String, CodingKey { case email, name }

    /// Decodes gofeed's JSON; absent members are empty.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            email: try container.decodeIfPresent(String.self, forKey: .email),
            name: try container.decodeIfPresent(String.self, forKey: .name))
    }
}
