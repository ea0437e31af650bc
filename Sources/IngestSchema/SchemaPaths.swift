import IngestCore
/// The path syntax of a mapping schema's `records` and `source` members.
///
/// - `records`: element names separated by `/` (`*` matches any), the last one with
///   optional predicates: `person[@type='admin']` (an attribute equals a constant),
///   `person[status="active"]` (a child element's text equals a constant). Several
///   predicates must all hold.
/// - `source`: child element names to descend through, then optionally `@name` for
///   an attribute: `firstName`, `address/city`, `@id`, `address/@zip`; or `.` for the
///   record element's own text (or a JSON record that is a plain value).
enum SchemaPaths {
    /// One step of a records path.
    struct Step: Equatable {
        var name: String
        var predicates: [Predicate] = []

        func matches(_ element: Name) -> Bool { RecordPath.step(name, matches: element) }
    }

    /// `[@name='value']` or `[name='value']`.
    struct Predicate: Equatable {
        var source: Source
        var value: String
    }

    /// Where a value is, relative to an element.
    struct Source: Equatable, Hashable {
        /// Child elements to descend through.
        var elements: [String]
        /// The attribute of the element reached, or nil for its text.
        var attribute: String?

        /// The element's own text (`.`).
        var isOwnText: Bool { elements.isEmpty && attribute == nil }

        var description: String {
            (elements + (attribute.map { ["@" + $0] } ?? [])).joined(separator: "/").nonEmpty ?? "."
        }
    }

    /// Parses a records path; `problem` says what is wrong, for the caller to place.
    static func records(_ text: String) throws(Problem) -> [Step] {
        var steps: [Step] = []
        var rest = Substring(text)
        if rest.hasPrefix("/") { rest = rest.dropFirst() }
        while true {
            let nameEnd = rest.firstIndex(where: { $0 == "/" || $0 == "[" }) ?? rest.endIndex
            var step = Step(name: String(rest[..<nameEnd]))
            guard !step.name.isEmpty else {
                throw Problem("empty step in \"\(text)\"; expected names separated by / such as people/person")
            }
            rest = rest[nameEnd...]
            while rest.first == "[" {
                guard let close = rest.firstIndex(of: "]") else { throw Problem("unclosed [ in \"\(text)\"") }
                step.predicates.append(try predicate(rest[rest.index(after: rest.startIndex)..<close], in: text))
                rest = rest[rest.index(after: close)...]
            }
            steps.append(step)
            if rest.isEmpty { break }
            guard rest.first == "/" else { throw Problem("unexpected \"\(rest.first!)\" in \"\(text)\"") }
            rest = rest.dropFirst()
        }
        if steps.dropLast().contains(where: { !$0.predicates.isEmpty }) {
            throw Problem("predicates are allowed on the last step only (the records themselves) in \"\(text)\"")
        }
        return steps
    }

    private static func predicate(_ text: Substring, in path: String) throws(Problem) -> Predicate {
        guard let equals = text.firstIndex(of: "=") else {
            throw Problem("predicate [\(text)] in \"\(path)\": expected [@attribute='value'] or [child='value']")
        }
        let subject = text[..<equals].trimmingSpaces
        var literal = text[text.index(after: equals)...].trimmingSpaces
        guard let quote = literal.first, quote == "'" || quote == "\"", literal.count >= 2, literal.last == quote else {
            throw Problem("predicate [\(text)] in \"\(path)\": the value must be quoted, as in [@type='admin']")
        }
        literal = literal.dropFirst().dropLast()
        let source = try self.source(String(subject))
        guard !source.isOwnText else {
            throw Problem("predicate [\(text)] in \"\(path)\": name an attribute or a child")
        }
        return Predicate(source: source, value: String(literal))
    }

    /// Parses a field's source.
    static func source(_ text: String) throws(Problem) -> Source {
        if text == "." { return Source(elements: []) }
        var parts = text.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        var attribute: String?
        if let last = parts.last, last.hasPrefix("@") {
            attribute = String(last.dropFirst())
            parts.removeLast()
            guard !attribute!.isEmpty else { throw Problem("\"\(text)\": @ needs an attribute name") }
        }
        guard !parts.contains(where: { $0.isEmpty || $0 == "." || $0.hasPrefix("@") || $0 == "*" }) else {
            throw Problem(
                "\"\(text)\" is not a source; expected a child such as firstName or address/city, an attribute such as @id, or . for the element's own text"
            )
        }
        return Source(elements: parts, attribute: attribute)
    }

    /// What is wrong with a path, without saying where it is.
    struct Problem: Error {
        let message: String
        init(_ message: String) { self.message = message }
    }
}

private extension Substring {
    var trimmingSpaces: Substring {
        var text = self
        while text.first == " " { text = text.dropFirst() }
        while text.last == " " { text = text.dropLast() }
        return text
    }
}

private extension String {
    var nonEmpty: String? { isEmpty ? nil : self }
}
