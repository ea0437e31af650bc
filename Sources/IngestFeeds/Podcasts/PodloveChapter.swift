/// One chapter mark of Podlove Simple Chapters (`psc:chapter` inside `psc:chapters`,
/// `http://podlove.org/simple-chapters`): where a part of an episode starts and
/// what it is called — what a player shows as a chapter list.
public struct PodloveChapter: Sendable, Hashable {
    /// When the chapter starts, in seconds from the beginning of the episode.
    public var start: Double
    /// The `start` attribute as written (normal play time, `HH:MM:SS.mmm`).
    public var startText: String
    /// The chapter's title.
    public var title: String?
    /// A page about the chapter (`href`).
    public var href: String?
    /// An image for the chapter (`image`).
    public var image: String?

    /// A chapter starting at `start` seconds.
    public init(start: Double, startText: String, title: String? = nil, href: String? = nil, image: String? = nil) {
        self.start = start
        self.startText = startText
        self.title = title.nonEmpty
        self.href = href.nonEmpty
        self.image = image.nonEmpty
    }

    /// The chapter `element` (a `psc:chapter`) describes; `nil` when its `start` is
    /// missing or not a time (`SS`, `MM:SS`, `HH:MM:SS`, each with an optional
    /// fraction: `1:02:03.5`).
    public init?(_ element: Extension) {
        guard let text = element.attributes["start"], let time = ClockTime(text) else { return nil }
        self.init(
            start: time.seconds, startText: text, title: element.attributes["title"],
            href: element.attributes["href"], image: element.attributes["image"])
    }

    /// The chapters of the `psc` extension elements of an item: every `psc:chapter`
    /// of every `psc:chapters`, in document order, those without a valid start left out.
    public static func chapters(in elements: [String: [Extension]]) -> [PodloveChapter] {
        (elements["chapters"] ?? []).flatMap { list in
            (list.children["chapter"] ?? []).compactMap(PodloveChapter.init)
        }
    }
}
