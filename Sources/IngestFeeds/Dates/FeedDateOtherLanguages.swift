/// Month and weekday names in languages other than English: the Greek and
/// Hungarian words feedparser reads (with its spellings, and the correct ones where
/// it has a typo), and Dutch. Each is matched as the UTF-8 bytes written here, ASCII
/// letters in any case; a name longer than eight bytes is known by its first eight.
extension FeedDateWords {
    /// Names of months with their number, 1–12.
    static let otherMonthNames: [(String, Int)] = [
        // Greek, as feedparser's Greek reader lists them (abbreviations, some in two spellings).
        ("Ιαν", 1), ("Φεβ", 2), ("Μάώ", 3), ("Μαώ", 3), ("Απρ", 4), ("Μάι", 5), ("Μαϊ", 5), ("Μαι", 5),
        ("Ιούν", 6), ("Ιον", 6), ("Ιούλ", 7), ("Ιολ", 7), ("Αύγ", 8), ("Αυγ", 8), ("Σεπ", 9), ("Οκτ", 10),
        ("Νοέ", 11), ("Νοε", 11), ("Δεκ", 12),
        // Hungarian; `februári` and `máujus` are feedparser's spellings.
        ("január", 1), ("február", 2), ("februári", 2), ("március", 3), ("április", 4), ("május", 5),
        ("máujus", 5), ("június", 6), ("július", 7), ("augusztus", 8), ("szeptember", 9), ("október", 10),
        // Dutch, in full and abbreviated, where they differ from English.
        ("januari", 1), ("februari", 2), ("maart", 3), ("mrt", 3), ("mei", 5), ("juni", 6), ("juli", 7),
        ("augustus", 8), ("oktober", 10), ("okt", 10)
    ]

    /// Names of weekdays (only recognised and skipped, as English weekdays are).
    static let otherWeekdayNames: [String] = [
        // Greek
        "Κυρ", "Δευ", "Τρι", "Τετ", "Πεμ", "Παρ", "Σαβ",
        // Dutch
        "maandag", "dinsdag", "woensdag", "donderdag", "vrijdag", "zaterdag", "zondag",
        "ma", "di", "wo", "do", "vr", "za", "zo"
    ]
}
