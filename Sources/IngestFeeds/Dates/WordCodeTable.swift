/// What a word of a date means to ``FeedDateParser``; a word may mean several things
/// (`at` is filler before the time and a zone after it).
struct WordMeaning {
    /// The month it names, 1–12, or 0.
    var month: Int8 = 0
    var isWeekday = false
    var isFiller = false
    /// 1 for AM, 2 for PM, or 0.
    var meridiem: UInt8 = 0
    /// Korean's AM or PM (`오전`, `오후`), which marks a Korean date.
    var isKorean = false
    /// The zone it names, in seconds east of UTC.
    var zone: Int32?
}

/// The words of ``FeedDateWords`` by their packed codes, in one open-addressing
/// table: a lookup multiplies, masks and compares, with no hashing of its own, as
/// every word of every date is looked up.
struct WordCodeTable {
    private var codes: [UInt64]
    private var meanings: [WordMeaning]
    private let shift: UInt64

    /// A table of `entries`, whose codes are not 0 (the code of no word).
    init(_ entries: [UInt64: WordMeaning]) {
        var bits: UInt64 = 4
        while (1 << bits) < entries.count * 4 { bits += 1 }
        shift = 64 - bits
        codes = Array(repeating: 0, count: 1 << bits)
        meanings = Array(repeating: WordMeaning(), count: 1 << bits)
        for (code, meaning) in entries where code != 0 {
            var slot = Self.slot(code, shift)
            while codes[slot] != 0 { slot = (slot + 1) & (codes.count - 1) }
            codes[slot] = code
            meanings[slot] = meaning
        }
    }

    /// Fibonacci hashing: the top bits of the code times 2⁶⁴/φ.
    private static func slot(_ code: UInt64, _ shift: UInt64) -> Int {
        Int(truncatingIfNeeded: (code &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    /// The meaning of the word with `code`; `nil` for a word not in the table.
    func meaning(of code: UInt64) -> WordMeaning? {
        var slot = Self.slot(code, shift)
        while true {
            let stored = codes[slot]
            if stored == code { return meanings[slot] }
            if stored == 0 { return nil }
            slot = (slot + 1) & (codes.count - 1)
        }
    }
}
