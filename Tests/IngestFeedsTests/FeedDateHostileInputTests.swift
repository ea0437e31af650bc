import IngestFeeds
import Testing

/// Text no feed means as a date, made to be slow or to overflow: each must give
/// `nil` (or a checked date) at once.
@Suite("Dates: hostile text")
struct FeedDateHostileInputTests {
    static let megabyte = 1 << 20

    static let huge: [(String, String)] = [
        ("digits", String(repeating: "9", count: megabyte)),
        ("spaces", String(repeating: " ", count: megabyte)),
        ("dashes", String(repeating: "-", count: megabyte)),
        ("month words", String(repeating: "Jan ", count: megabyte / 4)),
        ("times", String(repeating: "1:", count: megabyte / 2)),
        ("no-break spaces", String(repeating: "\u{A0}", count: megabyte / 2)),
        ("Korean units", String(repeating: "1년", count: megabyte / 4)),
        (
            "a date in a megabyte of spaces",
            String(repeating: " ", count: megabyte) + "2003-12-31"
                + String(repeating: " ", count: megabyte)
        )
    ]

    @Test("a megabyte of one thing returns at once", arguments: huge)
    func megabyte(_ name: String, _ text: String) {
        let clock = ContinuousClock()
        var result: FeedDate?
        let elapsed = clock.measure { result = FeedDate(parsing: text) }
        if name.hasPrefix("a date") {
            #expect(result?.rfc3339 == "2003-12-31T00:00:00Z")
        } else {
            #expect(result == nil)
        }
        // Linear work over a megabyte takes milliseconds even in a debug build; a
        // quadratic pass would take minutes. Ten seconds leaves room for a
        // sanitizer on a loaded machine.
        #expect(elapsed < .seconds(10), "\(name): \(elapsed)")
    }

    /// Numbers past what a field holds: each must be refused, never wrapped.
    static let overflowing = [
        "99999999999999999999-01-01", "2003-99999999999999999999-01", "2003-12-99999999999999999999",
        "2003-12-31T99999999999999999999:00Z", "2003-12-31T10:99999999999999999999Z",
        "2003-12-31T10:00:99999999999999999999Z", "2003-12-31T10:00:00+99999999999999999999",
        "Thu, 99999999999999999999 Jan 2004", "Thu, 01 Jan 99999999999999999999",
        "99999999999999999999", "-9999", "2003-99999", "2003-0099-01",
        "Thu, 01 Jan 2004 19:48:21 Etc/GMT+99999999999999999999",
        "99999999999999999999년 05월 28일  01:31:15", "123456789년 05월 28일", "2004년 2005년 05월 28일"
    ]

    @Test("numbers too big for their field give nil", arguments: overflowing)
    func overflow(_ text: String) {
        expectNoDate(text)
    }

    /// The calendar's edges: leap years by the Gregorian rule, the days of each month.
    static let calendar: [(String, String?)] = [
        ("2000-02-29", "2000-02-29T00:00:00Z"), ("1900-02-29", nil), ("2004-02-29", "2004-02-29T00:00:00Z"),
        ("2003-02-29", nil), ("2003-04-31", nil), ("2003-04-30", "2003-04-30T00:00:00Z"),
        ("2000-366", "2000-12-31T00:00:00Z"), ("1900-366", nil), ("040229", "2004-02-29T00:00:00Z"),
        ("030229", nil), ("2003-12-31T24:00:00Z", "2004-01-01T00:00:00Z"), ("2003-12-31T24:00:01Z", nil)
    ]

    @Test("leap years and month lengths", arguments: calendar)
    func calendarEdges(_ text: String, _ expected: String?) {
        #expect(FeedDate(parsing: text)?.rfc3339 == expected)
    }
}
