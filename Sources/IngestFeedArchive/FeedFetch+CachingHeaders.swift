import Foundation

extension FeedFetch {
    /// When a response read at `date` goes stale (RFC 9111): `Cache-Control`'s
    /// `max-age` seconds after `date` when it has one (`no-cache` and `no-store` make
    /// it stale at once), else the `Expires` date (one that is no HTTP date, such as
    /// `0`, is in the past); `nil` when neither header says anything.
    ///
    /// ```swift
    /// let expires = FeedFetch.expiry(cacheControl: "public, max-age=600", expires: nil, at: Date())
    /// ```
    public static func expiry(cacheControl: String?, expires: String?, at date: Date) -> Date? {
        if let cacheControl {
            for directive in cacheControl.split(separator: ",") {
                // Empty pieces kept: a directive of nothing but `=` is an empty name.
                let parts = directive.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let name = parts[0].trimmingCharacters(in: .whitespaces).lowercased()
                if name == "no-cache" || name == "no-store" { return date }
                guard name == "max-age", parts.count == 2 else { continue }
                let value = parts[1].trimmingCharacters(in: .whitespaces).trimmingCharacters(
                    in: CharacterSet(charactersIn: "\""))
                // A number of seconds; one too large to count is as good as forever.
                guard !value.isEmpty, value.utf8.allSatisfy({ $0 &- UInt8(ascii: "0") < 10 }) else { continue }
                return date.addingTimeInterval(Double(value) ?? 0)
            }
        }
        guard let expires else { return nil }
        return httpDate(expires) ?? date
    }

    /// When to ask again by a `Retry-After` header received at `date`: a number of
    /// seconds after `date`, or an HTTP date; `nil` for no header or one that is
    /// neither.
    public static func retryDate(_ retryAfter: String?, at date: Date) -> Date? {
        guard let value = retryAfter?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        if value.utf8.allSatisfy({ $0 &- UInt8(ascii: "0") < 10 }) {
            return date.addingTimeInterval(Double(value) ?? 0)
        }
        return httpDate(value)
    }

    /// An HTTP date (RFC 9110, 5.6.7): the IMF-fixdate `Sun, 06 Nov 1994 08:49:37
    /// GMT`, or the obsolete RFC 850 and asctime forms a recipient must read too.
    static func httpDate(_ text: String) -> Date? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        for format in ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"] {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = format
            if let date = formatter.date(from: trimmed) { return date }
        }
        return nil
    }
}
