/// A URI reference split into RFC 3986's five components, and the resolution of a
/// relative reference against a base (RFC 3986 section 5.2), written out rather
/// than left to Foundation: `URL(string:relativeTo:)` gives `nil` for the empty
/// reference (section 5.4.1 says it is the base itself), and percent-encodes what
/// feeds write as it is (`a b` becomes `a%20b`, `é` becomes `%C3%A9`), where the
/// model keeps links as text. The RFC's examples of sections 5.4.1 and 5.4.2 are
/// this type's tests.
///
/// Strings in, strings out: a reference that is not a URI at all comes back
/// unchanged.
///
/// ```swift
/// URIReference.resolve("../d", against: "http://a/b/c/d;p?q")   // "http://a/b/d"
/// ```
public struct URIReference: Sendable, Hashable {
    /// The components; `nil` means absent, which differs from empty (`?` alone is an
    /// empty query).
    public var scheme: Substring?
    /// `user@host:port`, after `//`.
    public var authority: Substring?
    /// The path; empty, never absent.
    public var path: Substring
    /// After `?`.
    public var query: Substring?
    /// After `#`.
    public var fragment: Substring?

    /// Splits `text` by RFC 3986 appendix B's regular expression, done by hand.
    public init(_ text: String) {
        self.init(Substring(text))
    }

    /// Splits `text` (see ``init(_:)-(String)``).
    public init(_ text: Substring) {
        var rest = text[...]
        if let hash = rest.firstIndex(of: "#") {
            fragment = rest[rest.index(after: hash)...]
            rest = rest[..<hash]
        }
        if let mark = rest.firstIndex(of: "?") {
            query = rest[rest.index(after: mark)...]
            rest = rest[..<mark]
        }
        if let colon = rest.firstIndex(of: ":"), colon > rest.startIndex,
            !rest[..<colon].contains(where: { $0 == "/" }), Self.isScheme(rest[..<colon])
        {
            scheme = rest[..<colon]
            rest = rest[rest.index(after: colon)...]
        }
        if rest.hasPrefix("//") {
            let afterSlashes = rest.index(rest.startIndex, offsetBy: 2)
            let end = rest[afterSlashes...].firstIndex(of: "/") ?? rest.endIndex
            authority = rest[afterSlashes..<end]
            rest = rest[end...]
        }
        path = rest
    }

    private init(scheme: Substring?, authority: Substring?, path: Substring, query: Substring?, fragment: Substring?) {
        self.scheme = scheme
        self.authority = authority
        self.path = path
        self.query = query
        self.fragment = fragment
    }

    /// Whether the reference has a scheme, that is, is a URI rather than relative.
    public var isAbsolute: Bool { scheme != nil }

    /// RFC 3986 section 5.3: the components joined back into text.
    public var text: String {
        var result = ""
        if let scheme {
            result += scheme
            result += ":"
        }
        if let authority {
            result += "//"
            result += authority
        }
        result += path
        if let query {
            result += "?"
            result += query
        }
        if let fragment {
            result += "#"
            result += fragment
        }
        return result
    }

    /// This reference resolved against `base` (RFC 3986 section 5.2.2, strict).
    public func resolved(against base: URIReference) -> URIReference {
        if let scheme {
            return URIReference(
                scheme: scheme, authority: authority, path: Self.removeDotSegments(path),
                query: query, fragment: fragment)
        }
        if let authority {
            return URIReference(
                scheme: base.scheme, authority: authority, path: Self.removeDotSegments(path),
                query: query, fragment: fragment)
        }
        if path.isEmpty {
            return URIReference(
                scheme: base.scheme, authority: base.authority, path: base.path,
                query: query ?? base.query, fragment: fragment)
        }
        let merged: Substring
        if path.hasPrefix("/") {
            merged = Self.removeDotSegments(path)
        } else {
            merged = Self.removeDotSegments(Self.merge(base: base, path: path))
        }
        return URIReference(
            scheme: base.scheme, authority: base.authority, path: merged, query: query, fragment: fragment)
    }

    /// `reference` resolved against `base` as text; `reference` unchanged when it is
    /// already absolute or `base` is not.
    public static func resolve(_ reference: String, against base: String) -> String {
        resolve(reference, against: URIReference(base))
    }

    /// `reference` resolved against an already split `base`.
    public static func resolve(_ reference: String, against base: URIReference) -> String {
        guard base.isAbsolute, !Self.hasScheme(reference) else { return reference }
        return URIReference(reference).resolved(against: base).text
    }

    // MARK: - RFC 3986 section 5.2

    /// Section 5.2.3.
    static func merge(base: URIReference, path: Substring) -> Substring {
        if base.authority != nil, base.path.isEmpty { return "/" + path }
        guard let slash = base.path.lastIndex(of: "/") else { return path }
        return base.path[...slash] + path
    }

    /// Section 5.2.4, on whole segments.
    static func removeDotSegments(_ path: Substring) -> Substring {
        guard path.contains(".") else { return path }
        var input = path
        var output: [Substring] = []
        while !input.isEmpty {
            if input.hasPrefix("../") {
                input = input.dropFirst(3)
            } else if input.hasPrefix("./") {
                input = input.dropFirst(2)
            } else if input.hasPrefix("/./") {
                input = input.dropFirst(2)
            } else if input == "/." {
                input = "/"
            } else if input.hasPrefix("/../") {
                input = input.dropFirst(3)
                if !output.isEmpty { output.removeLast() }
            } else if input == "/.." {
                input = "/"
                if !output.isEmpty { output.removeLast() }
            } else if input == "." || input == ".." {
                input = ""
            } else {
                // The first segment, with its leading "/" if any, up to the next "/".
                let searchStart = input.hasPrefix("/") ? input.index(after: input.startIndex) : input.startIndex
                let end = input[searchStart...].firstIndex(of: "/") ?? input.endIndex
                output.append(input[..<end])
                input = input[end...]
            }
        }
        return Substring(output.joined())
    }

    /// ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ).
    static func isScheme(_ text: Substring) -> Bool {
        guard let first = text.utf8.first, (first | 0x20) &- 97 < 26 else { return false }
        return text.utf8.allSatisfy { byte in
            (byte | 0x20) &- 97 < 26 || byte &- 48 < 10 || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
                || byte == UInt8(ascii: ".")
        }
    }

    /// A quick test for a scheme without splitting the whole reference.
    static func hasScheme(_ text: String) -> Bool {
        var scheme = false
        for (offset, byte) in text.utf8.enumerated() {
            if byte == UInt8(ascii: ":") { return scheme }
            let letter = (byte | 0x20) &- 97 < 26
            if offset == 0
                ? !letter
                : !(letter || byte &- 48 < 10 || byte == UInt8(ascii: "+")
                    || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "."))
            {
                return false
            }
            scheme = true
        }
        return false
    }
}
