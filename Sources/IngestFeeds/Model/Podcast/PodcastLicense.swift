/// The licence of the show or an episode (`podcast:license`, channel or item level).
/// Kept when it has a name or a `url`.
public struct PodcastLicense: Sendable, Hashable {
    /// The element's text: an SPDX identifier (`cc-by-4.0`) or a licence's name.
    public var name: String?
    /// `url`: the licence's text, required when the name is not an SPDX identifier.
    public var url: String?

    /// The licence `element` names; `nil` when it has neither name nor `url`.
    public init?(_ element: Extension) {
        name = element.podcastText
        url = element.podcastAttribute("url")
        guard name != nil || url != nil else { return nil }
    }
}
