import Foundation

/// One episode as the app keeps it.
public struct Episode: Sendable, Hashable {
    /// The episode's audio (or video) file.
    public struct Audio: Sendable, Hashable {
        public var url: URL
        /// In bytes, when the feed says.
        public var length: Int?
        /// `audio/mpeg`…
        public var type: String?
    }

    /// A chapter mark inside the episode.
    public struct Chapter: Sendable, Hashable {
        /// Seconds from the start.
        public var start: Double
        public var title: String?
    }

    /// A transcript file (Podcasting 2.0).
    public struct Transcript: Sendable, Hashable {
        public var url: URL
        /// `text/vtt`, `application/srt`…
        public var type: String?
    }

    public var id: String
    public var title: String
    public var published: Date?
    public var summary: String
    public var audio: Audio?
    public var durationSeconds: Int?
    public var season: Int?
    public var number: Int?
    /// `full`, `trailer` or `bonus`.
    public var kind: String
    public var isExplicit: Bool
    /// The chapters the feed lists in the episode (Podlove Simple Chapters).
    public var chapters: [Chapter]
    /// A JSON chapters file, if the feed links one (Podcasting 2.0).
    public var chaptersURL: URL?
    public var transcripts: [Transcript]
}
