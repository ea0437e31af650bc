/// The words ``FeedDateParser`` knows: English month and weekday names (any case,
/// abbreviated or not), AM/PM, filler (`at`, `of`, `the`, `on`) and zone names.
enum FeedDateWords {
    private static let months = ["january", "february", "march", "april", "may", "june", "july",
                                 "august", "september", "october", "november", "december"]
    private static let weekdays = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]

    /// Zone abbreviations feeds use, in seconds east of UTC. Where an abbreviation
    /// is ambiguous the reading common in feeds wins: `IST` is India (+05:30),
    /// `BST` British Summer Time. Single letters are RFC 822's military zones with
    /// that RFC's signs (`A` -1 hour … `M` -12, `N` +1 … `Y` +12), as feedparser
    /// reads them; RFC 2822 since advises treating them as unknown.
    private static let zones: [String: Int] = {
        var table: [String: Int] = [
            "ut": 0, "utc": 0, "gmt": 0, "z": 0, "wet": 0, "zulu": 0,
            "est": -5, "edt": -4, "cst": -6, "cdt": -5, "mst": -7, "mdt": -6, "pst": -8, "pdt": -7,
            "et": -5, "ct": -6, "mt": -7, "pt": -8,
            "ast": -4, "adt": -3, "akst": -9, "akdt": -8, "hst": -10, "hdt": -9,
            "bst": 1, "west": 1, "cet": 1, "cest": 2, "met": 1, "mest": 2, "wat": 1,
            "eet": 2, "eest": 3, "cat": 2, "sast": 2, "msk": 3, "eat": 3,
            "pkt": 5, "ict": 7, "wib": 7, "hkt": 8, "sgt": 8, "pht": 8, "awst": 8, "cst8": 8,
            "jst": 9, "kst": 9, "aest": 10, "aedt": 11, "nzst": 12, "nzdt": 13,
        ].mapValues { $0 * 3600 }
        table["ist"] = 5 * 3600 + 1800
        table["nst"] = -(3 * 3600 + 1800)
        table["ndt"] = -(2 * 3600 + 1800)
        table["acst"] = 9 * 3600 + 1800
        table["acdt"] = 10 * 3600 + 1800
        for (index, letter) in "abcdefghi".enumerated() { table[String(letter)] = -(index + 1) * 3600 }
        for (index, letter) in "klm".enumerated() { table[String(letter)] = -(index + 10) * 3600 }
        for (index, letter) in "nopqrstuvwxy".enumerated() { table[String(letter)] = (index + 1) * 3600 }
        return table
    }()

    /// The month 1–12 a word names: three letters or more of an English month name.
    static func month(_ word: UnsafeBufferPointer<UInt8>) -> Int? {
        let letters = lowercasedLetters(word)
        guard letters.count >= 3 else { return nil }
        if letters == "sept" { return 9 }
        for (index, name) in months.enumerated() where name.hasPrefix(letters) { return index + 1 }
        return nil
    }

    static func isWeekday(_ word: UnsafeBufferPointer<UInt8>) -> Bool {
        let letters = lowercasedLetters(word)
        guard letters.count >= 2 else { return false }
        if ["tues", "thur", "thurs", "weds"].contains(letters) { return true }
        return letters.count >= 3 && weekdays.contains { $0.hasPrefix(letters) }
    }

    static func isFiller(_ word: UnsafeBufferPointer<UInt8>) -> Bool {
        ["at", "of", "the", "on", "t"].contains(lowercasedLetters(word))
    }

    /// 1 for AM, 2 for PM (`am`, `a.m.`, `pm`, `p.m.`).
    static func meridiem(_ word: UnsafeBufferPointer<UInt8>) -> UInt8? {
        switch lowercasedLetters(word) {
        case "am": 1
        case "pm": 2
        default: nil
        }
    }

    static func zone(_ word: UnsafeBufferPointer<UInt8>) -> Int? {
        guard word.count <= 5 else { return nil }
        return zones[lowercasedLetters(word)]
    }

    /// The letters of `word`, lowercased, dots dropped (`p.m.` is `pm`). Words are
    /// short and few per date, and this runs once per word.
    private static func lowercasedLetters(_ word: UnsafeBufferPointer<UInt8>) -> String {
        var scalars = String.UnicodeScalarView()
        for byte in word where byte != UInt8(ascii: ".") {
            scalars.append(Unicode.Scalar(lower(byte)))
        }
        return String(scalars)
    }
}
