/// What a feed says about how often it should be fetched: RSS `<ttl>`, `<skipHours>`,
/// `<skipDays>`, and the RSS 1.0 syndication module's `sy:updatePeriod` and
/// `sy:updateFrequency` (in RSS 1.0, RSS 2.0 and Atom feeds alike).
///
/// Read from the feed level only (the channel, Atom's `feed`), each value trimmed;
/// a value that is not what its element allows is left out, as if absent.
public struct FeedUpdateHints: Sendable, Hashable {
    /// RSS `<ttl>`: minutes the feed may be cached; nil when absent or not a positive integer that fits.
    public var timeToLive: Int?
    /// RSS `<skipHours>`: hours of the day (0–23, GMT) when a reader should not fetch; `24` is read as 0 (some feeds use 1–24).
    public var skipHours: Set<Int>
    /// RSS `<skipDays>`: days (1 = Monday … 7 = Sunday, ISO 8601) when a reader should not fetch; day names matched case-insensitively ("Monday"…"Sunday").
    public var skipDays: Set<Int>
    /// `sy:updatePeriod` (hourly, daily, weekly, monthly, yearly; default daily when only a frequency is given).
    public var updatePeriod: UpdatePeriod?
    /// `sy:updateFrequency`: how many times per period (default 1 when only a period is given); positive.
    public var updateFrequency: Int?

    /// The period `sy:updateFrequency` counts in.
    public enum UpdatePeriod: String, Sendable, Hashable, CaseIterable {
        /// An hour: 3,600 seconds.
        case hourly
        /// A day: 86,400 seconds.
        case daily
        /// A week: 604,800 seconds.
        case weekly
        /// A month, taken as 30 days: 2,592,000 seconds.
        case monthly
        /// A year, taken as 365 days: 31,536,000 seconds.
        case yearly

        /// The period's length in seconds.
        var seconds: Double {
            switch self {
            case .hourly: 3600
            case .daily: 86400
            case .weekly: 604_800
            case .monthly: 2_592_000
            case .yearly: 31_536_000
            }
        }
    }

    /// The interval the syndication module asks for, period ÷ frequency, in seconds (hour 3600, day 86400, week 604800, month 2592000 (30 days), year 31536000); nil without either element.
    ///
    /// The module's defaults fill in the missing one (daily, once); a frequency
    /// that is not positive counts as the default, once per period.
    public var syndicationInterval: Double? {
        guard updatePeriod != nil || updateFrequency != nil else { return nil }
        let period = updatePeriod ?? .daily
        let frequency = updateFrequency.flatMap { $0 > 0 ? $0 : nil } ?? 1
        return period.seconds / Double(frequency)
    }

    /// Whether the feed says nothing about fetching.
    public var isEmpty: Bool {
        timeToLive == nil && skipHours.isEmpty && skipDays.isEmpty && updatePeriod == nil && updateFrequency == nil
    }

    /// Hints with these values (none by default).
    public init(
        timeToLive: Int? = nil, skipHours: Set<Int> = [], skipDays: Set<Int> = [],
        updatePeriod: UpdatePeriod? = nil, updateFrequency: Int? = nil
    ) {
        self.timeToLive = timeToLive
        self.skipHours = skipHours
        self.skipDays = skipDays
        self.updatePeriod = updatePeriod
        self.updateFrequency = updateFrequency
    }
}

// MARK: - Reading them from a feed

extension FeedUpdateHints {
    /// The hints of a feed's texts as written: RSS `ttl`, the `hour`s of its
    /// `skipHours` and the `day`s of its `skipDays`, and its `sy` extension
    /// elements. What is not valid is left out.
    init(
        ttl: String? = nil, skipHours hours: [String] = [], skipDays days: [String] = [],
        syndication: [String: [Extension]]?
    ) {
        self.init()
        timeToLive = ttl.flatMap(Self.positiveInteger)
        for hour in hours {
            guard let value = Self.integer(hour), value <= 24 else { continue }
            skipHours.insert(value == 24 ? 0 : value)
        }
        for day in days {
            if let value = Self.days[day.trimmingASCIIWhiteSpace().lowercased()] { skipDays.insert(value) }
        }
        let period = syndication?["updatePeriod"]?.first.flatMap {
            UpdatePeriod(rawValue: $0.value.trimmingASCIIWhiteSpace().lowercased())
        }
        let frequency = syndication?["updateFrequency"]?.first.flatMap { Self.positiveInteger($0.value) }
        if period != nil || frequency != nil {
            updatePeriod = period ?? .daily
            updateFrequency = frequency ?? 1
        }
    }

    /// ISO 8601's day numbers by lowercased English name.
    private static let days: [String: Int] = [
        "monday": 1, "tuesday": 2, "wednesday": 3, "thursday": 4, "friday": 5, "saturday": 6, "sunday": 7
    ]

    /// `text`, trimmed, as a decimal integer of ASCII digits alone (no sign) that
    /// fits in an `Int`; else `nil`.
    static func integer(_ text: String) -> Int? {
        let digits = text.trimmingASCIIWhiteSpace()
        guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            return nil
        }
        return Int(digits)  // nil, not a trap, when it does not fit
    }

    /// ``integer(_:)`` when above zero.
    static func positiveInteger(_ text: String) -> Int? {
        integer(text).flatMap { $0 > 0 ? $0 : nil }
    }
}
