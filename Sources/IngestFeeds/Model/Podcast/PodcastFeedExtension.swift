/// A channel's Podcasting 2.0 elements (`podcast:` in
/// `https://podcastindex.org/namespace/1.0`), typed: every channel-level tag of the
/// namespace's published phases. Built from the generic tree, which keeps every
/// element (unknown tags included) in ``Feed/extensions`` under `podcast`.
///
/// Numbers are checked: a time, size or count that is not a finite number of the
/// right kind, or does not fit, is `nil`. An entry whose one indispensable part is
/// missing (a funding or trailer `url`, a person's name, a remote item's feed) is
/// left out; any other missing attribute is `nil`. Each type says which.
public struct PodcastFeedExtension: Sendable, Hashable {
    /// `podcast:locked`.
    public var locked: PodcastLocked?
    /// `podcast:funding`, in order.
    public var funding: [PodcastFunding] = []
    /// `podcast:person`, in order.
    public var persons: [PodcastPerson] = []
    /// `podcast:location`, in order (one per `rel`, at most, says the namespace).
    public var locations: [PodcastLocation] = []
    /// `podcast:trailer`, in order.
    public var trailers: [PodcastTrailer] = []
    /// `podcast:license`.
    public var license: PodcastLicense?
    /// `podcast:guid`: the show's global identifier (a UUIDv5 of its feed URL).
    public var guid: String?
    /// `podcast:value`, in order.
    public var values: [PodcastValue] = []
    /// `podcast:medium`: `podcast`, `music`, `video`, `audiobook`… (`…L` for a list).
    public var medium: String?
    /// The `srcset` of `podcast:images` (deprecated for `podcast:image`), as written.
    public var imagesSrcset: String?
    /// `podcast:image`, in order.
    public var images: [PodcastImage] = []
    /// `podcast:liveItem`, in order.
    public var liveItems: [PodcastLiveItem] = []
    /// `podcast:socialInteract`, in order.
    public var socialInteracts: [PodcastSocialInteract] = []
    /// `podcast:block`, in order.
    public var blocks: [PodcastBlock] = []
    /// `podcast:txt`, in order.
    public var txts: [PodcastTxt] = []
    /// `podcast:remoteItem` directly in the channel (a playlist's entries), in order.
    public var remoteItems: [PodcastRemoteItem] = []
    /// The remote items of `podcast:podroll`: shows this one recommends.
    public var podroll: [PodcastRemoteItem] = []
    /// `podcast:updateFrequency`.
    public var updateFrequency: PodcastUpdateFrequency?
    /// `usesPodping` of `podcast:podping`: `true` when the host announces new
    /// episodes through Podping.
    public var usesPodping: Bool?
    /// `podcast:chat`.
    public var chat: PodcastChat?
    /// The remote item of `podcast:publisher`: the publisher's own feed.
    public var publisher: PodcastRemoteItem?

    /// No elements.
    public init() {}

    /// The Podcasting 2.0 view of the `podcast` extension elements of a channel.
    public init(_ elements: [String: [Extension]]) {
        func all(_ name: String) -> [Extension] { elements[name] ?? [] }
        locked = elements["locked"]?.first.map(PodcastLocked.init)
        funding = all("funding").compactMap(PodcastFunding.init)
        persons = all("person").compactMap(PodcastPerson.init)
        locations = all("location").compactMap(PodcastLocation.init)
        trailers = all("trailer").compactMap(PodcastTrailer.init)
        license = all("license").lazy.compactMap(PodcastLicense.init).first
        guid = all("guid").lazy.compactMap(\.podcastText).first
        values = all("value").map(PodcastValue.init)
        medium = all("medium").lazy.compactMap(\.podcastText).first
        imagesSrcset = all("images").lazy.compactMap { $0.podcastAttribute("srcset") }.first
        images = all("image").compactMap(PodcastImage.init)
        liveItems = all("liveItem").map(PodcastLiveItem.init)
        socialInteracts = all("socialInteract").compactMap(PodcastSocialInteract.init)
        blocks = all("block").map(PodcastBlock.init)
        txts = all("txt").compactMap(PodcastTxt.init)
        remoteItems = PodcastRemoteItem.all(in: elements)
        podroll = all("podroll").flatMap { PodcastRemoteItem.all(in: $0.children) }
        updateFrequency = elements["updateFrequency"]?.first.map(PodcastUpdateFrequency.init)
        usesPodping = all("podping").lazy.compactMap { PodcastValueReading.flag($0.attributes["usesPodping"]) }.first
        chat = all("chat").lazy.compactMap(PodcastChat.init).first
        publisher = all("publisher").lazy.compactMap { PodcastRemoteItem.all(in: $0.children).first }.first
    }
}
