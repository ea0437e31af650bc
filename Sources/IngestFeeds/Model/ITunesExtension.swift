/// A podcast's iTunes channel elements (`itunes:` in
/// `http://www.itunes.com/DTDs/PodCast-1.0.dtd`), as gofeed reads them.
public struct ITunesFeedExtension: Sendable, Hashable {
    /// `itunes:author`.
    public var author: String?
    /// `itunes:block`: `Yes` hides the show.
    public var block: String?
    /// `itunes:category`, each with its subcategory.
    public var categories: [ITunesCategory] = []
    /// `itunes:explicit`, as written.
    public var explicit: String?
    /// `itunes:keywords`, comma-separated as written.
    public var keywords: String?
    /// `itunes:owner`.
    public var owner: ITunesOwner?
    /// `itunes:subtitle`.
    public var subtitle: String?
    /// `itunes:summary`.
    public var summary: String?
    /// The `href` of `itunes:image`.
    public var image: String?
    /// `itunes:complete`: `Yes` when no episode will follow.
    public var complete: String?
    /// `itunes:new-feed-url`: where the show has moved.
    public var newFeedURL: String?
    /// `itunes:type`: whether episodes are heard newest first or in order.
    public var type: ITunesShowType?

    /// ``explicit`` read as a flag: `yes`, `true` or `explicit` is `true`; `no`,
    /// `false` or `clean` is `false` (any case); other text, or none, is `nil`.
    public var isExplicit: Bool? { YesNoText.explicit(explicit) }
    /// ``block`` read as a flag: `yes` or `true` is `true`; `no` or `false` is
    /// `false` (any case); other text, or none, is `nil`.
    public var isBlocked: Bool? { YesNoText.yesNo(block) }
    /// ``complete`` read as a flag, as ``isBlocked`` reads ``block``.
    public var isComplete: Bool? { YesNoText.yesNo(complete) }

    /// No elements.
    public init() {}

    /// The iTunes view of the `itunes` extension elements of a channel.
    public init(_ elements: [String: [Extension]]) {
        author = elements["author"]?.first?.value.nonEmptyString
        block = elements["block"]?.first?.value.nonEmptyString
        explicit = elements["explicit"]?.first?.value.nonEmptyString
        keywords = elements["keywords"]?.first?.value.nonEmptyString
        subtitle = elements["subtitle"]?.first?.value.nonEmptyString
        summary = elements["summary"]?.first?.value.nonEmptyString
        image = elements["image"]?.first?.attributes["href"]?.nonEmptyString
        complete = elements["complete"]?.first?.value.nonEmptyString
        newFeedURL = elements["new-feed-url"]?.first?.value.nonEmptyString
        type = elements["type"]?.first?.value.nonEmptyString.map(ITunesShowType.init(rawValue:))
        categories = (elements["category"] ?? []).map { category in
            ITunesCategory(
                text: category.attributes["text"],
                subcategory: category.child("category").map { ITunesCategory(text: $0.attributes["text"]) })
        }
        if let owner = elements["owner"]?.first {
            self.owner = ITunesOwner(email: owner.child("email")?.value, name: owner.child("name")?.value)
        }
    }
}

/// A podcast episode's iTunes elements, as gofeed reads them.
public struct ITunesItemExtension: Sendable, Hashable {
    /// `itunes:author`.
    public var author: String?
    /// `itunes:block`.
    public var block: String?
    /// As written: `1:02:03`, `3723`…
    public var duration: String?
    /// `itunes:explicit`, as written.
    public var explicit: String?
    /// `itunes:keywords`, as written.
    public var keywords: String?
    /// `itunes:subtitle`.
    public var subtitle: String?
    /// `itunes:summary`.
    public var summary: String?
    /// The `href` of `itunes:image`.
    public var image: String?
    /// `itunes:isClosedCaptioned`.
    public var isClosedCaptioned: String?
    /// `itunes:order`.
    public var order: String?
    /// `itunes:episode`, as written; ``episode`` is the number.
    public var episodeText: String?
    /// `itunes:season`, as written; ``season`` is the number.
    public var seasonText: String?
    /// `itunes:episodeType`: a full episode, a trailer or bonus material.
    public var episodeType: ITunesEpisodeType?

    /// The episode's number in its season (or in the show): ``episodeText`` as a
    /// whole number of ASCII digits that an `Int` holds; anything else is `nil`.
    public var episode: Int? { episodeText.flatMap(FeedUpdateHints.integer) }
    /// The season's number: ``seasonText`` read as ``episode`` reads ``episodeText``.
    public var season: Int? { seasonText.flatMap(FeedUpdateHints.integer) }
    /// ``explicit`` read as a flag: `yes`, `true` or `explicit` is `true`; `no`,
    /// `false` or `clean` is `false` (any case); other text, or none, is `nil`.
    public var isExplicit: Bool? { YesNoText.explicit(explicit) }
    /// ``block`` read as a flag: `yes` or `true` is `true`; `no` or `false` is
    /// `false` (any case); other text, or none, is `nil`.
    public var isBlocked: Bool? { YesNoText.yesNo(block) }

    /// No elements.
    public init() {}

    /// The iTunes view of the `itunes` extension elements of an item.
    public init(_ elements: [String: [Extension]]) {
        for (name, list) in elements {
            guard let first = list.first else { continue }
            let value = first.value.nonEmptyString
            switch name {
            case "author": author = value
            case "block": block = value
            case "duration": duration = value
            case "explicit": explicit = value
            case "keywords": keywords = value
            case "subtitle": subtitle = value
            case "summary": summary = value
            case "image": image = first.attributes["href"]?.nonEmptyString
            case "isClosedCaptioned": isClosedCaptioned = value
            case "order": order = value
            case "episode": episodeText = value
            case "season": seasonText = value
            case "episodeType": episodeType = value.map(ITunesEpisodeType.init(rawValue:))
            default: break
            }
        }
    }

    /// ``duration`` in whole seconds, whichever way it is written: `3600`, `60:00`,
    /// `1:00:00`; a fraction is rounded to the nearest second, half a second up
    /// (`1:00:00.5` is 3601). `nil` for other text — a sign, a part after the first
    /// of 60 or more, letters — and for a duration too long for an `Int`.
    public var durationSeconds: Int? {
        duration.flatMap(ClockTime.init)?.roundedSeconds
    }
}

/// An iTunes category, with at most one subcategory as gofeed keeps it.
public struct ITunesCategory: Sendable, Hashable {
    /// The category's name.
    public var text: String?
    /// Held in an array, the one way a struct can contain its own type.
    private var nested: [ITunesCategory]

    /// A category and its subcategory.
    public init(text: String? = nil, subcategory: ITunesCategory? = nil) {
        self.text = text.nonEmpty
        nested = subcategory.map { [$0] } ?? []
    }

    /// The `itunes:category` inside this one.
    public var subcategory: ITunesCategory? {
        get { nested.first }
        set { nested = newValue.map { [$0] } ?? [] }
    }
}

/// The owner of a podcast.
public struct ITunesOwner: Sendable, Hashable {
    /// `itunes:email`.
    public var email: String?
    /// `itunes:name`.
    public var name: String?

    /// An owner; empty strings are taken as absent.
    public init(email: String? = nil, name: String? = nil) {
        self.email = email.nonEmpty
        self.name = name.nonEmpty
    }
}
