#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The links inside HTML content: the first image (gofeed's fallback for an item
/// image) and the resolution of relative URIs in attributes against a base
/// (xml:base or the feed's own URL).
enum HTMLLinks {
    /// The `src` of the first `<img>` that has one, its references decoded. This
    /// runs for most RSS items (gofeed's last resort for an item image), so it
    /// looks for `<img` alone and reads that tag only.
    static func firstImageSource(in html: String) -> String? {
        guard html.utf8.contains(UInt8(ascii: "<")) else { return nil }
        var html = html
        return html.withUTF8 { bytes in
            var index = 0
            let count = bytes.count
            while index + 4 < count {
                guard let found = memchr(bytes.baseAddress! + index, Int32(UInt8(ascii: "<")), count - index) else {
                    return nil
                }
                index = bytes.baseAddress!.distance(to: found.assumingMemoryBound(to: UInt8.self))
                guard index + 4 < count, lower(bytes[index + 1]) == UInt8(ascii: "i"),
                    lower(bytes[index + 2]) == UInt8(ascii: "m"),
                    lower(bytes[index + 3]) == UInt8(ascii: "g"),
                    isSpace(bytes[index + 4]) || bytes[index + 4] == UInt8(ascii: "/")
                else {
                    index += 1
                    continue
                }
                guard let end = HTMLScanner.tagEnd(bytes, from: index + 4) else { return nil }
                let tag = HTMLScanner.Tag(
                    bytes: bytes, range: index..<end + 1, name: index + 1..<index + 4, isEnd: false)
                if let value = tag.attribute("src") {
                    return HTMLText.decodingReferences(
                        String(decoding: UnsafeBufferPointer(rebasing: bytes[value]), as: UTF8.self))
                }
                index = end + 1
            }
            return nil
        }
    }

    /// Attributes that hold a URI (feedparser's list, which gofeed follows).
    private static let uriAttributes: Set<String> = [
        "action", "background", "cite", "codebase", "data", "href", "poster", "profile", "scheme", "src", "uri",
        "usemap"
    ]

    /// `html` with the relative URIs of its URI attributes resolved against `base`;
    /// unchanged when `base` is not absolute or nothing is relative; `nil` as soon
    /// as the result would be longer than `limit` bytes.
    static func resolvingLinks(in html: String, against base: URIReference, limit: Int = .max) -> String? {
        guard base.isAbsolute, html.utf8.contains(UInt8(ascii: "<")) else { return html }
        var overLimit = false
        var html = html
        return html.withUTF8 { bytes in
            var output: [UInt8] = []
            var copied = 0
            HTMLScanner(bytes: bytes).scan(
                text: { _ in },
                tag: { tag in
                    guard !tag.isEnd, !overLimit else { return nil }
                    tag.forEachAttribute { name, value in
                        guard let value, name.count <= 10 else { return }
                        let attribute = String(decoding: UnsafeBufferPointer(rebasing: bytes[name]), as: UTF8.self)
                            .lowercased()
                        guard uriAttributes.contains(attribute) else { return }
                        let reference = String(decoding: UnsafeBufferPointer(rebasing: bytes[value]), as: UTF8.self)
                        let trimmed = reference.trimmingASCIIWhiteSpace()
                        guard !trimmed.isEmpty, !trimmed.hasPrefix("#"), !URIReference.hasScheme(trimmed) else {
                            return
                        }
                        let resolved = URIReference.resolve(HTMLText.decodingReferences(trimmed), against: base)
                        output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied..<value.lowerBound]))
                        for byte in resolved.utf8 {
                            switch byte {
                            case UInt8(ascii: "&"): output.append(contentsOf: "&amp;".utf8)
                            case UInt8(ascii: "\""): output.append(contentsOf: "&quot;".utf8)
                            default: output.append(byte)
                            }
                        }
                        copied = value.upperBound
                        if output.count > limit { overLimit = true }
                    }
                    return nil
                })
            guard !overLimit, output.count + bytes.count - copied <= limit else { return nil }
            guard copied > 0 else { return String(decoding: bytes, as: UTF8.self) }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[copied...]))
            return String(decoding: output, as: UTF8.self)
        }
    }
}

extension String {
    /// The string without ASCII white space at either end.
    func trimmingASCIIWhiteSpace() -> String {
        let utf8 = self.utf8
        guard let first = utf8.firstIndex(where: { !isSpace($0) && $0 != 0x0B }) else { return "" }
        let last = utf8.lastIndex(where: { !isSpace($0) && $0 != 0x0B })!
        if first == utf8.startIndex, last == utf8.index(before: utf8.endIndex) { return self }
        return String(self[first...last])
    }
}
