/// The date rule of the property list outputs: a text value that is exactly an
/// ISO 8601 calendar date, `YYYY-MM-DD`, or a UTC date and time,
/// `YYYY-MM-DDTHH:MM:SSZ`, becomes a plist date (a date alone means midnight UTC).
///
/// Nothing else does — no other offsets, no fractions of a second, no week dates —
/// so every date written is exactly the instant the text names, and Apple's
/// `<date>` form (`YYYY-MM-DDTHH:MM:SSZ`, UTC, whole seconds) carries it without
/// loss. The date must exist: month 01–12, a day the month has (29 February only in
/// leap years), hour 00–23, minute and second 00–59, year 0001–9999.
public struct PlistDate: Equatable, Hashable, Sendable {
    /// Seconds since 2001-01-01T00:00:00Z (Core Foundation's reference date).
    public let secondsSinceReferenceDate: Int64

    /// The date as Apple's XML plist writes it: `1961-04-05T00:00:00Z`.
    public let text: String

    /// The date `text` names, or nil when it does not follow the rule.
    public init?(iso8601 text: String) {
        var text = text
        guard let parsed = text.withUTF8({ Self.parse($0) }) else { return nil }
        secondsSinceReferenceDate = parsed.seconds
        self.text = parsed.full ? text : text + "T00:00:00Z"
    }

    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> (seconds: Int64, full: Bool)? {
        guard bytes.count == 10 || bytes.count == 20 else { return nil }
        func digits(_ start: Int, _ count: Int) -> Int? {
            var value = 0
            for index in start..<start + count {
                let digit = bytes[index] &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                value = value * 10 + Int(digit)
            }
            return value
        }
        guard bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            let year = digits(0, 4), let month = digits(5, 2), let day = digits(8, 2),
            year >= 1, (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year)
        else { return nil }
        var seconds = 0
        if bytes.count == 20 {
            guard bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
                bytes[19] == UInt8(ascii: "Z"),
                let hour = digits(11, 2), let minute = digits(14, 2), let second = digits(17, 2),
                hour < 24, minute < 60, second < 60
            else { return nil }
            seconds = hour * 3600 + minute * 60 + second
        }
        let days = daysSince1970(year: year, month: month, day: day)
        return (Int64(days) * 86_400 + Int64(seconds) - 978_307_200, bytes.count == 20)
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 in the proleptic Gregorian calendar (H. Hinnant's algorithm).
    private static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
