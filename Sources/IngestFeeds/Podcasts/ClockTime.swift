/// A length of time written as a clock reading — `SS`, `MM:SS` or `HH:MM:SS`, the
/// last part optionally with a decimal fraction (`1:02:03.5`) — the way
/// `itunes:duration`, Podlove chapter starts (normal play time) and Media RSS
/// thumbnail times write it.
///
/// Every part is ASCII digits alone (no sign, no space inside); the parts after the
/// first are below 60 (`1:75` is not a time); the leading part may be any size an
/// `Int` holds (`90:00` is ninety minutes). Anything else — a sign, an empty part,
/// a fraction not on the last part, a total too large for an `Int` — is no time.
struct ClockTime: Sendable, Hashable {
    /// The whole seconds.
    var wholeSeconds: Int
    /// The fraction of a second after them, from 0 up to (not including) 1.
    var fraction: Double

    /// The time `text` (trimmed) writes; `nil` when it is not one.
    init?(_ text: String) {
        let parts = text.trimmingASCIIWhiteSpace().split(separator: ":", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count) else { return nil }
        var total = 0
        var fractionDigits: Substring = ""
        for (index, part) in parts.enumerated() {
            var digits = part
            if index == parts.count - 1, let dot = part.firstIndex(of: ".") {
                digits = part[..<dot]
                fractionDigits = part[part.index(after: dot)...]
                guard Self.isDigits(fractionDigits) else { return nil }
            }
            guard Self.isDigits(digits), let value = Int(digits), index == 0 || value < 60 else { return nil }
            let (scaled, overflowed) = total.multipliedReportingOverflow(by: 60)
            let (sum, overflowedAdding) = scaled.addingReportingOverflow(value)
            guard !overflowed, !overflowedAdding else { return nil }
            total = sum
        }
        wholeSeconds = total
        // At most 17 digits matter to a Double; reading more would only cost time.
        fraction = fractionDigits.isEmpty ? 0 : Double("0." + fractionDigits.prefix(17)) ?? 0
    }

    /// The time in seconds, with its fraction.
    var seconds: Double { Double(wholeSeconds) + fraction }

    /// The time in whole seconds, rounded to the nearest (half a second up);
    /// `nil` when that does not fit in an `Int`.
    var roundedSeconds: Int? {
        guard fraction >= 0.5 else { return wholeSeconds }
        let (rounded, overflowed) = wholeSeconds.addingReportingOverflow(1)
        return overflowed ? nil : rounded
    }

    private static func isDigits(_ text: Substring) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }
}
