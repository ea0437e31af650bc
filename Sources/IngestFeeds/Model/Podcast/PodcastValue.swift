/// How listeners can pay the show or an episode as they listen (`podcast:value`,
/// channel or item level): a payment network, a method and who gets what share.
/// Always kept.
public struct PodcastValue: Sendable, Hashable {
    /// `type`: the payment layer (`lightning`, `hive`…).
    public var type: String?
    /// `method`: how to pay on it (`keysend`, `lnaddress`…).
    public var method: String?
    /// `suggested`: an amount per minute of listening, kept as written (a decimal
    /// such as `0.00000005000`) so that no precision is lost.
    public var suggested: String?
    /// The `podcast:valueRecipient` children, in order.
    public var recipients: [PodcastValueRecipient] = []
    /// The `podcast:valueTimeSplit` children, in order.
    public var timeSplits: [PodcastValueTimeSplit] = []

    /// The value block `element` describes.
    public init(_ element: Extension) {
        type = element.podcastAttribute("type")
        method = element.podcastAttribute("method")
        suggested = element.podcastAttribute("suggested")
        recipients = PodcastValueRecipient.all(in: element.children)
        timeSplits = (element.children["valueTimeSplit"] ?? []).map(PodcastValueTimeSplit.init)
    }
}

/// One recipient of a value block (`podcast:valueRecipient`). Skipped without an
/// `address`, which a payment cannot do without.
public struct PodcastValueRecipient: Sendable, Hashable {
    /// `name`: who they are.
    public var name: String?
    /// `customKey`: a key the receiving node needs (a TLV record number).
    public var customKey: String?
    /// `customValue`: the value for ``customKey``.
    public var customValue: String?
    /// `type`: what ``address`` is (`node`, `lnaddress`…).
    public var type: String?
    /// `address`: where to pay.
    public var address: String
    /// `split`: their number of shares; `nil` unless a finite, non-negative number.
    public var split: Double?
    /// `fee`: `true` when the share is a fee taken off the top.
    public var fee: Bool?

    /// The recipient `element` describes; `nil` when it has no `address`.
    public init?(_ element: Extension) {
        guard let address = element.podcastAttribute("address") else { return nil }
        self.address = address
        name = element.podcastAttribute("name")
        customKey = element.podcastAttribute("customKey")
        customValue = element.podcastAttribute("customValue")
        type = element.podcastAttribute("type")
        split = PodcastValueReading.nonNegativeNumber(element.attributes["split"])
        fee = PodcastValueReading.flag(element.attributes["fee"])
    }

    /// The recipients among `children` (an element's, by local name).
    static func all(in children: [String: [Extension]]) -> [PodcastValueRecipient] {
        (children["valueRecipient"] ?? []).compactMap(PodcastValueRecipient.init)
    }
}

/// Other recipients for a stretch of the episode (`podcast:valueTimeSplit`, inside
/// `podcast:value`): a song played, a guest's segment. Always kept; a time that is
/// not a finite, non-negative number is `nil`.
public struct PodcastValueTimeSplit: Sendable, Hashable {
    /// `startTime`: where the stretch begins, in seconds.
    public var startTime: Double?
    /// `duration`: how long it lasts, in seconds.
    public var duration: Double?
    /// `remoteStartTime`: where the stretch begins in the remote item, in seconds
    /// (0 when absent, which is `nil` here).
    public var remoteStartTime: Double?
    /// `remotePercentage`: the share the remote item's recipients get, held to
    /// 0…100 as the namespace says (100 when absent, which is `nil` here).
    public var remotePercentage: Double?
    /// The `podcast:remoteItem` child whose value block applies, if any.
    public var remoteItem: PodcastRemoteItem?
    /// The `podcast:valueRecipient` children, when given instead of a remote item.
    public var recipients: [PodcastValueRecipient] = []

    /// The time split `element` describes.
    public init(_ element: Extension) {
        startTime = PodcastValueReading.seconds(element.attributes["startTime"])
        duration = PodcastValueReading.seconds(element.attributes["duration"])
        remoteStartTime = PodcastValueReading.seconds(element.attributes["remoteStartTime"])
        remotePercentage = PodcastValueReading.number(element.attributes["remotePercentage"])
            .map { min(max($0, 0), 100) }
        remoteItem = PodcastRemoteItem.all(in: element.children).first
        recipients = PodcastValueRecipient.all(in: element.children)
    }
}
