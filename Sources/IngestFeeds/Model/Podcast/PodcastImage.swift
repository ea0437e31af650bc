/// An image of the show or an episode (`podcast:image`, channel or item level), with
/// what it is meant for. Skipped without an `href`.
public struct PodcastImage: Sendable, Hashable {
    /// `href`: the image (or a video, see ``type``).
    public var href: String
    /// `alt`: text that replaces the image for those who cannot see it.
    public var alt: String?
    /// `aspect-ratio`: as CSS writes it (`16/9`); square when absent.
    public var aspectRatio: String?
    /// `width`: in pixels; `nil` unless a non-negative `Int`.
    public var width: Int?
    /// `height`: in pixels; `nil` unless a non-negative `Int`.
    public var height: Int?
    /// `type`: the MIME type, when not a usual image.
    public var type: String?
    /// `purpose`: space-separated uses (`artwork social`).
    public var purpose: String?

    /// The image `element` describes; `nil` when it has no `href`.
    public init?(_ element: Extension) {
        guard let href = element.podcastAttribute("href") else { return nil }
        self.href = href
        alt = element.podcastAttribute("alt")
        aspectRatio = element.podcastAttribute("aspect-ratio")
        width = PodcastValueReading.count(element.attributes["width"])
        height = PodcastValueReading.count(element.attributes["height"])
        type = element.podcastAttribute("type")
        purpose = element.podcastAttribute("purpose")
    }
}
