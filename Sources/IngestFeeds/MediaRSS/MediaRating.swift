/// A Media RSS `media:rating`: who the media is suitable for (`adult`,
/// `nonadult`, or a rating in another scheme such as `urn:mpaa`'s `pg`).
public struct MediaRating: Sendable, Hashable {
    /// The rating, as written.
    public var value: String
    /// The rating's scheme (`scheme`; `urn:simple` — `adult` or `nonadult` — when absent).
    public var scheme: String?

    /// A rating of `value` in `scheme`.
    public init(value: String, scheme: String? = nil) {
        self.value = value
        self.scheme = scheme.nonEmpty
    }

    /// The rating `element` gives; `nil` when it is empty.
    init?(_ element: Extension) {
        guard !element.value.isEmpty else { return nil }
        self.init(value: element.value, scheme: element.attributes["scheme"])
    }
}
