/// Korean dates write each number of the date with its unit: `2004년 05월 28일` is
/// 28 May 2004 (년 year, 월 month, 일 day), as the OnBlog service did. A Korean date
/// without a zone is Korea Standard Time (+09:00), as feedparser reads it.
extension FeedDateParser.Scanner {
    /// Which field a Korean unit marks.
    enum KoreanDateField {
        case year, month, day
    }

    /// The unit right after a number (`년`, `월`, `일`), read past; `nil` if there is none.
    mutating func koreanDateField() -> KoreanDateField? {
        guard index + 3 <= end else { return nil }  // each unit is three bytes of UTF-8
        let field: KoreanDateField
        if FeedDateParser.matches(bytes, index, "년") {
            field = .year
        } else if FeedDateParser.matches(bytes, index, "월") {
            field = .month
        } else if FeedDateParser.matches(bytes, index, "일") {
            field = .day
        } else {
            return nil
        }
        index += 3
        return field
    }
}
