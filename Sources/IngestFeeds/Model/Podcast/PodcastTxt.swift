/// Free text for machines (`podcast:txt`, channel or item level), like a DNS TXT
/// record: a verification code, a note for a service. Skipped when it has no text.
public struct PodcastTxt: Sendable, Hashable {
    /// `purpose`: what the text is for (`verify`, `applepodcastsverify`…).
    public var purpose: String?
    /// The element's text.
    public var text: String

    /// The record `element` holds; `nil` when it has no text.
    public init?(_ element: Extension) {
        guard let text = element.podcastText else { return nil }
        self.text = text
        purpose = element.podcastAttribute("purpose")
    }
}
