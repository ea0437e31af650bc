/// A Media RSS `media:credit`: who took part in making the media, and as what —
/// the cast and crew of a video, the people on an episode.
public struct MediaCredit: Sendable, Hashable {
    /// The person's or the organisation's name.
    public var value: String
    /// What they did (`role`): `producer`, `author`, `host`… as written.
    public var role: String?
    /// The vocabulary ``role`` comes from (`scheme`; `urn:ebu` when absent).
    public var scheme: String?

    /// A credit to `value`.
    public init(value: String, role: String? = nil, scheme: String? = nil) {
        self.value = value
        self.role = role.nonEmpty
        self.scheme = scheme.nonEmpty
    }

    /// The credit `element` describes; `nil` when it names no one.
    init?(_ element: Extension) {
        guard !element.value.isEmpty else { return nil }
        self.init(value: element.value, role: element.attributes["role"], scheme: element.attributes["scheme"])
    }
}
