/// The Media RSS elements that describe media wherever they stand — on an item,
/// in a `media:group`, in a `media:content` — the nearer one applying: `media:title`,
/// `media:description`, `media:thumbnail`, `media:credit`, `media:rating`,
/// `media:player`.
public struct MediaMetadata: Sendable, Hashable {
    /// `media:title`.
    public var title: MediaText?
    /// `media:description`.
    public var description: MediaText?
    /// Every `media:thumbnail` with a URL, in document order.
    public var thumbnails: [MediaThumbnail] = []
    /// Every `media:credit` that names someone, in document order.
    public var credits: [MediaCredit] = []
    /// Every `media:rating` that is not empty, in document order.
    public var ratings: [MediaRating] = []
    /// The first `media:player` with a URL.
    public var player: MediaPlayer?

    /// No elements.
    public init() {}

    /// The metadata among `elements` (Media RSS elements, or an element's children, by local name).
    public init(_ elements: [String: [Extension]]) {
        title = MediaText(elements["title"]?.first)
        description = MediaText(elements["description"]?.first)
        thumbnails = (elements["thumbnail"] ?? []).compactMap(MediaThumbnail.init)
        credits = (elements["credit"] ?? []).compactMap(MediaCredit.init)
        ratings = (elements["rating"] ?? []).compactMap(MediaRating.init)
        player = (elements["player"] ?? []).lazy.compactMap(MediaPlayer.init).first
    }

    /// Whether none of the elements is there.
    public var isEmpty: Bool {
        title == nil && description == nil && thumbnails.isEmpty && credits.isEmpty && ratings.isEmpty && player == nil
    }
}
