/// Yes-or-no text — `itunes:explicit`, `itunes:block`, `itunes:complete`,
/// Media RSS `isDefault` — read as a Boolean, whatever case the feed wrote.
enum YesNoText {
    /// `yes`/`true` → `true`, `no`/`false` → `false`, anything else → `nil`.
    static func yesNo(_ text: String?) -> Bool? {
        switch text?.trimmingASCIIWhiteSpace().lowercased() {
        case "yes", "true": true
        case "no", "false": false
        default: nil
        }
    }

    /// ``yesNo(_:)``, with Apple's older words too: `explicit` → `true`, `clean` → `false`.
    static func explicit(_ text: String?) -> Bool? {
        switch text?.trimmingASCIIWhiteSpace().lowercased() {
        case "explicit": true
        case "clean": false
        default: yesNo(text)
        }
    }
}
