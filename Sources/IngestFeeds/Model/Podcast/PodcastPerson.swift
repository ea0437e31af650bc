/// A person who took part (`podcast:person`, channel or item level): host, guest,
/// cover art designer… The name is the element's text; an element without one is
/// skipped.
public struct PodcastPerson: Sendable, Hashable {
    /// The element's text: the person's name.
    public var name: String
    /// `role`: what they did, from the namespace's taxonomy (`host` when absent).
    public var role: String?
    /// `group`: the taxonomy group of the role (`cast` when absent).
    public var group: String?
    /// `img`: a picture of them.
    public var img: String?
    /// `href`: a page about them.
    public var href: String?

    /// The person `element` names; `nil` when it has no text.
    public init?(_ element: Extension) {
        guard let name = element.podcastText else { return nil }
        self.name = name
        role = element.podcastAttribute("role")
        group = element.podcastAttribute("group")
        img = element.podcastAttribute("img")
        href = element.podcastAttribute("href")
    }
}
