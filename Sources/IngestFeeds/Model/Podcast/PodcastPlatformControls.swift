/// Whether the show may be imported elsewhere (`podcast:locked`, channel level):
/// `yes` asks other platforms not to take the feed over; ``owner`` can unlock it.
public struct PodcastLocked: Sendable, Hashable {
    /// The element's text: `yes` is `true`, `no` is `false`, anything else `nil`.
    public var isLocked: Bool?
    /// `owner`: the e-mail address that can prove ownership.
    public var owner: String?

    /// The lock `element` states.
    public init(_ element: Extension) {
        isLocked = PodcastValueReading.flag(element.value)
        owner = element.podcastAttribute("owner")
    }
}

/// Whether a platform may list the show (`podcast:block`, channel level): without an
/// ``id`` it speaks to every platform, with one to that platform alone.
public struct PodcastBlock: Sendable, Hashable {
    /// The element's text: `yes` is `true` (do not list), `no` is `false`, anything
    /// else `nil`.
    public var isBlocked: Bool?
    /// `id`: the platform meant (`apple`, `spotify`…), from the namespace's list.
    public var id: String?

    /// The block `element` states.
    public init(_ element: Extension) {
        isBlocked = PodcastValueReading.flag(element.value)
        id = element.podcastAttribute("id")
    }
}
