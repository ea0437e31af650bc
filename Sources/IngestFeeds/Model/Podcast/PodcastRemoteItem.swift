/// A pointer to another feed, or to an item of one (`podcast:remoteItem`): in a
/// playlist-like channel, a podroll, a publisher or a value time split. Skipped when
/// it has neither `feedGuid` nor `feedUrl`.
public struct PodcastRemoteItem: Sendable, Hashable {
    /// `feedGuid`: the other feed's `podcast:guid`.
    public var feedGuid: String?
    /// `feedUrl`: the other feed's URL.
    public var feedUrl: String?
    /// `itemGuid`: the `guid` of the item meant, when one item is meant.
    public var itemGuid: String?
    /// `medium`: the other feed's `podcast:medium` (`podcast` when absent).
    public var medium: String?

    /// The feed or item `element` points at; `nil` when it names no feed.
    public init?(_ element: Extension) {
        feedGuid = element.podcastAttribute("feedGuid")
        feedUrl = element.podcastAttribute("feedUrl")
        guard feedGuid != nil || feedUrl != nil else { return nil }
        itemGuid = element.podcastAttribute("itemGuid")
        medium = element.podcastAttribute("medium")
    }

    /// The remote items among `children` (an element's, by local name).
    static func all(in children: [String: [Extension]]) -> [PodcastRemoteItem] {
        (children["remoteItem"] ?? []).compactMap(PodcastRemoteItem.init)
    }
}
