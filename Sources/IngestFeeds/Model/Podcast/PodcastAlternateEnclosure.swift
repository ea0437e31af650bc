/// Another version of, or a companion to, an episode's enclosure
/// (`podcast:alternateEnclosure`, item level): another bitrate, codec, language or
/// transport, each reachable at its ``sources``. Always kept, even without sources.
public struct PodcastAlternateEnclosure: Sendable, Hashable {
    /// `type`: the media's MIME type.
    public var type: String?
    /// `length`: the file's size in bytes; `nil` unless a non-negative `Int`.
    public var length: Int?
    /// `bitrate`: the average bitrate in bits per second; `nil` unless a finite,
    /// non-negative number.
    public var bitrate: Double?
    /// `height`: a video's height in pixels; `nil` unless a non-negative `Int`.
    public var height: Int?
    /// `lang`: the media's language (BCP 47).
    public var lang: String?
    /// `title`: a short human-readable name (`Standard`, `Low bandwidth`).
    public var title: String?
    /// `rel`: a group of versions of the same content (`default` or none: the
    /// enclosure's).
    public var rel: String?
    /// `codecs`: the codecs inside, as RFC 6381 writes them.
    public var codecs: String?
    /// `default`: `true` when this is the enclosure's own file, to be preferred.
    public var isDefault: Bool?
    /// The `podcast:source` children: where the file can be fetched, in order.
    public var sources: [PodcastSource] = []
    /// The `podcast:integrity` child: how to check the file.
    public var integrity: PodcastIntegrity?

    /// The alternate enclosure `element` describes.
    public init(_ element: Extension) {
        type = element.podcastAttribute("type")
        length = PodcastValueReading.count(element.attributes["length"])
        bitrate = PodcastValueReading.nonNegativeNumber(element.attributes["bitrate"])
        height = PodcastValueReading.count(element.attributes["height"])
        lang = element.podcastAttribute("lang")
        title = element.podcastAttribute("title")
        rel = element.podcastAttribute("rel")
        codecs = element.podcastAttribute("codecs")
        isDefault = PodcastValueReading.flag(element.attributes["default"])
        sources = (element.children["source"] ?? []).compactMap(PodcastSource.init)
        integrity = element.child("integrity").flatMap(PodcastIntegrity.init)
    }
}

/// One place an alternate enclosure can be fetched from (`podcast:source`): HTTP,
/// IPFS, a torrent… A source without a `uri` is skipped.
public struct PodcastSource: Sendable, Hashable {
    /// `uri`: where the file is.
    public var uri: String
    /// `contentType`: the MIME type at this URI when it differs from the enclosure's
    /// (`application/x-bittorrent`).
    public var contentType: String?

    /// The source `element` gives; `nil` when it has no `uri`.
    public init?(_ element: Extension) {
        guard let uri = element.podcastAttribute("uri") else { return nil }
        self.uri = uri
        contentType = element.podcastAttribute("contentType")
    }
}

/// How to check an alternate enclosure's file (`podcast:integrity`): a Subresource
/// Integrity hash or a PGP signature. Kept when it has a type or a value.
public struct PodcastIntegrity: Sendable, Hashable {
    /// `type`: `sri` or `pgp-signature`.
    public var type: String?
    /// `value`: the hash or the signature.
    public var value: String?

    /// The integrity check `element` gives; `nil` when it has neither type nor value.
    public init?(_ element: Extension) {
        type = element.podcastAttribute("type")
        value = element.podcastAttribute("value")
        guard type != nil || value != nil else { return nil }
    }
}
