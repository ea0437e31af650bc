/// A person written as one string, as RSS's `author`, `managingEditor` and
/// `webMaster`, Dublin Core's `creator` and iTunes' `author` are: gofeed's four
/// forms, tried in its order —
///
/// | text | name | email |
/// | --- | --- | --- |
/// | `jo@example.org (Jo Smith)` | Jo Smith | jo@example.org |
/// | `Jo Smith (jo@example.org)` | Jo Smith | jo@example.org |
/// | `Jo Smith` (no `@`, no parentheses) | Jo Smith | |
/// | `jo@example.org` (no parentheses) | | jo@example.org |
///
/// — plus RFC 5322's `Jo Smith <jo@example.org>`, which gofeed would keep whole as
/// an email address. Text that fits none gives a person with neither.
enum PersonText {
    static func parse(_ text: String) -> Person {
        let scalars = Array(text.unicodeScalars)
        guard !scalars.isEmpty else { return Person() }
        let at: Unicode.Scalar = "@", open: Unicode.Scalar = "(", close: Unicode.Scalar = ")"
        // "email (Name)": [^@]+@[^\s]+ \s+ \( [^@]+ \)
        if scalars.last == close, let openIndex = scalars.lastIndex(of: open), openIndex > 0 {
            let inner = scalars[(openIndex + 1)..<(scalars.count - 1)]
            var before = scalars[..<openIndex]
            let hadSpace = before.last.map { $0.properties.isWhitespace } ?? false
            while let last = before.last, last.properties.isWhitespace { before = before.dropLast() }
            if hadSpace, !inner.isEmpty, !before.isEmpty {
                // The first "(" is where gofeed's greedy groups split, not the last.
                let firstOpen = scalars.firstIndex(of: open)!
                if firstOpen == openIndex {
                    if let atIndex = before.firstIndex(of: at), atIndex > before.startIndex,
                        atIndex < before.endIndex - 1,
                        !before[(atIndex + 1)...].contains(where: { $0.properties.isWhitespace }),
                        !inner.contains(at), !inner.isEmpty
                    {
                        return Person(name: string(inner), email: string(before))
                    }
                    if !before.contains(at), let atIndex = inner.firstIndex(of: at), atIndex > inner.startIndex,
                        atIndex < inner.endIndex - 1, !inner.contains(close)
                    {
                        return Person(name: string(before), email: string(inner))
                    }
                }
            }
        }
        if !scalars.contains(at), !scalars.contains(open), !scalars.contains(close) {
            return Person(name: text)
        }
        // "Name <email>"
        if scalars.last == ">", let lt = scalars.lastIndex(of: "<"), lt > 0 {
            let inner = scalars[(lt + 1)..<(scalars.count - 1)]
            var before = scalars[..<lt]
            while let last = before.last, last.properties.isWhitespace { before = before.dropLast() }
            if inner.contains(at), !before.isEmpty, !inner.contains("<") {
                var name = before
                if name.first == "\"", name.last == "\"", name.count >= 2 { name = name.dropFirst().dropLast() }
                return Person(name: string(name), email: string(inner))
            }
        }
        if !scalars.contains(open), !scalars.contains(close),
            let atIndex = scalars.firstIndex(of: at), atIndex > 0, atIndex < scalars.count - 1,
            scalars.firstIndex(of: at) == scalars.lastIndex(of: at)
        {
            return Person(email: text)
        }
        return Person()
    }

    private static func string(_ scalars: ArraySlice<Unicode.Scalar>) -> String {
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars)
        return String(view)
    }
}
