/// The Media RSS elements (`http://search.yahoo.com/mrss/`) of an item or a channel,
/// typed: its `media:content` files, its `media:group`s, and the title,
/// description, thumbnails, credits, ratings and player that describe them — read
/// from the `media` extension elements, which stay in ``FeedItem/extensions``.
public struct MediaRSS: Sendable, Hashable {
    /// Every `media:content` directly on the item or channel, in document order.
    public var contents: [MediaContent] = []
    /// Every `media:group`, in document order.
    public var groups: [MediaGroup] = []
    /// The elements directly on the item or channel that describe its media.
    public var metadata = MediaMetadata()

    /// No elements.
    public init() {}

    /// The Media RSS view of `elements`, the `media` extension elements by local name.
    public init(_ elements: [String: [Extension]]) {
        contents = (elements["content"] ?? []).map(MediaContent.init)
        groups = (elements["group"] ?? []).map(MediaGroup.init)
        metadata = MediaMetadata(elements)
    }

    /// The files to offer when nothing else offers one: the `media:content` directly
    /// here, else those of the first `media:group` (its default first).
    public var files: [MediaContent] {
        if !contents.isEmpty { return contents }
        guard let group = groups.first else { return [] }
        let preferred = group.contents.firstIndex { $0.isDefault == true }
        guard let preferred else { return group.contents }
        var ordered = group.contents
        ordered.insert(ordered.remove(at: preferred), at: 0)
        return ordered
    }
}
