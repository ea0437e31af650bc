/// An item's Podcasting 2.0 elements (`podcast:` in
/// `https://podcastindex.org/namespace/1.0`), typed: every item-level tag of the
/// namespace's published phases. Built from the generic tree, which keeps every
/// element (unknown tags included) in ``FeedItem/extensions`` under `podcast`.
///
/// Numbers are checked as in ``PodcastFeedExtension``: times in seconds are finite
/// and non-negative, sizes and counts fit an `Int`, else `nil`. An entry whose one
/// indispensable part is missing (a transcript's `url`, a person's name) is left
/// out; any other missing attribute is `nil`. Each type says which.
public struct PodcastItemExtension: Sendable, Hashable {
    /// `podcast:transcript`, in order.
    public var transcripts: [PodcastTranscript] = []
    /// `podcast:chapters`.
    public var chapters: PodcastChapters?
    /// `podcast:soundbite`, in order.
    public var soundbites: [PodcastSoundbite] = []
    /// `podcast:person`, in order.
    public var persons: [PodcastPerson] = []
    /// `podcast:location`, in order.
    public var locations: [PodcastLocation] = []
    /// `podcast:season`.
    public var season: PodcastSeason?
    /// `podcast:episode`.
    public var episode: PodcastEpisode?
    /// `podcast:license`.
    public var license: PodcastLicense?
    /// `podcast:alternateEnclosure`, in order.
    public var alternateEnclosures: [PodcastAlternateEnclosure] = []
    /// `podcast:value`, in order.
    public var values: [PodcastValue] = []
    /// The `srcset` of `podcast:images` (deprecated for `podcast:image`), as written.
    public var imagesSrcset: String?
    /// `podcast:image`, in order.
    public var images: [PodcastImage] = []
    /// `podcast:socialInteract`, in order.
    public var socialInteracts: [PodcastSocialInteract] = []
    /// `podcast:txt`, in order.
    public var txts: [PodcastTxt] = []
    /// `podcast:chat`.
    public var chat: PodcastChat?
    /// `podcast:funding`, in order.
    public var funding: [PodcastFunding] = []
    /// `podcast:contentLink`, in order.
    public var contentLinks: [PodcastContentLink] = []

    /// No elements.
    public init() {}

    /// The Podcasting 2.0 view of the `podcast` extension elements of an item.
    public init(_ elements: [String: [Extension]]) {
        func all(_ name: String) -> [Extension] { elements[name] ?? [] }
        transcripts = all("transcript").compactMap(PodcastTranscript.init)
        chapters = all("chapters").lazy.compactMap(PodcastChapters.init).first
        soundbites = all("soundbite").map(PodcastSoundbite.init)
        persons = all("person").compactMap(PodcastPerson.init)
        locations = all("location").compactMap(PodcastLocation.init)
        season = all("season").lazy.compactMap(PodcastSeason.init).first
        episode = all("episode").lazy.compactMap(PodcastEpisode.init).first
        license = all("license").lazy.compactMap(PodcastLicense.init).first
        alternateEnclosures = all("alternateEnclosure").map(PodcastAlternateEnclosure.init)
        values = all("value").map(PodcastValue.init)
        imagesSrcset = all("images").lazy.compactMap { $0.podcastAttribute("srcset") }.first
        images = all("image").compactMap(PodcastImage.init)
        socialInteracts = all("socialInteract").compactMap(PodcastSocialInteract.init)
        txts = all("txt").compactMap(PodcastTxt.init)
        chat = all("chat").lazy.compactMap(PodcastChat.init).first
        funding = all("funding").compactMap(PodcastFunding.init)
        contentLinks = PodcastContentLink.all(in: elements)
    }
}
