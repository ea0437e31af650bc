/// The words ``FeedDateParser`` knows: English month and weekday names (any case,
/// abbreviated or not), the Greek, Hungarian, Dutch and Korean ones of
/// ``FeedDateWords/otherMonthNames``, AM/PM, filler (`at`, `of`, `the`, `on`) and
/// zone names.
///
/// A word is looked up by its bytes packed into an integer (ASCII letters lowercased,
/// dots dropped, at most eight bytes of UTF-8): no `String` is made for the words of
/// a date.
enum FeedDateWords {
    /// The first eight lowercased letters of `word` packed into a `UInt64`, first
    /// letter lowest, and how many letters the word has.
    static func code(_ word: UnsafeBufferPointer<UInt8>) -> (code: UInt64, count: Int)? {
        var code: UInt64 = 0, count = 0
        for byte in word where byte != UInt8(ascii: ".") {
            if count < 8 { code |= UInt64(lower(byte)) << (8 * UInt64(count)) }
            count += 1
        }
        return count > 0 ? (code, count) : nil
    }

    static func code(_ text: String) -> UInt64 {
        var code: UInt64 = 0
        for (index, byte) in text.utf8.prefix(8).enumerated() { code |= UInt64(byte) << (8 * UInt64(index)) }
        return code
    }

    private static let monthNames = [
        "january", "february", "march", "april", "may", "june", "july",
        "august", "september", "october", "november", "december"
    ]

    /// Every prefix of three letters or more of a month's name (and `sept`), up to
    /// eight letters, with its month.
    private static let months: [UInt64: Int] = {
        var table: [UInt64: Int] = [code("sept"): 9]
        for (index, name) in monthNames.enumerated() {
            for length in 3...min(8, name.count) { table[code(String(name.prefix(length)))] = index + 1 }
        }
        for (name, month) in otherMonthNames { table[code(name)] = month }
        return table
    }()

    private static let weekdays: Set<UInt64> = {
        var table: Set<UInt64> = Set((["tues", "thur", "thurs", "weds"] + otherWeekdayNames).map(code))
        for name in ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"] {
            for length in 3...name.count { table.insert(code(String(name.prefix(length)))) }
        }
        return table
    }()

    private static let fillers: Set<UInt64> = Set(["at", "of", "the", "on", "t"].map(code))

    /// Zone abbreviations feeds use, in seconds east of UTC. Where an abbreviation
    /// is ambiguous the reading common in feeds wins: `IST` is India (+05:30),
    /// `BST` British Summer Time. Single letters are RFC 822's military zones with
    /// that RFC's signs (`A` -1 hour … `M` -12, `N` +1 … `Y` +12), as feedparser
    /// reads them; RFC 2822 since advises treating them as unknown.
    private static let zones: [UInt64: Int] = {
        var table: [String: Int] = [
            "ut": 0, "utc": 0, "gmt": 0, "z": 0, "wet": 0, "zulu": 0,
            "est": -5, "edt": -4, "cst": -6, "cdt": -5, "mst": -7, "mdt": -6, "pst": -8, "pdt": -7,
            "et": -5, "ct": -6, "mt": -7, "pt": -8,
            "ast": -4, "adt": -3, "at": -4, "akst": -9, "akdt": -8, "hst": -10, "hdt": -9,
            "bst": 1, "west": 1, "cet": 1, "cest": 2, "met": 1, "mest": 2, "wat": 1,
            "eet": 2, "eest": 3, "cat": 2, "sast": 2, "msk": 3, "eat": 3,
            "pkt": 5, "ict": 7, "wib": 7, "hkt": 8, "sgt": 8, "pht": 8, "awst": 8,
            "jst": 9, "kst": 9, "aest": 10, "aedt": 11, "nzst": 12, "nzdt": 13
        ].mapValues { $0 * 3600 }
        table["ist"] = 5 * 3600 + 1800
        table["nst"] = -(3 * 3600 + 1800)
        table["ndt"] = -(2 * 3600 + 1800)
        table["acst"] = 9 * 3600 + 1800
        table["acdt"] = 10 * 3600 + 1800
        for (index, letter) in "abcdefghi".enumerated() { table[String(letter)] = -(index + 1) * 3600 }
        for (index, letter) in "klm".enumerated() { table[String(letter)] = -(index + 10) * 3600 }
        for (index, letter) in "nopqrstuvwxy".enumerated() { table[String(letter)] = (index + 1) * 3600 }
        return Dictionary(uniqueKeysWithValues: table.map { (code($0.key), $0.value) })
    }()

    /// Every word above with all it means, for one lookup per word.
    private static let table: WordCodeTable = {
        var entries: [UInt64: WordMeaning] = [:]
        for (code, month) in months { entries[code, default: WordMeaning()].month = Int8(month) }
        for code in weekdays { entries[code, default: WordMeaning()].isWeekday = true }
        for code in fillers { entries[code, default: WordMeaning()].isFiller = true }
        for (code, zone) in zones { entries[code, default: WordMeaning()].zone = Int32(zone) }
        for (word, value) in [("am", 1), ("pm", 2), ("오전", 1), ("오후", 2)] as [(String, UInt8)] {
            entries[code(word), default: WordMeaning()].meridiem = value
            entries[code(word), default: WordMeaning()].isKorean = (word.utf8.first ?? 0) >= 0x80
        }
        return WordCodeTable(entries)
    }()

    /// What a word means, by its packed code; `nil` for a word this reader does not know.
    static func meaning(_ word: (code: UInt64, count: Int)) -> WordMeaning? {
        table.meaning(of: word.code)
    }

    /// `etc`, the area of the tz database's `Etc/GMT`.
    static let etcCode = code("etc")

    private static let etcUTCNames: Set<UInt64> = Set(["gmt", "utc", "uct", "zulu", "universal", "greenwich"].map(code))

    /// Whether the word after `Etc/` is one of the tz database's names for UTC.
    static func isEtcUTCName(_ word: (code: UInt64, count: Int)) -> Bool { etcUTCNames.contains(word.code) }
}
