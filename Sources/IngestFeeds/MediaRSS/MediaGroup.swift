/// A Media RSS `media:group`: several `media:content` that are one media object
/// in different forms (encodings, sizes, languages), with what describes them all.
public struct MediaGroup: Sendable, Hashable {
    /// The forms, in document order.
    public var contents: [MediaContent] = []
    /// The title, description, thumbnails, credits, ratings and player of the group.
    public var metadata = MediaMetadata()

    /// An empty group.
    public init() {}

    /// The group `element` (a `media:group`) describes.
    public init(_ element: Extension) {
        contents = (element.children["content"] ?? []).map(MediaContent.init)
        metadata = MediaMetadata(element.children)
    }

    /// The form to offer first: the one marked `isDefault="true"`, else the first.
    public var defaultContent: MediaContent? {
        contents.first { $0.isDefault == true } ?? contents.first
    }
}
