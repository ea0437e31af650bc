/// Someone a feed or an item names: an author, in gofeed's model.
///
/// RSS writes a person as one string (`jo@example.org (Jo Smith)`), split into
/// ``name`` and ``email``; Atom has `name`, `email` and `uri` elements; JSON Feed
/// `name`, `url` and `avatar`. ``url`` and ``avatar`` are kept here but are not part
/// of gofeed's JSON, which has only `name` and `email`.
public struct Person: Sendable, Hashable {
    /// The person's name.
    public var name: String?
    /// The person's email address.
    public var email: String?
    /// A web page for the person (Atom `uri`, JSON Feed `url`).
    public var url: String?
    /// An image for the person (JSON Feed `avatar`).
    public var avatar: String?

    /// A person; empty strings are taken as absent.
    public init(name: String? = nil, email: String? = nil, url: String? = nil, avatar: String? = nil) {
        self.name = name.nonEmpty
        self.email = email.nonEmpty
        self.url = url.nonEmpty
        self.avatar = avatar.nonEmpty
    }
}
