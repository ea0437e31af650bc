import Foundation
import IngestFeeds
import Testing

/// Expects `text` to be read as the instant `expected` (RFC 3339, UTC).
func expectDate(_ text: String, is expected: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let date = try #require(FeedDate(parsing: text), "\(text) did not parse", sourceLocation: sourceLocation)
    #expect(date.rfc3339 == expected, sourceLocation: sourceLocation)
}

/// Expects `text` not to be read as a date: the caller keeps the text.
func expectNoDate(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(FeedDate(parsing: text) == nil, "\(text) should not parse", sourceLocation: sourceLocation)
}

@Suite("Dates: one liberal reader over bytes")
struct FeedDateParserTests {
    /// Real-world forms and the instant each stands for, in UTC.
    static let table: [(String, String)] = [
        // RFC 822 / 1123 / 2822
        ("Thu, 01 Jan 2004 19:48:21 GMT", "2004-01-01T19:48:21Z"),
        ("Sat, 07 Sep 2002 00:00:01 GMT", "2002-09-07T00:00:01Z"),
        ("Sat, 07 Sep 2002 00:00:01 UT", "2002-09-07T00:00:01Z"),
        ("Sat, 07 Sep 2002 00:00:01 UTC", "2002-09-07T00:00:01Z"),
        ("Sat, 07 Sep 2002 00:00:01 Z", "2002-09-07T00:00:01Z"),
        ("Mon, 02 Jan 2006 15:04:05 -0700", "2006-01-02T22:04:05Z"),
        ("Mon, 02 Jan 2006 15:04:05 +0530", "2006-01-02T09:34:05Z"),
        ("Mon, 02 Jan 2006 15:04:05 -07:00", "2006-01-02T22:04:05Z"),
        ("Mon, 02 Jan 2006 15:04:05 EST", "2006-01-02T20:04:05Z"),
        ("Mon, 02 Jul 2006 15:04:05 EDT", "2006-07-02T19:04:05Z"),
        ("Mon, 02 Jan 2006 15:04:05 CST", "2006-01-02T21:04:05Z"),
        ("Mon, 02 Jul 2006 15:04:05 CDT", "2006-07-02T20:04:05Z"),
        ("Mon, 02 Jan 2006 15:04:05 MST", "2006-01-02T22:04:05Z"),
        ("Mon, 02 Jul 2006 15:04:05 MDT", "2006-07-02T21:04:05Z"),
        ("Mon, 02 Jan 2006 15:04:05 PST", "2006-01-02T23:04:05Z"),
        ("Mon, 02 Jul 2006 15:04:05 PDT", "2006-07-02T22:04:05Z"),
        // Military letters, with RFC 822's own signs: A is -1 hour, N is +1.
        ("Mon, 02 Jan 2006 15:04:05 A", "2006-01-02T16:04:05Z"),
        ("Mon, 02 Jan 2006 15:04:05 N", "2006-01-02T14:04:05Z"),
        ("Mon, 02 Jan 2006 15:04:05 M", "2006-01-03T03:04:05Z"),
        ("Mon, 02 Jan 2006 15:04:05 Y", "2006-01-02T03:04:05Z"),
        // Two-digit years, no weekday, no seconds, one-digit day and hour.
        ("Mon, 02 Jan 06 15:04:05 GMT", "2006-01-02T15:04:05Z"),
        ("02 Jan 99 15:04:05 GMT", "1999-01-02T15:04:05Z"),
        ("2 Jan 2006 15:04:05 +0000", "2006-01-02T15:04:05Z"),
        ("Mon, 2 Jan 2006 15:04 GMT", "2006-01-02T15:04:00Z"),
        ("Tue, 21 Jun 2016 8:30 +0000", "2016-06-21T08:30:00Z"),
        ("Mon,02 Jan 2006 15:04:05 -0700", "2006-01-02T22:04:05Z"),
        ("Mon, 02 Jan 2006 15:04:05 GMT-0700", "2006-01-02T22:04:05Z"),
        ("Mon Jan 02 2006 15:04:05 GMT-0700 (Mountain Standard Time)", "2006-01-02T22:04:05Z"),
        ("Mon, 02 Jan 2006 15:04:05", "2006-01-02T15:04:05Z"),
        ("Sun, 01 September 2019 10:00:00 +0200", "2019-09-01T08:00:00Z"),
        ("Tue, 10 Sept 2019 10:00:00 GMT", "2019-09-10T10:00:00Z"),
        // ISO 8601 / RFC 3339
        ("2003-12-13T18:30:02Z", "2003-12-13T18:30:02Z"),
        ("2003-12-13T18:30:02.25Z", "2003-12-13T18:30:02.25Z"),
        ("2019-10-12T07:20:50.52Z", "2019-10-12T07:20:50.52Z"),
        ("2003-12-13T18:30:02+01:00", "2003-12-13T17:30:02Z"),
        ("2003-12-13T18:30:02.123456789-05:00", "2003-12-13T23:30:02.123456789Z"),
        ("2003-12-13T18:30:02-0500", "2003-12-13T23:30:02Z"),
        ("2003-12-13T18:30:02", "2003-12-13T18:30:02Z"),
        ("2003-12-13T18:30Z", "2003-12-13T18:30:00Z"),
        ("2003-12-13t18:30:02z", "2003-12-13T18:30:02Z"),
        ("2003-12-13", "2003-12-13T00:00:00Z"),
        ("2004-07-08 23:56:58", "2004-07-08T23:56:58Z"),
        ("2019-08-27 00:00:00", "2019-08-27T00:00:00Z"),
        ("2006-01-02 15:04:05 -0700", "2006-01-02T22:04:05Z"),
        ("2006-01-02 15:04:05 MST", "2006-01-02T22:04:05Z"),
        ("2006-01-02 at 15:04:05", "2006-01-02T15:04:05Z"),
        ("2006/01/02", "2006-01-02T00:00:00Z"),
        ("2006-1-2", "2006-01-02T00:00:00Z"),
        // asctime and Unix date
        ("Mon Jan  2 15:04:05 2006", "2006-01-02T15:04:05Z"),
        ("Mon Jan 2 15:04:05 MST 2006", "2006-01-02T22:04:05Z"),
        ("Mon Jan 02 15:04:05 -0700 2006", "2006-01-02T22:04:05Z"),
        // AM/PM and prose
        ("Fri, Jun 26 2026 10:04:03 AM", "2026-06-26T10:04:03Z"),
        ("Fri, Jun 26 2026 10:04:03 PM", "2026-06-26T22:04:03Z"),
        ("Fri, Jun 26 2026 12:04:03 AM", "2026-06-26T00:04:03Z"),
        ("Fri, Jun 26 2026 12:04:03 PM", "2026-06-26T12:04:03Z"),
        ("Jan 02 2006 03:04:05PM", "2006-01-02T15:04:05Z"),
        ("January 2, 2006 3:04 p.m.", "2006-01-02T15:04:00Z"),
        ("January 2, 2006", "2006-01-02T00:00:00Z"),
        ("Monday, January 2, 2006 03:04 PM", "2006-01-02T15:04:00Z"),
        ("Monday, 2 January 2006", "2006-01-02T00:00:00Z"),
        ("June 3rd, 2020", "2020-06-03T00:00:00Z"),
        ("30 Jan 2018", "2018-01-30T00:00:00Z"),
        // All-numeric dates: day first, unless it cannot be.
        ("02/01/2006", "2006-01-02T00:00:00Z"),
        ("01/13/2006", "2006-01-13T00:00:00Z"),
        ("2.1.2006 15:04:05", "2006-01-02T15:04:05Z"),
        ("02-01-2006 15:04", "2006-01-02T15:04:00Z"),
        // White space, CDATA, a no-break space around the text.
        ("  \n\tThu, 01 Jan 2004 19:48:21 GMT \r\n", "2004-01-01T19:48:21Z"),
        ("<![CDATA[Thu, 01 Jan 2004 19:48:21 GMT]]>", "2004-01-01T19:48:21Z"),
        ("\u{A0}2003-12-13T18:30:02Z\u{A0}", "2003-12-13T18:30:02Z"),
        // Edges of the calendar
        ("Thu, 29 Feb 2024 12:00:00 GMT", "2024-02-29T12:00:00Z"),
        ("1969-12-31T23:59:59Z", "1969-12-31T23:59:59Z"),
        ("1900-01-01T00:00:00Z", "1900-01-01T00:00:00Z"),
        ("2006-01-02T24:00:00Z", "2006-01-03T00:00:00Z")
    ]

    @Test("each real-world form", arguments: table)
    func form(_ text: String, _ expected: String) throws {
        try expectDate(text, is: expected)
    }

    /// Text that is not a date this reader knows: nil, never a guess.
    static let unparseable = [
        "", "   ", "yesterday", "not a date", "Thu, 30 Feb 2004 19:48:21 GMT", "2004-13-01", "2004-00-10",
        "Mon, 2 Jan 15:04:05 MST", "12:00 PM", "1136214245", "2006-01-02T25:00:00Z", "2006-01-02T10:61:00Z",
        "Lundi 3 mars 2025", "Fri, Jun 26 2026 13:04:03 PM", "2006-01-02T10:00:00+99:00"
    ]

    @Test("unparseable text gives nil", arguments: unparseable)
    func rejects(_ text: String) {
        expectNoDate(text)
    }

    @Test("the offset as written is kept; no zone means UTC")
    func offsets() throws {
        #expect(FeedDate(parsing: "Mon, 02 Jan 2006 15:04:05 -0700")?.utcOffset == -25_200)
        #expect(FeedDate(parsing: "2003-12-13T18:30:02+05:30")?.utcOffset == 19_800)
        #expect(FeedDate(parsing: "2003-12-13T18:30:02Z")?.utcOffset == 0)
        #expect(FeedDate(parsing: "2003-12-13T18:30:02")?.utcOffset == nil)
        // Equal instants are equal dates whatever their offsets.
        #expect(FeedDate(parsing: "2003-12-13T18:30:02+01:00") == FeedDate(parsing: "2003-12-13T17:30:02Z"))
    }

    @Test("Foundation Date and back")
    func foundation() throws {
        let date = try #require(FeedDate(parsing: "2019-10-12T07:20:50.5Z"))
        #expect(date.date.timeIntervalSince1970 == 1_570_864_850.5)
        #expect(FeedDate(date.date).rfc3339 == "2019-10-12T07:20:50.5Z")
        #expect(date < FeedDate(parsing: "2019-10-12T07:20:51Z")!)
    }

    @Test("an unparseable date keeps its text and never fails the item or the feed")
    func itemKeepsRawDate() throws {
        let parsed = try feed(
            """
            <rss version="2.0"><channel><title>t</title><lastBuildDate>sometime soon</lastBuildDate>
            <item><title>a</title><pubDate>around noon</pubDate></item>
            <item><title>b</title><pubDate> 30 Jan 2018 </pubDate></item>
            </channel></rss>
            """)
        #expect(parsed.updated == "sometime soon")
        #expect(parsed.updatedParsed == nil)
        #expect(parsed.items.count == 2)
        #expect(parsed.items[0].published == "around noon")
        #expect(parsed.items[0].publishedParsed == nil)
        #expect(parsed.items[1].publishedParsed?.rfc3339 == "2018-01-30T00:00:00Z")
    }
}
