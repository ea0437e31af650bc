// Typed views of an item's podcast and Media RSS elements, read from its
// extension elements each time they are asked for: the elements stay in
// `extensions` (and in gofeed's JSON), so whatever keeps those keeps these.

extension FeedItem {
    /// The item's Podlove Simple Chapters (`psc:chapters`), in document order, with
    /// start times in seconds; chapters whose `start` is not a time are left out.
    public var chapters: [PodloveChapter] {
        extensions["psc"].map(PodloveChapter.chapters(in:)) ?? []
    }

    /// The item's Media RSS elements, typed; `nil` when it has none.
    public var mediaRSS: MediaRSS? {
        extensions["media"].map(MediaRSS.init)
    }

    /// The files the item offers: its enclosures (those with a URL); when it has
    /// none, its Media RSS files (``MediaRSS/files``: the `media:content` on the item,
    /// else those of its first `media:group`). URLs are trimmed of white space.
    /// ``enclosures`` itself stays as gofeed has it.
    public var media: [MediaFile] {
        var files: [MediaFile] = []
        for enclosure in enclosures {
            guard let url = enclosure.url?.trimmingASCIIWhiteSpace(), !url.isEmpty else { continue }
            files.append(
                MediaFile(
                    source: .enclosure, url: url, type: enclosure.type, byteCount: enclosure.byteCount,
                    duration: files.isEmpty ? iTunes?.durationSeconds.map(Double.init) : nil))
        }
        guard files.isEmpty, let mediaRSS else { return files }
        for content in mediaRSS.files {
            guard let url = content.url else { continue }
            files.append(
                MediaFile(
                    source: .mediaContent, url: url, type: content.type, byteCount: content.fileSize,
                    duration: content.duration))
        }
        return files
    }
}

extension Feed {
    /// The channel's Media RSS elements, typed; `nil` when it has none.
    public var mediaRSS: MediaRSS? {
        extensions["media"].map(MediaRSS.init)
    }
}
