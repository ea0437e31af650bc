/// Someone a feed or an item names: an author, in gofeed's model.
///
/// RSS writes a person as one string (`jo@example.org (Jo Smith)`), split into
/// ``name`` and ``email``; Atom has `name`, `email` and `uri` elements; JSON Feed
/// `name`, `url` and `avatar`. ``url`` and ``avatar`` are kept here but are not part
/// of gofeed's JSON, which has only `name` and `email`.
public struct Person: Sendable, Hashable {
    public var name: String?
    public var email: String?
    /// A web page for the person (Atom `uri`, JSON Feed `url`).
    public var url: String?
    /// An image for the person (JSON Feed `avatar`).
    public var avatar: String?

    public init(name: String? = nil, email: String? = nil, url: String? = nil, avatar: String? = nil) {
        self.name = name.nonEmpty
        self.email = email.nonEmpty
        self.url = url.nonEmpty
        self.avatar = avatar.nonEmpty
    }
}
