/// The season an episode belongs to (`podcast:season`, item level). Kept when it has
/// a number or a name; a number that is not a whole number fitting an `Int` is `nil`.
public struct PodcastSeason: Sendable, Hashable {
    /// The element's text: the season's number.
    public var number: Int?
    /// `name`: the season's name.
    public var name: String?

    /// The season `element` gives; `nil` when it has neither number nor name.
    public init?(_ element: Extension) {
        number = PodcastValueReading.integer(element.value)
        name = element.podcastAttribute("name")
        guard number != nil || name != nil else { return nil }
    }
}

/// An episode's number (`podcast:episode`, item level): a decimal (`204`, `315.5`),
/// so that a bonus episode can sit between two others. Kept when it has a number or a
/// display text; a number that is not a finite decimal is `nil`.
public struct PodcastEpisode: Sendable, Hashable {
    /// The element's text: the episode's number.
    public var number: Double?
    /// `display`: how to show the number instead (`Ch.3`).
    public var display: String?

    /// The number `element` gives; `nil` when it has neither number nor display text.
    public init?(_ element: Extension) {
        number = PodcastValueReading.number(element.value)
        display = element.podcastAttribute("display")
        guard number != nil || display != nil else { return nil }
    }
}
