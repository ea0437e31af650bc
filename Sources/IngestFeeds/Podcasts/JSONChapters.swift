import Foundation

/// A chapters document in the Podcasting 2.0 JSON chapters format
/// (`application/json+chapters`, the file a `podcast:chapters` element points at):
/// the chapters of one episode, with start times in seconds, titles, images and
/// links, for a player's chapter list.
///
/// ```swift
/// let chapters = try JSONChapters(data: downloadedBytes)
/// for chapter in chapters.chapters { print(chapter.startTime, chapter.title ?? "") }
/// ```
///
/// The document is read whole with Foundation's `JSONDecoder` (chapter files are
/// small, and read off the feed's path), after a size check.
public struct JSONChapters: Sendable, Hashable {
    /// The format version the document states (`version`, such as `1.2.0`).
    public var version: String
    /// The chapters, in the document's order.
    public var chapters: [Chapter]

    /// One chapter.
    public struct Chapter: Sendable, Hashable {
        /// Where the chapter starts, in seconds from the beginning of the episode.
        public var startTime: Double
        /// Where it ends, in seconds, when the document says.
        public var endTime: Double?
        /// The chapter's title.
        public var title: String?
        /// An image for the chapter (`img`).
        public var img: String?
        /// A web page about the chapter (`url`).
        public var url: String?
        /// `toc`: `false` for a chapter to keep out of the table of contents
        /// (it still changes the image or link at its time); `nil` (meaning `true`) when absent.
        public var toc: Bool?
        /// The place the chapter is about.
        public var location: Location?

        /// A chapter starting at `startTime` seconds.
        public init(
            startTime: Double, endTime: Double? = nil, title: String? = nil, img: String? = nil,
            url: String? = nil, toc: Bool? = nil, location: Location? = nil
        ) {
            self.startTime = startTime
            self.endTime = endTime
            self.title = title
            self.img = img
            self.url = url
            self.toc = toc
            self.location = location
        }
    }

    /// A chapter's `location`: a place by name, with its coordinates.
    public struct Location: Sendable, Hashable {
        /// The place's name, for people.
        public var name: String
        /// A `geo:` URI (RFC 5870), such as `geo:30.2672,97.7431`.
        public var geo: String?
        /// An OpenStreetMap identifier, such as `R113314`.
        public var osm: String?

        /// A place called `name`.
        public init(name: String, geo: String? = nil, osm: String? = nil) {
            self.name = name
            self.geo = geo
            self.osm = osm
        }
    }

    /// The size ``init(data:maximumSize:)`` takes by default: far more than a
    /// chapters file needs, far less than memory.
    public static let defaultMaximumSize = 8 * 1024 * 1024

    /// A document.
    public init(version: String, chapters: [Chapter]) {
        self.version = version
        self.chapters = chapters
    }

    /// Reads a chapters document from its bytes.
    ///
    /// - Parameters:
    ///   - data: the document's bytes.
    ///   - maximumSize: the most bytes to read; a larger document is refused before it
    ///     is parsed.
    /// - Throws: ``JSONChaptersError``: the document is too large, is not JSON of
    ///   this format (`version` and `chapters` are required, and each chapter's
    ///   `startTime`), or a time is negative or not finite.
    public init(data: Data, maximumSize: Int = defaultMaximumSize) throws {
        guard data.count <= maximumSize else {
            throw JSONChaptersError.tooLarge(size: data.count, maximumSize: maximumSize)
        }
        let document: Document
        do {
            document = try JSONDecoder().decode(Document.self, from: data)
        } catch {
            throw JSONChaptersError.notChapters(String(describing: error))
        }
        var chapters: [Chapter] = []
        chapters.reserveCapacity(document.chapters.count)
        for (index, chapter) in document.chapters.enumerated() {
            guard chapter.startTime.isFinite, chapter.startTime >= 0 else {
                throw JSONChaptersError.invalidTime(chapter: index, key: "startTime")
            }
            if let end = chapter.endTime, !end.isFinite || end < 0 {
                throw JSONChaptersError.invalidTime(chapter: index, key: "endTime")
            }
            let location = chapter.location.map { Location(name: $0.name, geo: $0.geo, osm: $0.osm) }
            chapters.append(
                Chapter(
                    startTime: chapter.startTime, endTime: chapter.endTime, title: chapter.title,
                    img: chapter.img, url: chapter.url, toc: chapter.toc, location: location))
        }
        self.init(version: document.version, chapters: chapters)
    }

    /// The document as JSON gives it.
    private struct Document: Decodable {
        var version: String
        var chapters: [RawChapter]
    }

    private struct RawChapter: Decodable {
        var startTime: Double
        var endTime: Double?
        var title: String?
        var img: String?
        var url: String?
        var toc: Bool?
        var location: RawLocation?
    }

    private struct RawLocation: Decodable {
        var name: String
        var geo: String?
        var osm: String?
    }
}
