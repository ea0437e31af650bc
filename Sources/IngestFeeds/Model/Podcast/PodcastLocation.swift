/// A place the podcast or episode is about or made in (`podcast:location`, channel
/// or item level). Skipped when it has no name, `geo` or `osm`.
public struct PodcastLocation: Sendable, Hashable {
    /// The element's text: the place's human-readable name.
    public var name: String?
    /// `geo`: an RFC 5870 `geo:` URI (`geo:30.2672,97.7431`).
    public var geo: String?
    /// `osm`: an OpenStreetMap object (`R113314`: type letter and id, optional `#`revision).
    public var osm: String?
    /// `rel`: `subject` (what the content is about, the default) or `creator` (where
    /// it was made).
    public var rel: String?
    /// `country`: an ISO 3166-1 alpha-2 code.
    public var country: String?

    /// The place `element` describes; `nil` when it has no name, `geo` or `osm`.
    public init?(_ element: Extension) {
        name = element.podcastText
        geo = element.podcastAttribute("geo")
        osm = element.podcastAttribute("osm")
        guard name != nil || geo != nil || osm != nil else { return nil }
        rel = element.podcastAttribute("rel")
        country = element.podcastAttribute("country")
    }
}
