import Foundation

/// A `style` attribute reduced to declarations that only lay out and colour text:
/// an allow-list of properties, each value made of words, numbers, lengths,
/// colours (`#hex`, `rgb(…)`, `hsl(…)`) and quoted font names. A style that holds
/// a comment, a backslash escape, `url(`, `expression`, `javascript`, `vbscript`,
/// `@import` or `behavior` anywhere is dropped whole: such tricks are for
/// hiding code from filters like this one.
enum SafeStyle {
    /// The declarations of `style` that are allowed, as `property: value; …`;
    /// `nil` when none is.
    static func filter(_ style: String) -> String? {
        guard style.utf8.count <= maxLength else { return nil }
        let lowercased = style.lowercased()
        for word in forbidden where lowercased.contains(word) { return nil }
        var kept: [String] = []
        for declaration in lowercased.split(separator: ";") {
            guard let colon = declaration.firstIndex(of: ":") else { continue }
            let property = declaration[..<colon].trimmingCharacters(in: .whitespacesAndNewlines)
            let value = declaration[declaration.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines)
            guard properties.contains(property), isSafeValue(value) else { continue }
            kept.append("\(property): \(value)")
        }
        return kept.isEmpty ? nil : kept.joined(separator: "; ")
    }

    /// The longest style looked at; a longer one is dropped.
    private static let maxLength = 2048

    private static let forbidden = [
        "/*", "*/", "\\", "url(", "expression", "javascript", "vbscript", "@import", "behavior", "binding", "image("
    ]

    /// Whether a value is made only of safe pieces: letters, digits, white space,
    /// `# % . , - !`, balanced quotes, and parentheses only after a colour function.
    private static func isSafeValue(_ value: String) -> Bool {
        guard !value.isEmpty else { return false }
        var singleQuotes = 0, doubleQuotes = 0, open = false
        var word: [UInt8] = []
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "-"):
                word.append(byte)
                continue
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "#"),
                UInt8(ascii: "%"), UInt8(ascii: "."), UInt8(ascii: ","), UInt8(ascii: "!"):
                break
            case UInt8(ascii: "'"): singleQuotes += 1
            case UInt8(ascii: "\""): doubleQuotes += 1
            case UInt8(ascii: "("):
                guard !open, colourFunctions.contains(word) else { return false }
                open = true
            case UInt8(ascii: ")"):
                guard open else { return false }
                open = false
            default:
                return false
            }
            word.removeAll(keepingCapacity: true)
        }
        return !open && singleQuotes % 2 == 0 && doubleQuotes % 2 == 0
    }

    private static let colourFunctions: Set<[UInt8]> = [
        Array("rgb".utf8), Array("rgba".utf8), Array("hsl".utf8),
        Array("hsla".utf8)
    ]

    private static let properties: Set<String> = [
        "background-color", "border", "border-bottom", "border-bottom-color", "border-collapse", "border-color",
        "border-left", "border-left-color", "border-right", "border-right-color", "border-spacing", "border-style",
        "border-top", "border-top-color", "border-width", "clear", "color", "direction", "display", "float", "font",
        "font-family", "font-size", "font-style", "font-variant", "font-weight", "height", "letter-spacing",
        "line-height", "list-style-type", "margin", "margin-bottom", "margin-left", "margin-right", "margin-top",
        "max-height", "max-width", "min-height", "min-width", "padding", "padding-bottom", "padding-left",
        "padding-right", "padding-top", "text-align", "text-decoration", "text-indent", "text-transform",
        "vertical-align", "white-space", "width", "word-spacing"
    ]
}
