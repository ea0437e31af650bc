/// gofeed's `DefaultJSONTranslator`, rule for rule.
struct JSONFeedTranslator {
    func feed(_ data: JSONFeedData, version: String) -> Feed {
        var feed = Feed(format: FeedFormat(.json, version: version))
        feed.title = data.title.map { FeedText($0, type: .text) }
        feed.link = data.homePageURL
        feed.feedLink = data.feedURL
        if let home = data.homePageURL { feed.links.append(Link(href: home, rel: "alternate")) }
        if let url = data.feedURL { feed.links.append(Link(href: url, rel: "self")) }
        feed.description = data.description.map { FeedText($0, type: .text) }
        if let icon = data.icon { feed.image = Image(url: icon) }
        feed.author = data.author.map(person)
        feed.authors = data.authors?.map(person) ?? feed.author.map { [$0] } ?? []
        feed.language = data.language
        feed.updated = data.firstItemModified
        feed.updatedParsed = data.firstItemModified.flatMap(FeedDateParser.parse)
        feed.published = data.firstItemPublished
        feed.publishedParsed = data.firstItemPublished.flatMap(FeedDateParser.parse)
        return feed
    }

    func item(_ data: JSONFeedItemData) -> FeedItem {
        var item = FeedItem()
        item.guid = data.id
        item.link = data.url
        if let url = data.url { item.links.append(Link(href: url, rel: "alternate")) }
        if let url = data.externalURL { item.links.append(Link(href: url, rel: "related")) }
        item.title = data.title.map { FeedText($0, type: .text) }
        if let html = data.contentHTML {
            item.content = FeedText(html, type: .html)
        } else if let text = data.contentText {
            item.content = FeedText(text, type: .text)
        }
        item.description = data.summary.map { FeedText($0, type: .text) }
        if let url = data.image ?? data.bannerImage { item.image = Image(url: url) }
        item.published = data.datePublished
        item.publishedParsed = data.datePublished.flatMap(FeedDateParser.parse)
        item.updated = data.dateModified
        item.updatedParsed = data.dateModified.flatMap(FeedDateParser.parse)
        item.author = data.author.map(person)
        item.authors = data.authors?.map(person) ?? item.author.map { [$0] } ?? []
        item.categories = data.tags
        item.enclosures = (data.attachments ?? []).map { attachment in
            Enclosure(url: attachment.url, length: attachment.size.flatMap(Self.byteCount), type: attachment.mimeType)
        }
        return item
    }

    /// `size_in_bytes` as gofeed writes it: the whole number of bytes, when the
    /// size is positive. A size no `Int64` holds (`1e19`, `1e400`) is left out,
    /// as a size that is not a number is.
    static func byteCount(_ number: String) -> String? {
        guard let value = Double(number), value > 0,
            let bytes = Int64(exactly: value.rounded(.towardZero))
        else { return nil }
        return String(bytes)
    }

    /// gofeed reads a JSON Feed author's name as RSS's person text (`Name (email)`).
    private func person(_ author: JSONFeedAuthor) -> Person {
        var person = author.name.map(PersonText.parse) ?? Person()
        person.url = author.url.nonEmpty
        person.avatar = author.avatar.nonEmpty
        return person
    }
}
