/// Where to support the show (`podcast:funding`): a donation or membership page. An
/// element without a `url` is skipped.
public struct PodcastFunding: Sendable, Hashable {
    /// `url`: the page.
    public var url: String
    /// The element's text: what the link says (`Support the show!`).
    public var text: String?

    /// The funding link `element` gives; `nil` when it has no `url`.
    public init?(_ element: Extension) {
        guard let url = element.podcastAttribute("url") else { return nil }
        self.url = url
        text = element.podcastText
    }
}
