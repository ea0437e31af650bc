/// Where the show's or an episode's chat room is (`podcast:chat`, channel or item
/// level): a server, a protocol and a room. Kept when it has a server or a protocol.
public struct PodcastChat: Sendable, Hashable {
    /// `server`: the server to connect to first.
    public var server: String?
    /// `protocol`: `irc`, `xmpp`, `nostr`, `matrix`…
    public var chatProtocol: String?
    /// `accountId`: the podcaster's account there.
    public var accountId: String?
    /// `space`: the room, channel or topic.
    public var space: String?

    /// The chat `element` points at; `nil` when it has neither server nor protocol.
    public init?(_ element: Extension) {
        server = element.podcastAttribute("server")
        chatProtocol = element.podcastAttribute("protocol")
        guard server != nil || chatProtocol != nil else { return nil }
        accountId = element.podcastAttribute("accountId")
        space = element.podcastAttribute("space")
    }
}
