/// A podcast's iTunes channel elements (`itunes:` in
/// `http://www.itunes.com/DTDs/PodCast-1.0.dtd`), as gofeed reads them.
public struct ITunesFeedExtension: Sendable, Hashable {
    public var author: String?
    public var block: String?
    public var categories: [ITunesCategory] = []
    public var explicit: String?
    public var keywords: String?
    public var owner: ITunesOwner?
    public var subtitle: String?
    public var summary: String?
    /// The `href` of `itunes:image`.
    public var image: String?
    public var complete: String?
    public var newFeedURL: String?

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
        categories = (elements["category"] ?? []).map { category in
            ITunesCategory(text: category.attributes["text"],
                           subcategory: category.child("category").map { ITunesCategory(text: $0.attributes["text"]) })
        }
        if let owner = elements["owner"]?.first {
            self.owner = ITunesOwner(email: owner.child("email")?.value, name: owner.child("name")?.value)
        }
    }
}

/// A podcast episode's iTunes elements, as gofeed reads them.
public struct ITunesItemExtension: Sendable, Hashable {
    public var author: String?
    public var block: String?
    /// As written: `1:02:03`, `3723`…
    public var duration: String?
    public var explicit: String?
    public var keywords: String?
    public var subtitle: String?
    public var summary: String?
    /// The `href` of `itunes:image`.
    public var image: String?
    public var isClosedCaptioned: String?
    public var order: String?

    public init() {}

    /// The iTunes view of the `itunes` extension elements of an item.
    public init(_ elements: [String: [Extension]]) {
        author = elements["author"]?.first?.value.nonEmptyString
        block = elements["block"]?.first?.value.nonEmptyString
        duration = elements["duration"]?.first?.value.nonEmptyString
        explicit = elements["explicit"]?.first?.value.nonEmptyString
        keywords = elements["keywords"]?.first?.value.nonEmptyString
        subtitle = elements["subtitle"]?.first?.value.nonEmptyString
        summary = elements["summary"]?.first?.value.nonEmptyString
        image = elements["image"]?.first?.attributes["href"]?.nonEmptyString
        isClosedCaptioned = elements["isClosedCaptioned"]?.first?.value.nonEmptyString
        order = elements["order"]?.first?.value.nonEmptyString
    }

    /// ``duration`` in seconds: `SS`, `MM:SS` or `HH:MM:SS`.
    public var durationSeconds: Int? {
        guard let duration else { return nil }
        let parts = duration.trimmingASCIIWhiteSpace().split(separator: ":", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count) else { return nil }
        var total = 0
        for part in parts {
            guard let value = Int(part.split(separator: ".").first ?? part), value >= 0 else { return nil }
            total = total * 60 + value
        }
        return total
    }
}

/// An iTunes category, with at most one subcategory as gofeed keeps it.
public struct ITunesCategory: Sendable, Hashable {
    public var text: String?
    /// Held in an array, the one way a struct can contain its own type.
    private var nested: [ITunesCategory]

    public init(text: String? = nil, subcategory: ITunesCategory? = nil) {
        self.text = text.nonEmpty
        nested = subcategory.map { [$0] } ?? []
    }

    public var subcategory: ITunesCategory? {
        get { nested.first }
        set { nested = newValue.map { [$0] } ?? [] }
    }
}

/// The owner of a podcast.
public struct ITunesOwner: Sendable, Hashable {
    public var email: String?
    public var name: String?

    public init(email: String? = nil, name: String? = nil) {
        self.email = email.nonEmpty
        self.name = name.nonEmpty
    }
}
