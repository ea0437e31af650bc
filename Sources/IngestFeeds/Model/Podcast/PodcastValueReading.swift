/// How the Podcasting 2.0 views read attribute and element text: trimmed, empty
/// taken as absent, numbers checked (a value that is not a plain decimal number, is
/// not finite or does not fit is `nil`), flags from `yes`/`true` and `no`/`false`.
enum PodcastValueReading {
    /// `text` trimmed of ASCII white space; `nil` when nothing is left.
    static func text(_ text: String?) -> String? {
        guard let text else { return nil }
        let trimmed = text.trimmingASCIIWhiteSpace()
        return trimmed.isEmpty ? nil : trimmed
    }

    /// A decimal number (`12`, `-3.5`, `1e3`): no hexadecimal, `inf` or `nan`, and
    /// finite; negative zero is zero.
    static func number(_ text: String?) -> Double? {
        guard let text = Self.text(text), text.utf8.allSatisfy(isDecimalNumberByte),
            let value = Double(text), value.isFinite
        else { return nil }
        return value + 0.0
    }

    /// A finite, non-negative ``number(_:)``: a bitrate, a split, a percentage.
    static func nonNegativeNumber(_ text: String?) -> Double? {
        guard let value = number(text), value >= 0 else { return nil }
        return value
    }

    /// A time or a duration in seconds: a ``nonNegativeNumber(_:)``.
    static func seconds(_ text: String?) -> Double? { nonNegativeNumber(text) }

    /// A whole number that fits an `Int` (`Int` itself refuses overflow).
    static func integer(_ text: String?) -> Int? {
        guard let text = Self.text(text) else { return nil }
        return Int(text)
    }

    /// A whole number that fits an `Int` and is not negative: a size or a count.
    static func count(_ text: String?) -> Int? {
        guard let value = integer(text), value >= 0 else { return nil }
        return value
    }

    /// `yes` or `true` is `true`, `no` or `false` is `false` (any case); else `nil`.
    static func flag(_ text: String?) -> Bool? {
        switch Self.text(text)?.lowercased() {
        case "yes", "true": true
        case "no", "false": false
        default: nil
        }
    }

    /// `text` read by ``FeedDateParser``.
    static func date(_ text: String?) -> FeedDate? {
        Self.text(text).flatMap { FeedDateParser.parse($0) }
    }

    private static func isDecimalNumberByte(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: ".")
            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "e")
            || byte == UInt8(ascii: "E")
    }
}

extension Extension {
    /// The attribute `name`, trimmed; `nil` when absent or empty.
    func podcastAttribute(_ name: String) -> String? {
        PodcastValueReading.text(attributes[name])
    }

    /// The element's text, `nil` when empty.
    var podcastText: String? { PodcastValueReading.text(value) }
}
