/// The show's intended release schedule (`podcast:updateFrequency`, channel level):
/// an iCalendar recurrence rule beside text for people. Always kept.
public struct PodcastUpdateFrequency: Sendable, Hashable {
    /// The element's text: the schedule in words (`Every weekday`).
    public var text: String?
    /// `complete`: `true` when no episode will follow.
    public var complete: Bool?
    /// `dtstart`: when the rule begins, as written (ISO 8601).
    public var dtstart: String?
    /// ``dtstart`` read by ``FeedDateParser``; `nil` when it is not a date.
    public var dtstartParsed: FeedDate?
    /// `rrule`: an RFC 5545 recurrence rule (`FREQ=WEEKLY;BYDAY=MO`), as written.
    public var rrule: String?

    /// The schedule `element` states.
    public init(_ element: Extension) {
        text = element.podcastText
        complete = PodcastValueReading.flag(element.attributes["complete"])
        dtstart = element.podcastAttribute("dtstart")
        dtstartParsed = PodcastValueReading.date(dtstart)
        rrule = element.podcastAttribute("rrule")
    }
}
