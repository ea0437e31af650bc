/// Where the "official" comment thread of the show or an episode is
/// (`podcast:socialInteract`, channel or item level). Kept when it has a protocol
/// or a URI: `protocol="disabled"` alone says the podcaster wants no comments shown.
public struct PodcastSocialInteract: Sendable, Hashable {
    /// `uri`: the thread's root post.
    public var uri: String?
    /// `protocol`: `activitypub`, `twitter`, `lightning`… or `disabled`.
    public var socialProtocol: String?
    /// `accountId`: the account that posted the root post (`@dave`).
    public var accountId: String?
    /// `accountUrl`: that account's public page.
    public var accountUrl: String?
    /// `priority`: lower comes first; `nil` unless a whole number.
    public var priority: Int?

    /// The thread `element` points at; `nil` when it has neither protocol nor URI.
    public init?(_ element: Extension) {
        uri = element.podcastAttribute("uri")
        socialProtocol = element.podcastAttribute("protocol")
        guard uri != nil || socialProtocol != nil else { return nil }
        accountId = element.podcastAttribute("accountId")
        accountUrl = element.podcastAttribute("accountUrl")
        priority = PodcastValueReading.integer(element.attributes["priority"])
    }
}
