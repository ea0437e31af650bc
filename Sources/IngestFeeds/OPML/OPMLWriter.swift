/// Writes an ``OPMLDocument`` as OPML 2.0: each subscription in the folder outlines
/// its first category names, its other categories in its `category` attribute.
enum OPMLWriter {
    static func write(_ document: OPMLDocument) -> String {
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<opml version=\"2.0\">\n  <head>\n"
        if let title = document.title {
            out += "    <title>\(escape(title))</title>\n"
        } else {
            out += "    <title/>\n"
        }
        out += "  </head>\n  <body>\n"
        // The folders open around the current subscription, outermost first. A run of
        // subscriptions in the same folder shares its outline; the order is kept.
        var open: [String] = []
        for subscription in document.subscriptions {
            let path = subscription.categories.first.map(folderPath) ?? []
            var shared = 0
            while shared < open.count && shared < path.count && open[shared] == path[shared] { shared += 1 }
            while open.count > shared {
                open.removeLast()
                out += indent(open.count) + "</outline>\n"
            }
            for folder in path[shared...] {
                let name = escape(folder)
                out += indent(open.count) + "<outline text=\"\(name)\" title=\"\(name)\">\n"
                open.append(folder)
            }
            out += indent(open.count) + outline(subscription) + "\n"
        }
        while !open.isEmpty {
            open.removeLast()
            out += indent(open.count) + "</outline>\n"
        }
        out += "  </body>\n</opml>\n"
        return out
    }

    /// A feed outline. Without a title, `text` (which OPML 2.0 asks for) is empty,
    /// so that the subscription reads back without one rather than with its URL.
    private static func outline(_ subscription: OPMLSubscription) -> String {
        var line = "<outline type=\"rss\" text=\"\(escape(subscription.title ?? ""))\""
        if let title = subscription.title { line += " title=\"\(escape(title))\"" }
        line += " xmlUrl=\"\(escape(subscription.url))\""
        if let site = subscription.siteURL { line += " htmlUrl=\"\(escape(site))\"" }
        let others = subscription.categories.dropFirst()
        if !others.isEmpty { line += " category=\"\(escape(others.joined(separator: ",")))\"" }
        return line + "/>"
    }

    /// The folder names of a category path: its non-empty steps.
    private static func folderPath(_ category: String) -> [String] {
        category.split(separator: "/").map(String.init)
    }

    private static func indent(_ depth: Int) -> String {
        String(repeating: "  ", count: depth + 2)
    }

    /// `text` as attribute value or element content: markup characters and the
    /// white space an attribute value would lose as references, and what XML 1.0
    /// cannot hold (other C0 controls, U+FFFE, U+FFFF) dropped.
    static func escape(_ text: String) -> String {
        var out = ""
        out.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "\t": out += "&#9;"
            case "\n": out += "&#10;"
            case "\r": out += "&#13;"
            case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF: break
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
