/// One liberal reader for the dates feeds write, working on the bytes: no
/// `DateFormatter`, no locale, no regular expression, one pass.
///
/// It reads, among others:
/// - RFC 822 / 1123 / 2822: `Thu, 01 Jan 2004 19:48:21 GMT`, with or without the
///   weekday or the seconds, two-digit years (RFC 2822's rule: `06` is 2006, `99` is
///   1999), numeric zones (`+0200`, `-07:00`, `-7`), named zones (`UT`, `GMT`, `EST`,
///   `EDT`, `CST`, `CDT`, `MST`, `MDT`, `PST`, `PDT`, feedparser's `AT`, `ET`, `CT`,
///   `MT`, `PT`, `MET`, `MEST`, other common abbreviations, the tz database's
///   `Etc/GMT`, `Etc/UTC`, `Etc/GMT+5`) and the military letters (RFC 822's own
///   signs: `A` is -1 hour, `N` is +1, `Z` is UTC); RFC 850's `Sunday, 06-Nov-94`;
/// - ISO 8601 / RFC 3339: `2003-12-13T18:30:02Z`, `2003-12-13T18:30:02.25+01:00`,
///   without a zone, fraction or seconds, with a space instead of `T`
///   (`2004-07-08 23:56:58`), or a date alone (`2019-08-27`); W3C-DTF's partial
///   dates (`2003`, `2003-12`), ordinal dates (`2003-335`, `2003335`) and the
///   reduced forms of ISO 8601:1988 (`031231`, `03-12-31`, `-0312`; see
///   `ReducedISODates.swift`);
/// - asctime and Unix `date`: `Mon Jan  2 15:04:05 2006`, `Mon Jan 2 15:04:05 MST 2006`;
/// - AM/PM and prose forms: `Fri, Jun 26 2026 10:04:03 AM`, `January 2, 2006 3:04 p.m.`,
///   `30 Jan 2018`, `Monday, 2 January 2006`, `2.1.2006 15:04`, `02/01/2006`;
/// - month and weekday names in Greek (`Κυρ, 11 Ιούλ 2004 12:00:00 EST`), Hungarian
///   (`2004-július-13T9:15-05:00`) and Dutch (`di, 13 okt 2009`), and Korean dates
///   (`2004년 05월 28일 01:31:15`, `2004-05-25 오후 11:23:17`), which are in Korea's
///   time (+09:00) unless they name a zone;
/// - `GMT-0700 (Pacific Daylight Time)`-style zones, surrounding white space and a
///   stray `<![CDATA[…]]>` wrapper.
///
/// A time without a zone is taken as UTC (``FeedDate/utcOffset`` is then `nil`), as
/// is one whose zone word this reader does not know (`… 19:48:21 XYZ`), as feedparser
/// does. In all-numeric dates with `/` or `.` the day comes first (`02/01/2006` is
/// 2 January), as gofeed reads them, unless that is impossible (`01/13/2006`);
/// dashes between three two-digit numbers are ISO's year, month, day. Anything else
/// — an invalid day, a number too big for its field, an unknown word before the
/// time, no year — gives `nil`: the caller keeps the raw text, and nothing fails.
/// Text longer than 200 bytes (after trimming) is not a date and is refused at once.
public enum FeedDateParser {
    /// Parses `text`; `nil` if it is not a date this reader knows.
    public static func parse(_ text: some StringProtocol) -> FeedDate? {
        var text = String(text)
        return text.withUTF8 { parse(bytes: $0) }
    }

    /// Parses UTF-8 `bytes`; `nil` if they are not a date this reader knows.
    public static func parse(bytes: UnsafeBufferPointer<UInt8>) -> FeedDate? {
        var start = 0, end = bytes.count
        trim(bytes, &start, &end)
        if end - start > 12, matches(bytes, start, "<![CDATA["), matches(bytes, end - 3, "]]>") {
            start += 9
            end -= 3
            trim(bytes, &start, &end)
        }
        guard end - start >= 4, end - start <= 200 else { return nil }
        var scanner = Scanner(bytes: bytes, index: start, end: end)
        if isDigit(bytes[start]) {
            if end - start >= 6, isISODate(bytes, start) { return scanner.iso() }
            if isReducedISODate(bytes, start, end) {
                if let date = scanner.reducedISO() { return date }
                // `06-11-94` is no ISO date (there is no 94th day): read it again as
                // day, month, year.
                scanner = Scanner(bytes: bytes, index: start, end: end)
            }
        } else if bytes[start] == UInt8(ascii: "-") {
            return scanner.reducedISO()
        }
        return scanner.general()
    }

    // MARK: - Scanning

    struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        var index: Int
        let end: Int

        var year: Int?, month: Int?, day: Int?
        var hour: Int?, minute = 0, second = 0, nanos = 0
        var offset: Int?
        var meridiem: UInt8 = 0  // 0 none, 1 AM, 2 PM
        var twoDigitYear = false
        /// A zone word this reader does not know was read (the time is then UTC).
        var unknownZone = false
        /// A Korean word was read: without a zone, the time is Korea's (+09:00).
        var korean = false

        init(bytes: UnsafeBufferPointer<UInt8>, index: Int, end: Int) {
            self.bytes = bytes
            self.index = index
            self.end = end
        }

        var current: UInt8 { index < end ? bytes[index] : 0 }

        mutating func number(maxDigits: Int = 9) -> (value: Int, digits: Int)? {
            var value = 0, digits = 0
            while index < end, digits < maxDigits, isDigit(bytes[index]) {
                value = value * 10 + Int(bytes[index] &- 48)
                digits += 1
                index += 1
            }
            return digits > 0 ? (value, digits) : nil
        }

        mutating func skip(_ byte: UInt8) -> Bool {
            guard current == byte else { return false }
            index += 1
            return true
        }

        mutating func skipSpaces() {
            while index < end, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }
        }

        // MARK: ISO 8601

        /// `YYYY-MM-DD[(T| |" at ")hh:mm[:ss[.fff]]][zone]`, and W3C-DTF's `YYYY-MM`,
        /// ISO 8601's ordinal `YYYY-DDD` and Google's `YYYY-0MM-DD`.
        mutating func iso() -> FeedDate? {
            guard let y = number(maxDigits: 4), y.digits == 4, skip(UInt8(ascii: "-")) || skip(UInt8(ascii: "/")),
                let m = number(maxDigits: 3)
            else { return nil }
            year = y.value
            guard m.digits < 3, skip(UInt8(ascii: "-")) || skip(UInt8(ascii: "/")) else {
                return isoWithoutDay(month: m)
            }
            guard let d = number(maxDigits: 2) else { return nil }
            month = m.value
            day = d.value
            return timeAndZone()
        }

        /// After an ISO date: the end, or a time (after `T`, spaces or " at ") and a zone.
        mutating func timeAndZone() -> FeedDate? {
            if index == end { return build() }
            if current == UInt8(ascii: "T") || current == UInt8(ascii: "t") {
                index += 1
            } else if current == 0x20 {
                skipSpaces()
                if index + 2 < end, lower(bytes[index]) == UInt8(ascii: "a"),
                    lower(bytes[index + 1]) == UInt8(ascii: "t"), bytes[index + 2] == 0x20
                {
                    index += 2
                    skipSpaces()
                } else if current >= 0x80 {
                    // Korean `오후 11:23:17`: the meridiem before the time.
                    guard word(afterTime: false), meridiem != 0 else { return nil }
                    skipSpaces()
                }
            } else {
                return nil
            }
            guard isDigit(current), time() else { return nil }
            return rest()
        }

        // MARK: Time of day

        /// `hh:mm[:ss[.fraction]]` at the scanner, the hour not yet read.
        mutating func time() -> Bool {
            guard let h = number(maxDigits: 2), skip(UInt8(ascii: ":")) else { return false }
            return time(hour: h.value)
        }

        /// The rest of a time whose hour and colon were read.
        mutating func time(hour h: Int) -> Bool {
            guard let m = number(maxDigits: 2) else { return false }
            hour = h
            minute = m.value
            if skip(UInt8(ascii: ":")) {
                guard let s = number(maxDigits: 2) else { return false }
                second = s.value
                if current == UInt8(ascii: "."), index + 1 < end, isDigit(bytes[index + 1]) {
                    index += 1
                    var digits = 0, value = 0
                    while index < end, isDigit(bytes[index]) {
                        if digits < 9 {
                            value = value * 10 + Int(bytes[index] &- 48)
                            digits += 1
                        }
                        index += 1
                    }
                    while digits < 9 {
                        value *= 10
                        digits += 1
                    }
                    nanos = value
                }
            }
            return true
        }

        /// A numeric offset at a `+` or `-`: `hh`, `hhmm`, `hh:mm`, `h`, `hmm`.
        mutating func numericOffset() -> Int? {
            let negative = current == UInt8(ascii: "-")
            index += 1
            while current == UInt8(ascii: "-") || current == UInt8(ascii: "+") { index += 1 }  // "--0700"
            guard let first = number(maxDigits: 4) else { return nil }
            var hours: Int, minutes = 0
            switch first.digits {
            case 1, 2:
                hours = first.value
                if skip(UInt8(ascii: ":")) {
                    guard let m = number(maxDigits: 2) else { return nil }
                    minutes = m.value
                    if skip(UInt8(ascii: ":")) { _ = number(maxDigits: 2) }  // seconds of offset
                }
            case 3:
                hours = first.value / 100
                minutes = first.value % 100
            default:
                hours = first.value / 100
                minutes = first.value % 100
            }
            guard hours <= 18, minutes < 60 else { return nil }
            let seconds = hours * 3600 + minutes * 60
            return negative ? -seconds : seconds
        }

        // MARK: After the time

        /// Zones, AM/PM, a late year, parentheses: what may follow an ISO time.
        mutating func rest() -> FeedDate? {
            while index < end {
                let byte = bytes[index]
                if byte == 0x20 || byte == 0x09 || byte == UInt8(ascii: ",") {
                    index += 1
                } else if byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") {
                    guard let value = numericOffset() else { return nil }
                    offset = value
                } else if byte == UInt8(ascii: "(") {
                    skipParenthesis()
                } else if isLetter(byte) {
                    guard word(afterTime: true) else { return nil }
                } else if isDigit(byte), year == nil, let y = number(maxDigits: 4), y.digits == 4 {
                    year = y.value
                } else {
                    return nil
                }
            }
            return build()
        }

        mutating func skipParenthesis() {
            while index < end, bytes[index] != UInt8(ascii: ")") { index += 1 }
            if index < end { index += 1 }
        }

        /// A word at the scanner: a month, a weekday, AM/PM, a zone, or filler.
        /// False for a word this reader does not know.
        mutating func word(afterTime: Bool) -> Bool {
            let start = index
            while index < end, isWordByte(at: index) { index += 1 }
            let word = UnsafeBufferPointer(rebasing: bytes[start..<index])
            guard let code = FeedDateWords.code(word) else { return false }
            if let meaning = FeedDateWords.meaning(code) {
                if meaning.month != 0 {
                    month = Int(meaning.month)
                    return true
                }
                if meaning.isWeekday { return true }
                if meaning.meridiem != 0 {
                    meridiem = meaning.meridiem
                    if meaning.isKorean { korean = true }
                    return true
                }
                // `at` is filler before the time (`2 January 2006 at 3:04 PM`) and
                // Atlantic time after it, as feedparser reads `16:31:00 AT`.
                if let zone = meaning.zone, afterTime && hour != nil || !meaning.isFiller {
                    return named(zone: Int(zone))
                }
                if meaning.isFiller { return true }
            }
            if code.code == FeedDateWords.etcCode, current == UInt8(ascii: "/") { return etcZone() }
            // An unknown zone word after the time (`… 15:04:05 XYZ`): feedparser and
            // gofeed take the time as UTC. One such word only, and only where no zone
            // was given, so that trailing prose is not taken for a zone.
            if afterTime, hour != nil, offset == nil, !unknownZone, word.count <= 6, word.allSatisfy(isLetter) {
                unknownZone = true
                return true
            }
            return false
        }

        /// A named zone's offset, and the `+2` of `GMT+2`, `UTC-05:00`, `GMT-0700`
        /// after it: an offset from the named zone.
        mutating func named(zone: Int) -> Bool {
            offset = zone
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-"), index + 1 < end,
                isDigit(bytes[index + 1])
            {
                guard let more = numericOffset() else { return false }
                offset = zone + more
            }
            return true
        }

        /// The tz database's `Etc/` zones at the `/`: `Etc/GMT`, `Etc/UTC`, `Etc/UCT`,
        /// `Etc/Zulu`, `Etc/Universal`, `Etc/Greenwich`, and `Etc/GMT+5`, whose sign is
        /// POSIX's, the reverse of ISO 8601's: `Etc/GMT+5` is five hours west (-05:00).
        mutating func etcZone() -> Bool {
            index += 1
            let start = index
            while index < end, isLetter(bytes[index]) { index += 1 }
            guard let name = FeedDateWords.code(UnsafeBufferPointer(rebasing: bytes[start..<index])),
                FeedDateWords.isEtcUTCName(name)
            else { return false }
            offset = 0
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") {
                guard index + 1 < end, isDigit(bytes[index + 1]), let hours = numericOffset(), hours % 3600 == 0,
                    abs(hours) <= 14 * 3600
                else { return false }
                offset = -hours
            }
            return true
        }

        /// Whether the byte at `position` is part of a word: an ASCII letter, a dot
        /// (`a.m.`), or part of a non-ASCII letter's UTF-8 (not a no-break space).
        func isWordByte(at position: Int) -> Bool {
            let byte = bytes[position]
            if isLetter(byte) || byte == UInt8(ascii: ".") { return true }
            return byte >= 0x80 && !isNoBreakSpace(at: position)
        }

        /// A no-break space (UTF-8 `C2 A0`) at `position`, which separates words.
        func isNoBreakSpace(at position: Int) -> Bool {
            bytes[position] == 0xC2 && position + 1 < end && bytes[position + 1] == 0xA0
        }

        // MARK: Everything else

        /// RFC 822, asctime, prose and numeric forms, in one left-to-right pass.
        mutating func general() -> FeedDate? {
            while index < end {
                let byte = bytes[index]
                if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == UInt8(ascii: ",") {
                    index += 1
                } else if isWordByte(at: index) {
                    guard word(afterTime: hour != nil) else { return nil }
                } else if isNoBreakSpace(at: index) {
                    index += 2
                } else if byte == UInt8(ascii: "(") {
                    skipParenthesis()
                } else if byte == UInt8(ascii: "-"), hour == nil {
                    // RFC 850's `06-Nov-94`, Hungarian `2004-július-13`: a dash beside a month name.
                    guard index + 1 < end, isWordByte(at: index + 1) || month != nil && isDigit(bytes[index + 1])
                    else { return nil }
                    index += 1
                } else if byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") {
                    guard hour != nil, index + 1 < end,
                        isDigit(bytes[index + 1]) || bytes[index + 1] == UInt8(ascii: "-"),
                        let value = numericOffset()
                    else { return nil }
                    offset = value
                } else if isDigit(byte) {
                    guard numberToken() else { return nil }
                } else {
                    return nil
                }
            }
            return build()
        }

        /// A number in the general pass: a time, a numeric date, a day or a year.
        mutating func numberToken() -> Bool {
            guard let n = number() else { return false }
            let next = current
            if next >= 0x80, let field = koreanDateField() {
                // OnBlog's `2004년 05월 28일`: each number marked year, month or day.
                korean = true
                switch field {
                case .year where year == nil && n.digits == 4: year = n.value
                case .month where month == nil && n.digits <= 2: month = n.value
                case .day where day == nil && n.digits <= 2: day = n.value
                default: return false
                }
                return true
            }
            if next == UInt8(ascii: ":") {
                guard hour == nil, n.digits <= 2 else { return false }
                index += 1
                guard time(hour: n.value) else { return false }
                // "03:04:05PM": the meridiem may follow without a space.
                return true
            }
            if (next == UInt8(ascii: "/") || next == UInt8(ascii: ".") || next == UInt8(ascii: "-")),
                index + 1 < end, isDigit(bytes[index + 1]), day == nil, month == nil
            {
                return numericDate(first: n, separator: next)
            }
            if lower(next) == UInt8(ascii: "s") || lower(next) == UInt8(ascii: "n") || lower(next) == UInt8(ascii: "r")
                || lower(next) == UInt8(ascii: "t")
            {
                // 1st, 2nd, 3rd, 4th
                if let suffixEnd = ordinalSuffixEnd() { index = suffixEnd }
            }
            if n.digits >= 3 {
                guard year == nil, n.digits == 4 else { return false }
                year = n.value
            } else if day == nil {
                day = n.value
            } else if year == nil {
                year = n.value
                twoDigitYear = true
            } else {
                return false
            }
            return true
        }

        func ordinalSuffixEnd() -> Int? {
            guard index + 1 < end else { return nil }
            let pair = (lower(bytes[index]), lower(bytes[index + 1]))
            let known =
                pair == (UInt8(ascii: "s"), UInt8(ascii: "t")) || pair == (UInt8(ascii: "n"), UInt8(ascii: "d"))
                || pair == (UInt8(ascii: "r"), UInt8(ascii: "d")) || pair == (UInt8(ascii: "t"), UInt8(ascii: "h"))
            guard known, index + 2 == end || !isLetter(bytes[index + 2]) else { return nil }
            return index + 2
        }

        /// `d/m/y`, `m/d/y` (when the day cannot be first), `y/m/d`, with `/`, `.` or `-`.
        mutating func numericDate(first: (value: Int, digits: Int), separator: UInt8) -> Bool {
            index += 1
            guard let second = number(maxDigits: 2) else { return false }
            guard skip(separator), let third = number(maxDigits: 4) else { return false }
            if first.digits == 4 {
                year = first.value
                month = second.value
                day = third.value
                return true
            }
            guard third.digits == 4 || third.digits == 2, first.digits <= 2 else { return false }
            year = third.value
            twoDigitYear = third.digits == 2
            if first.value > 12 || second.value <= 12 {
                day = first.value
                month = second.value
            } else {
                month = first.value
                day = second.value
            }
            return true
        }

        // MARK: The result

        func build() -> FeedDate? {
            guard var year, let month, let day else { return nil }
            if twoDigitYear { year += year < 50 ? 2000 : 1900 }
            guard (1...12).contains(month), day >= 1, day <= CivilCalendar.daysInMonth(year: year, month: month) else {
                return nil
            }
            var hour = self.hour ?? 0
            switch meridiem {
            case 1:
                guard hour >= 1, hour <= 12 else { return nil }
                if hour == 12 { hour = 0 }
            case 2:
                guard hour >= 1, hour <= 12 else { return nil }
                if hour < 12 { hour += 12 }
            default: break
            }
            guard hour <= 24, minute < 60, second <= 60 else { return nil }
            if hour == 24, minute != 0 || second != 0 { return nil }
            var offset = self.offset
            if korean, offset == nil, !unknownZone { offset = 9 * 3600 }
            let days = CivilCalendar.days(year: year, month: month, day: day)
            // A leap second (…:60) is read as the last second of its minute.
            var seconds = days * 86_400 + Int64(hour * 3600 + minute * 60 + min(second, 59))
            seconds -= Int64(offset ?? 0)
            return FeedDate(secondsSince1970: seconds, nanoseconds: Int32(nanos), utcOffset: offset)
        }
    }

    // MARK: - Bytes

    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0B || byte == 0x0C
    }

    static func trim(_ bytes: UnsafeBufferPointer<UInt8>, _ start: inout Int, _ end: inout Int) {
        while start < end, isSpace(bytes[start]) { start += 1 }
        while end > start, isSpace(bytes[end - 1]) { end -= 1 }
        // A non-breaking space (C2 A0) around the text, as HTML-minded feeds write.
        while end - start >= 2, bytes[start] == 0xC2, bytes[start + 1] == 0xA0 { start += 2 }
        while end - start >= 2, bytes[end - 2] == 0xC2, bytes[end - 1] == 0xA0 { end -= 2 }
    }

    static func matches(_ bytes: UnsafeBufferPointer<UInt8>, _ at: Int, _ literal: StaticString) -> Bool {
        guard at >= 0, at + literal.utf8CodeUnitCount <= bytes.count else { return false }
        for offset in 0..<literal.utf8CodeUnitCount where bytes[at + offset] != literal.utf8Start[offset] {
            return false
        }
        return true
    }

    /// `YYYY-` or `YYYY/` followed by a digit.
    static func isISODate(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int) -> Bool {
        isDigit(bytes[start + 1]) && isDigit(bytes[start + 2]) && isDigit(bytes[start + 3])
            && (bytes[start + 4] == UInt8(ascii: "-") || bytes[start + 4] == UInt8(ascii: "/"))
            && isDigit(bytes[start + 5])
    }
}
