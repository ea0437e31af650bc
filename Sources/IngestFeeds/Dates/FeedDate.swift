import Foundation

/// An instant read from a feed's date text, kept exactly: whole seconds since 1970,
/// nanoseconds, and the UTC offset the text gave.
///
/// `Date` is a `Double` and cannot hold `07:20:50.52` exactly; this can, so that
/// ``rfc3339`` writes back what the feed said. ``init(parsing:)`` reads the
/// many forms feeds use (see ``FeedDateParser``):
///
/// ```swift
/// let date = FeedDate(parsing: "Fri, Jun 26 2026 10:04:03 AM EDT")
/// date?.rfc3339   // "2026-06-26T14:04:03Z"
/// date?.date      // a Foundation Date
/// ```
public struct FeedDate: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Whole seconds since 1970-01-01T00:00:00Z (negative before).
    public var secondsSince1970: Int64
    /// Nanoseconds past ``secondsSince1970``, 0 through 999 999 999.
    public var nanoseconds: Int32
    /// The offset from UTC the text gave, in seconds east of Greenwich (`-0500` is
    /// -18 000); `nil` when the text named no zone, in which case UTC was assumed.
    public var utcOffset: Int?

    /// A date from its parts.
    public init(secondsSince1970: Int64, nanoseconds: Int32 = 0, utcOffset: Int? = nil) {
        self.secondsSince1970 = secondsSince1970
        self.nanoseconds = nanoseconds
        self.utcOffset = utcOffset
    }

    /// A date from a Foundation `Date` (to the nearest microsecond a `Double` holds).
    public init(_ date: Date) {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        secondsSince1970 = Int64(seconds)
        nanoseconds = Int32(min(999_999_999, max(0, ((date.timeIntervalSince1970 - seconds) * 1e6).rounded() * 1000)))
        utcOffset = 0
    }

    /// Reads `text` with ``FeedDateParser``; `nil` when it is not a date it knows.
    public init?(parsing text: some StringProtocol) {
        guard let date = FeedDateParser.parse(text) else { return nil }
        self = date
    }

    /// The instant as a Foundation `Date`.
    public var date: Date {
        Date(timeIntervalSince1970: TimeInterval(secondsSince1970) + TimeInterval(nanoseconds) / 1e9)
    }

    /// RFC 3339 in UTC, with as many fraction digits as needed and no more — the
    /// form gofeed's JSON (Go's `time.RFC3339Nano`) writes: `2019-10-12T07:20:50.52Z`.
    public var rfc3339: String {
        let days = Int64.floorDivide(secondsSince1970, 86_400)
        let secondOfDay = Int(secondsSince1970 - days * 86_400)
        let (year, month, day) = CivilCalendar.civil(fromDays: days)
        var text = ""
        text.reserveCapacity(30)
        if year < 0 { text += "-" }
        Self.append(Int(abs(year)), width: 4, to: &text)
        text += "-"
        Self.append(month, width: 2, to: &text)
        text += "-"
        Self.append(day, width: 2, to: &text)
        text += "T"
        Self.append(secondOfDay / 3600, width: 2, to: &text)
        text += ":"
        Self.append(secondOfDay / 60 % 60, width: 2, to: &text)
        text += ":"
        Self.append(secondOfDay % 60, width: 2, to: &text)
        if nanoseconds > 0 {
            var fraction = Int(nanoseconds), digits = 9
            while fraction % 10 == 0 {
                fraction /= 10
                digits -= 1
            }
            text += "."
            Self.append(fraction, width: digits, to: &text)
        }
        text += "Z"
        return text
    }

    /// ``rfc3339``.
    public var description: String { rfc3339 }

    /// Earlier instants first.
    public static func < (lhs: FeedDate, rhs: FeedDate) -> Bool {
        (lhs.secondsSince1970, lhs.nanoseconds) < (rhs.secondsSince1970, rhs.nanoseconds)
    }

    /// Equal when they are the same instant, whatever offset each was written in.
    public static func == (lhs: FeedDate, rhs: FeedDate) -> Bool {
        lhs.secondsSince1970 == rhs.secondsSince1970 && lhs.nanoseconds == rhs.nanoseconds
    }

    /// Hashes the instant, as ``==(_:_:)`` compares it.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(secondsSince1970)
        hasher.combine(nanoseconds)
    }

    private static func append(_ value: Int, width: Int, to text: inout String) {
        let digits = String(value)
        if digits.count < width { text += String(repeating: "0", count: width - digits.count) }
        text += digits
    }
}

extension FeedDate: Codable {
    /// Decodes RFC 3339 text (or any form ``FeedDateParser`` reads).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let date = FeedDateParser.parse(text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a date: \(text)")
        }
        self = date
    }

    /// Encodes ``rfc3339``.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rfc3339)
    }
}

extension Int64 {
    /// Division rounding toward negative infinity.
    static func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
        let quotient = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? quotient - 1 : quotient
    }
}

/// Proleptic Gregorian calendar arithmetic on day numbers (days since 1970-01-01),
/// after Howard Hinnant's `days_from_civil`: no `Calendar`, no locale, no time zone
/// database.
enum CivilCalendar {
    static func days(year: Int, month: Int, day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let m = Int64(month)
        let dayOfYear = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(day) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func civil(fromDays days: Int64) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (Int(year), Int(month), Int(day))
    }

    static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
