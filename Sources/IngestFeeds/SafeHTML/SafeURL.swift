/// Whether a URL from an attribute may stay: http, https, mailto or relative —
/// and, where an image is loaded (`img src`), `data:image/…` but SVG. Judged as a
/// browser reads it: on the value with its character references decoded (libxml2
/// does that) and without the tabs, newlines, spaces and control characters a
/// browser skips, so `jav&#x09;ascript:` and ` &#14; javascript:` are caught, and
/// without regard to case.
enum SafeURL {
    /// Whether `value` is a URL ``SafeHTML`` keeps; `allowsImageData` for `img src`.
    static func isAllowed(_ value: String, allowsImageData: Bool = false) -> Bool {
        // The value's first bytes, less white space and controls, lowercased; enough
        // to hold any allowed scheme and `data:image/svg`.
        let keep = 24
        var prefix: [UInt8] = []
        prefix.reserveCapacity(keep)
        var colon: Int?
        for byte in value.utf8 where byte > 0x20 && byte != 0x7F {
            if colon == nil {
                if byte == UInt8(ascii: ":") {
                    colon = prefix.count
                } else if byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") {
                    return true
                }
            }
            guard prefix.count < keep else {
                if colon != nil { break }
                continue
            }
            prefix.append(byte | (byte &- 65 < 26 ? 0x20 : 0))
        }
        // No scheme: a reference relative to the page.
        guard let colon else { return true }
        guard colon < keep else { return false }
        switch prefix[..<colon] {
        case ArraySlice("http".utf8), ArraySlice("https".utf8), ArraySlice("mailto".utf8):
            return true
        case ArraySlice("data".utf8):
            let type = prefix[(colon + 1)...]
            return allowsImageData && type.starts(with: "image/".utf8) && !type.starts(with: "image/svg".utf8)
        default:
            return false
        }
    }

    /// Whether every URL of a `srcset` (`url 2x, url 640w`) is allowed: http,
    /// https or relative, never `data:` (whose commas a list cannot tell apart).
    static func isAllowedSourceSet(_ value: String) -> Bool {
        for candidate in value.split(separator: ",") {
            let url = candidate.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }).first
            guard let url else { continue }
            if !isAllowed(String(url)) || url.lowercased().hasPrefix("mailto") { return false }
        }
        return true
    }
}
