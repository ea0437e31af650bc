/// The reduced and truncated ISO 8601:1988 dates old feeds (CDF, RSS 1.0 by way of
/// W3C-DTF) use, as feedparser's ISO 8601 templates read them, each optionally
/// followed by `T` (or spaces) and a time and zone:
///
/// | Text | Form | Reads as |
/// | --- | --- | --- |
/// | `2003` | `YYYY` | 1 January |
/// | `2003-12` | `YYYY-MM` (W3C-DTF) | 1 December |
/// | `2003-335` | `YYYY-DDD`, the day of the year | 1 December |
/// | `2003-012-31` | `YYYY-0MM-DD`, an extra zero Google wrote | 31 December |
/// | `20031231` | `YYYYMMDD` | |
/// | `2003335` | `YYYYDDD`, the day of the year | 1 December |
/// | `031231`, `03-12-31` | `YYMMDD`, `YY-MM-DD` | 31 December 2003 |
/// | `03335`, `03-335` | `YYDDD`, `YY-DDD` | 1 December 2003 |
/// | `-0312`, `-03-12` | `-YYMM`, `-YY-MM` | 1 December 2003 |
/// | `-03-12-31` | `-YY-MM-DD` | 31 December 2003 |
///
/// A two-digit year is in 2000–2099: feedparser takes it in the current century,
/// which is that century until 2100, and a fixed one keeps the reading of a text
/// the same whenever it is read. The forms that name no year (`--12-31`, `--12`,
/// `---31`, `-335`), no month (`-03`) or only a century (`20`) are not read:
/// feedparser fills them in from the clock, so they name no one instant.
extension FeedDateParser {
    /// Whether the text at `start` has the shape of a reduced ISO date: a run of five
    /// to eight digits; four digits alone or before `T`; or `YY-MM-DD`, `YY-DDD`.
    static func isReducedISODate(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Bool {
        let run = digitRun(bytes, start, end)
        let after = start + run
        switch run {
        case 5...8:
            return true
        case 4:
            return after == end || bytes[after] == UInt8(ascii: "T") || bytes[after] == UInt8(ascii: "t")
        case 2:
            guard after < end, bytes[after] == UInt8(ascii: "-") else { return false }
            let second = digitRun(bytes, after + 1, end)
            let next = after + 1 + second
            if second == 3 { return next == end || !isDigit(bytes[next]) && bytes[next] != UInt8(ascii: "-") }
            guard second == 2, next < end, bytes[next] == UInt8(ascii: "-") else { return false }
            let third = digitRun(bytes, next + 1, end)
            return third == 2 && (next + 3 == end || !isDigit(bytes[next + 3]))
        default:
            return false
        }
    }

    /// How many digits (at most nine) start at `start`.
    static func digitRun(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Int {
        var run = 0
        while start + run < end, run < 9, isDigit(bytes[start + run]) { run += 1 }
        return run
    }
}

extension FeedDateParser.Scanner {
    /// A reduced or truncated ISO 8601 date at the scanner (see the table above),
    /// then an optional time and zone.
    mutating func reducedISO() -> FeedDate? {
        if skip(UInt8(ascii: "-")) {
            // -YYMM, -YY-MM, -YY-MM-DD
            guard let yy = digits(2) else { return nil }
            let dashed = skip(UInt8(ascii: "-"))
            guard let mm = digits(2) else { return nil }
            year = 2000 + yy
            month = mm
            day = 1
            if dashed, current == UInt8(ascii: "-"), index + 1 < end, isDigit(bytes[index + 1]) {
                index += 1
                guard let dd = digits(2) else { return nil }
                day = dd
            }
            return timeAndZone()
        }
        switch FeedDateParser.digitRun(bytes, index, end) {
        case 2:
            guard let yy = digits(2), skip(UInt8(ascii: "-")) else { return nil }
            year = 2000 + yy
            if FeedDateParser.digitRun(bytes, index, end) == 3 {
                guard let ordinal = digits(3), setDayOfYear(ordinal) else { return nil }
            } else {
                guard let mm = digits(2), skip(UInt8(ascii: "-")), let dd = digits(2) else { return nil }
                month = mm
                day = dd
            }
        case 4:
            guard let yyyy = digits(4) else { return nil }
            year = yyyy
            month = 1
            day = 1
        case 5:
            guard let yy = digits(2), let ordinal = digits(3) else { return nil }
            year = 2000 + yy
            guard setDayOfYear(ordinal) else { return nil }
        case 6:
            guard let yy = digits(2), let mm = digits(2), let dd = digits(2) else { return nil }
            year = 2000 + yy
            month = mm
            day = dd
        case 7:
            guard let yyyy = digits(4), let ordinal = digits(3) else { return nil }
            year = yyyy
            guard setDayOfYear(ordinal) else { return nil }
        case 8:
            guard let yyyy = digits(4), let mm = digits(2), let dd = digits(2) else { return nil }
            year = yyyy
            month = mm
            day = dd
        default:
            return nil
        }
        return timeAndZone()
    }

    /// `YYYY-MM`, `YYYY-DDD` or `YYYY-0MM-DD`, whose year and dash were read, and the
    /// number after the dash: a month with no day after it, or three digits.
    mutating func isoWithoutDay(month number: (value: Int, digits: Int)) -> FeedDate? {
        if number.digits < 3 {
            month = number.value
            day = 1
        } else if bytes[index - 3] == UInt8(ascii: "0"), skip(UInt8(ascii: "-")) {
            guard let d = self.number(maxDigits: 2) else { return nil }
            month = number.value
            day = d.value
        } else {
            guard setDayOfYear(number.value) else { return nil }
        }
        return timeAndZone()
    }

    /// Exactly `count` digits at the scanner, read past; `nil` if there are fewer.
    mutating func digits(_ count: Int) -> Int? {
        guard index + count <= end else { return nil }
        var value = 0
        for position in index..<(index + count) {
            guard isDigit(bytes[position]) else { return nil }
            value = value * 10 + Int(bytes[position] &- 48)
        }
        index += count
        return value
    }

    /// Sets the month and day from the day of the year (`335` of 2003 is 1 December);
    /// false if the year has no such day. The year must be set.
    mutating func setDayOfYear(_ ordinal: Int) -> Bool {
        guard let year else { return false }
        var remaining = ordinal
        for candidate in 1...12 {
            let length = CivilCalendar.daysInMonth(year: year, month: candidate)
            if remaining >= 1, remaining <= length {
                month = candidate
                day = remaining
                return true
            }
            remaining -= length
        }
        return false
    }
}
