import IngestFeeds
import Testing

/// The date forms of feedparser's date handlers (its test table of inputs and UTC
/// instants, tests/test_date_parsers.py, each handler's own answer), the reduced
/// ISO 8601 forms, RFC 850, and other languages' words.
@Suite("Dates: every form feedparser reads")
struct FeedDateFormsTests {
    @Test("each form, as the instant feedparser gives", arguments: table)
    func form(_ text: String, _ expected: String) throws {
        try expectDate(text, is: expected)
    }

    /// feedparser's own failures, the forms that name no one instant (feedparser
    /// fills in the year or month from the clock), and fields out of range.
    static let rejected = [
        "Sun, 16 Dec 2012 1:2:3:4 GMT", "Sun, 16 zzz 2012 11:47:32 GMT", "Sun, Dec x 2012 11:47:32 GMT",
        "Sun, 16 Dec zz 11:47:32 GMT", "Sun, 16 Dec 2012 11:47:32 +zz:00", "Sun, 16 Dec 2012 11:47:32 +00:zz",
        "Sun, 99 Jun 2009 12:00:00 GMT", "Sun, 31 Dec 9999 23:59:59 -9999", "Thu, 31 Jun 2004 19:48:21 GMT",
        "9999-12-31T23:59:59-99:99", "2003-12-31T25:14:55Z", "2003-12-31T10:61:55Z", "2003-12-31T10:14:61Z",
        "013", "2013-01-27-01", "2013-01-28T11:30:00-06:00Textra", "2013-xx-27", "2013-01-28T09:xx:00Z",
        "2013-01-28T09:00:00+00:xx",
        // No one instant: no year, no month, only a century.
        "-335", "-03", "--12-31", "--1231", "--12", "---31", "20",
        // Out of range: months, days of months and of years, hours, offsets.
        "2003-13", "2003-00", "2003-366", "2003-000", "031301", "030229", "2003-02-29",
        "1900-02-29", "-0313", "2003-012-32", "2004-04-31T00:00:00Z", "2006-01-02T24:00:01Z",
        "Thu, 01 Jan 2004 19:48:21 Etc/GMT+15", "Thu, 01 Jan 2004 19:48:21 Etc/Paris",
        "2004년 13월 28일  01:31:15", "2004-05-25 오후 13:23:17", "Κυρ, 31 Φεβ 2004 12:00:00 EST",
        // Two unknown words after the time are prose, not a zone.
        "Thu, 01 Jan 2004 19:48:21 in Paris"
    ]

    @Test("not read: feedparser's failures, forms with no one instant, fields out of range", arguments: rejected)
    func rejects(_ text: String) {
        expectNoDate(text)
    }

    @Test("the offset each zone gives is kept")
    func offsets() {
        #expect(FeedDate(parsing: "2004년 05월 28일  01:31:15")?.utcOffset == 9 * 3600)
        #expect(FeedDate(parsing: "2004-05-25 오후 11:23:17")?.utcOffset == 9 * 3600)
        #expect(FeedDate(parsing: "Thu, 01 Jan 2004 19:48:21 Etc/GMT+5")?.utcOffset == -5 * 3600)
        #expect(FeedDate(parsing: "Mon, 26 January 2004 16:31:00 AT")?.utcOffset == -4 * 3600)
        // An unknown zone word: UTC assumed, and no offset claimed.
        #expect(FeedDate(parsing: "Thu, 01 Jan 2004 19:48:21 XYZ")?.utcOffset == nil)
        // Partial and reduced dates name no zone.
        #expect(FeedDate(parsing: "2003-12")?.utcOffset == nil)
        #expect(FeedDate(parsing: "031231")?.utcOffset == nil)
    }

    @Test("'at' is filler before the time and Atlantic time after it")
    func atWord() throws {
        #expect(FeedDate(parsing: "January 2, 2006 at 3:04 PM")?.rfc3339 == "2006-01-02T15:04:00Z")
        #expect(FeedDate(parsing: "2006-01-02 at 15:04:05")?.rfc3339 == "2006-01-02T15:04:05Z")
        #expect(FeedDate(parsing: "2 January 2006 15:04 at")?.rfc3339 == "2006-01-02T19:04:00Z")
    }

    /// Each form and the instant it stands for, in UTC.
    static let table: [(String, String)] = [
        // W3C-DTF, partial dates first (feedparser: the first month, the first day, UTC).
        ("2003", "2003-01-01T00:00:00Z"),
        ("2003-12", "2003-12-01T00:00:00Z"),
        ("2003-12-31", "2003-12-31T00:00:00Z"),
        ("2003-12-31T10:14:55Z", "2003-12-31T10:14:55Z"),
        ("2003-12-31T10:14:55-08:00", "2003-12-31T18:14:55Z"),
        ("2003-12-31T18:14:55+08:00", "2003-12-31T10:14:55Z"),
        ("2007-04-23T23:25:47.538+10:00", "2007-04-23T13:25:47.538Z"),
        ("2004-02-28T18:14:55-08:00", "2004-02-29T02:14:55Z"),
        ("2003-02-28T18:14:55-08:00", "2003-03-01T02:14:55Z"),
        ("2000-02-28T18:14:55-08:00", "2000-02-29T02:14:55Z"),
        ("2004-07-08 23:56:58 -00:20", "2004-07-09T00:16:58Z"),
        ("2004-07-08 23:56:58", "2004-07-08T23:56:58Z"),
        ("2004-07-08 23:56:58.0", "2004-07-08T23:56:58Z"),
        // ISO 8601 ordinal dates (the day of the year) and the reduced forms of ISO 8601:1988.
        ("2003-335", "2003-12-01T00:00:00Z"),
        ("2003335", "2003-12-01T00:00:00Z"),
        ("03335", "2003-12-01T00:00:00Z"),
        ("03-335", "2003-12-01T00:00:00Z"),
        ("2004-366", "2004-12-31T00:00:00Z"),
        ("20031231", "2003-12-31T00:00:00Z"),
        ("031231", "2003-12-31T00:00:00Z"),
        ("03-12-31", "2003-12-31T00:00:00Z"),
        ("-03-12", "2003-12-01T00:00:00Z"),
        ("-0312", "2003-12-01T00:00:00Z"),
        ("-03-12-31", "2003-12-31T00:00:00Z"),
        // Not an ISO date (no 94th day, no 13th month): day, month, year as gofeed reads them.
        ("06-11-94", "1994-11-06T00:00:00Z"),
        ("03-13-01", "2001-03-13T00:00:00Z"),
        ("2003-12-31T10:14:55.1234Z", "2003-12-31T10:14:55.1234Z"),
        ("2003-012-31T10:14:55+00:00", "2003-12-31T10:14:55Z"),
        ("20031231T10:14:55Z", "2003-12-31T10:14:55Z"),
        ("03-12-31T10:14Z", "2003-12-31T10:14:00Z"),
        ("-0312T10:00", "2003-12-01T10:00:00Z"),
        ("2003335T10:14:55-01:00", "2003-12-01T11:14:55Z"),
        // RFC 822 as feedparser reads it
        ("Thu, 30 Apr 2015 08:57:00 MET", "2015-04-30T07:57:00Z"),
        ("Thu, 30 Apr 2015 08:57:00 MEST", "2015-04-30T06:57:00Z"),
        ("Thu, 01 Jan 0100 00:00:01 +0100", "0099-12-31T23:00:01Z"),
        ("Thu, 01 Jan 04 19:48:21 GMT", "2004-01-01T19:48:21Z"),
        ("Thu,  5 Apr 2012 10:00:00 GMT", "2012-04-05T10:00:00Z"),
        ("Wed, 19 Aug 2009 18:28:00 Etc/GMT", "2009-08-19T18:28:00Z"),
        ("Wed, 19 Feb 2012 22:40:00 GMT-01:01", "2012-02-19T23:41:00Z"),
        ("Wed, 19 Feb 2012 22:40:00 -01:01", "2012-02-19T23:41:00Z"),
        ("Mon, 13 Feb, 2012 06:28:00 UTC", "2012-02-13T06:28:00Z"),
        ("Thu, 01 Jan 2004 00:00 GMT", "2004-01-01T00:00:00Z"),
        ("Thu, 01 Jan 2004", "2004-01-01T00:00:00Z"),
        ("01 Jan 2004", "2004-01-01T00:00:00Z"),
        ("Mon, 26 January 2004 16:31:00 AT", "2004-01-26T20:31:00Z"),
        ("Mon, 26 January 2004 16:31:00 ET", "2004-01-26T21:31:00Z"),
        ("Mon, 26 January 2004 16:31:00 CT", "2004-01-26T22:31:00Z"),
        ("Mon, 26 January 2004 16:31:00 MT", "2004-01-26T23:31:00Z"),
        ("Mon, 26 January 2004 16:31:00 PT", "2004-01-27T00:31:00Z"),
        ("Mon, 26 January 2004 16:31:00 EST", "2004-01-26T21:31:00Z"),
        ("Thu Aug 30 2012 17:26:16 +0200", "2012-08-30T15:26:16Z"),
        // Zones: UT, Z, military letters, Etc/, unknown words (UTC, as feedparser).
        ("Thu, 01 Jan 2004 19:48:21 UT", "2004-01-01T19:48:21Z"),
        ("Thu, 01 Jan 2004 19:48:21 Z", "2004-01-01T19:48:21Z"),
        ("Thu, 01 Jan 2004 19:48:21 A", "2004-01-01T20:48:21Z"),
        ("Thu, 01 Jan 2004 19:48:21 M", "2004-01-02T07:48:21Z"),
        ("Thu, 01 Jan 2004 19:48:21 N", "2004-01-01T18:48:21Z"),
        ("Thu, 01 Jan 2004 19:48:21 Y", "2004-01-01T07:48:21Z"),
        ("Thu, 01 Jan 2004 19:48:21 Etc/UTC", "2004-01-01T19:48:21Z"),
        ("Thu, 01 Jan 2004 19:48:21 Etc/GMT+5", "2004-01-02T00:48:21Z"),
        ("Thu, 01 Jan 2004 19:48:21 Etc/GMT-10", "2004-01-01T09:48:21Z"),
        ("Thu, 01 Jan 2004 19:48:21 XYZ", "2004-01-01T19:48:21Z"),
        ("Thu, 01 Jan 2004 19:48:21 foo", "2004-01-01T19:48:21Z"),
        ("2003-12-31T10:14:55 UT", "2003-12-31T10:14:55Z"),
        // RFC 850 and asctime
        ("Sunday, 06-Nov-94 08:49:37 GMT", "1994-11-06T08:49:37Z"),
        ("Sun Nov  6 08:49:37 1994", "1994-11-06T08:49:37Z"),
        ("Sun Jan  4 16:29:06 2004", "2004-01-04T16:29:06Z"),
        ("Sun Jul 15 01:16:00 +0000 2012", "2012-07-15T01:16:00Z"),
        ("Sun Jan  4 16:29:06 PST 2004", "2004-01-05T00:29:06Z"),
        // Perforce
        ("Fri, 2006/09/15 08:19:53 EDT", "2006-09-15T12:19:53Z"),
        // Greek, Hungarian
        ("Κυρ, 11 Ιούλ 2004 12:00:00 EST", "2004-07-11T17:00:00Z"),
        ("Σαβ, 03 Ιαν 2004 08:00:00 GMT", "2004-01-03T08:00:00Z"),
        ("2004-július-13T9:15-05:00", "2004-07-13T14:15:00Z"),
        ("2004-december-1T19:15+01:00", "2004-12-01T18:15:00Z"),
        ("2004-szeptember-30T23:59+00:00", "2004-09-30T23:59:00Z"),
        // Korean: OnBlog and Nate, Korea's time (+09:00) when no zone is given.
        ("2004년 05월 28일  01:31:15", "2004-05-27T16:31:15Z"),
        ("2004-05-25 오후 11:23:17", "2004-05-25T14:23:17Z"),
        ("2004-05-25 오전 11:23:17", "2004-05-25T02:23:17Z"),
        // Where this reader reads the 12-hour clock and feedparser does not: feedparser
        // drops OnBlog's trailing `PM` (16:31:15Z), and fails on 오후 12 (noon).
        ("2004년 05월 28일  01:31:15 PM", "2004-05-28T04:31:15Z"),
        ("2004-05-25 오후 12:23:17", "2004-05-25T03:23:17Z"),
        // Dutch
        ("maandag 5 maart 2012 10:00", "2012-03-05T10:00:00Z"),
        ("di, 13 okt 2009 08:00:00 +0200", "2009-10-13T06:00:00Z"),
        ("Wo, 1 mei 2013", "2013-05-01T00:00:00Z"),
        ("zaterdag 17 augustus 2019 14:30:00 CEST", "2019-08-17T12:30:00Z"),
        ("17 mrt. 2020", "2020-03-17T00:00:00Z")
    ]
}
