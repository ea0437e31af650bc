/// A transcript of an episode (`podcast:transcript`, item level): where the file is
/// and what it holds. An element without a `url` says nothing usable and is skipped.
public struct PodcastTranscript: Sendable, Hashable {
    /// `url`: where the transcript is.
    public var url: String
    /// `type`: its MIME type (`text/vtt`, `application/x-subrip`, `application/json`,
    /// `text/html`, `text/plain`).
    public var type: String?
    /// `language`: its language, when given (the feed's language otherwise).
    public var language: String?
    /// `rel`: `captions` when the file is timed for closed captions.
    public var rel: String?

    /// The transcript `element` describes; `nil` when it has no `url`.
    public init?(_ element: Extension) {
        guard let url = element.podcastAttribute("url") else { return nil }
        self.url = url
        type = element.podcastAttribute("type")
        language = element.podcastAttribute("language")
        rel = element.podcastAttribute("rel")
    }
}

/// An episode's chapters file (`podcast:chapters`, item level): JSON chapters, as
/// the namespace defines them, at `url`. An element without a `url` is skipped.
public struct PodcastChapters: Sendable, Hashable {
    /// `url`: where the chapters file is.
    public var url: String
    /// `type`: its MIME type, usually `application/json+chapters`.
    public var type: String?

    /// The chapters file `element` points at; `nil` when it has no `url`.
    public init?(_ element: Extension) {
        guard let url = element.podcastAttribute("url") else { return nil }
        self.url = url
        type = element.podcastAttribute("type")
    }
}

/// A soundbite (`podcast:soundbite`, item level): a part of the episode worth
/// sharing, in seconds from the start of the enclosure. Always kept; a time that is
/// not a finite, non-negative number is `nil`.
public struct PodcastSoundbite: Sendable, Hashable {
    /// `startTime`: where the soundbite begins, in seconds.
    public var startTime: Double?
    /// `duration`: how long it lasts, in seconds.
    public var duration: Double?
    /// The element's text: the soundbite's title, when given.
    public var title: String?

    /// The soundbite `element` describes.
    public init(_ element: Extension) {
        startTime = PodcastValueReading.seconds(element.attributes["startTime"])
        duration = PodcastValueReading.seconds(element.attributes["duration"])
        title = element.podcastText
    }
}
