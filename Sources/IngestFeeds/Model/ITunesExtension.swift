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
            default: break
            }
        }
    }

    /// ``duration`` in seconds: `SS`, `MM:SS` or `HH:MM:SS`; `nil` for other text
    /// and for a duration too long for an `Int`.
    public var durationSeconds: Int? {
        guard let duration else { return nil }
        let parts = duration.trimmingASCIIWhiteSpace().split(separator: ":", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count) else { return nil }
        var total = 0
        for part in parts {
            guard let value = Int(part.split(separator: ".").first ?? part), value >= 0 else { return nil }
            let (minutes, overflowed) = total.multipliedReportingOverflow(by: 60)
            let (sum, overflowedAdding) = minutes.addingReportingOverflow(value)
            guard !overflowed, !overflowedAdding else { return nil }
            total = sum
        }
        return total
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
