import IngestCore

/// A feed's gofeed JSON, indented exactly as `feed.gofeedJSONValue.prettyText()`
/// lays it out, made in parts so that a feed of any size is written without holding
/// its items: each item's text as the item ends (``appendItem(_:to:)``), then, once
/// the feed has ended, the text around the items (``ending(of:)``). The feed-level
/// fields come before `items` in gofeed's JSON but may follow the items in the
/// document, so the items' text is kept aside (a file) until the feed ends.
///
/// ```swift
/// var json = GofeedPrettyJSON()
/// var itemsText: [UInt8] = []   // a file, for a large feed
/// let feed = try FeedReader().read(contentsOf: url) { item, _ in json.appendItem(item, to: &itemsText) }
/// switch json.ending(of: feed) {
/// case .whole(let text): print(text)
/// case .around(let head, let tail): print(head + String(decoding: itemsText, as: UTF8.self) + tail)
/// }
/// ```
public struct GofeedPrettyJSON {
    /// What to write once the feed has ended.
    public enum Ending: Sendable {
        /// The feed's whole text; the items' text is not used (there is none, or the
        /// items are few and empty, and share one line).
        case whole(String)
        /// The text that goes before the items' text, and the text after it.
        case around(head: String, tail: String)
    }

    /// Spaces before the feed's lines: 0 for a feed alone, 2 for a feed in an array.
    public let indent: Int
    /// The line width `prettyText` fits short arrays and objects in.
    public let width: Int
    /// Items appended so far.
    public private(set) var itemCount = 0
    /// Whether every item so far is `{}`: then the items may share one line.
    private var onlyEmptyItems = true

    /// A feed's parts, its lines indented by `indent` spaces (the feed itself
    /// starting at column `indent`), laid out for lines of `width` columns.
    public init(indent: Int = 0, width: Int = 100) {
        self.indent = indent
        self.width = width
    }

    /// Appends the item's text, preceded by the separator from the previous one.
    public mutating func appendItem(_ item: FeedItem, to out: inout [UInt8]) {
        let value = item.gofeedJSONValue
        if itemCount > 0 { out.append(contentsOf: ",\n".utf8) }
        out.append(contentsOf: String(repeating: " ", count: indent + 4).utf8)
        out.append(contentsOf: value.prettyText(width: width, indent: indent + 4, column: indent + 4).utf8)
        if value != .object([]) { onlyEmptyItems = false }
        itemCount += 1
    }

    /// The text around the items' text, for `feed` as the read returned it.
    public func ending(of feed: Feed) -> Ending {
        // `[{}, {}]` takes four columns an item: only so many can share a line.
        if itemCount == 0 || (onlyEmptyItems && itemCount * 4 <= width) {
            var whole = feed
            whole.items = Array(repeating: FeedItem(), count: itemCount)
            return .whole(whole.gofeedJSONValue.prettyText(width: width, indent: indent, column: indent))
        }
        // Items that do not fit one line: the feed and its items take a line each.
        var head = "{\n"
        for member in feed.gofeedJSONMembersBeforeItems {
            head += JSONValue.prettyMember(member.key, member.value, indent: indent, width: width) + ",\n"
        }
        head += String(repeating: " ", count: indent + 2) + "\"items\": [\n"
        var tail = "\n" + String(repeating: " ", count: indent + 2) + "]"
        for member in feed.gofeedJSONMembersAfterItems {
            tail += ",\n" + JSONValue.prettyMember(member.key, member.value, indent: indent, width: width)
        }
        tail += "\n" + String(repeating: " ", count: indent) + "}"
        return .around(head: head, tail: tail)
    }
}
