/// gofeed's `DefaultAtomTranslator`, rule for rule.
struct AtomTranslator {
    func feed(_ data: AtomFeedData) -> Feed {
        var feed = Feed(format: FeedFormat(.atom, version: data.version))
        feed.title = data.title.map { FeedText($0.value, type: $0.type) }
        feed.description = data.subtitle.map { FeedText($0.value, type: $0.type) }
        feed.link = data.links.first { isAlternate($0) }?.href.nonEmptyString
        feed.feedLink = data.links.first { $0.rel == "self" }?.href.nonEmptyString
        feed.links = data.links.filter { isAlternate($0) || $0.rel == "self" }
        feed.updated = data.updated
        feed.updatedParsed = data.updated.flatMap(FeedDateParser.parse)
        feed.author = data.authors.first
        feed.authors = data.authors
        feed.language = data.language
        if let url = data.logo ?? data.icon { feed.image = Image(url: url) }
        feed.copyright = data.rights
        feed.categories = data.categories.compactMap { $0.label ?? $0.term }
        if let generator = data.generator {
            var text = generator.value ?? ""
            if let version = generator.version { text += " v" + version }
            if let uri = generator.uri { text += " " + uri }
            feed.generator = text.trimmingASCIIWhiteSpace().nonEmptyString
        }
        feed.extensions = data.extensions
        feed.updateHints = FeedUpdateHints(syndication: data.extensions["sy"])
        return feed
    }

    func item(_ data: AtomEntryData) -> FeedItem {
        var item = FeedItem()
        item.title = data.title.map { FeedText($0.value, type: $0.type) }
        item.description = data.summary.map { FeedText($0.value, type: $0.type) }
        item.content = data.content.map { FeedText($0.value, type: $0.type) }
        item.link = data.links.first { isAlternate($0) }?.href.nonEmptyString
        item.links = data.links.filter { isAlternate($0) || $0.rel == "self" }
        item.updated = data.updated
        item.updatedParsed = data.updated.flatMap(FeedDateParser.parse)
        item.published = data.published ?? data.updated
        item.publishedParsed = data.published.flatMap(FeedDateParser.parse) ?? item.updatedParsed
        item.author = data.authors.first
        item.authors = data.authors
        item.guid = data.id
        item.categories = data.categories.compactMap { $0.label ?? $0.term }
        item.enclosures = data.links.filter { $0.rel == "enclosure" }.map {
            Enclosure(url: $0.href, length: $0.length, type: $0.type)
        }
        item.extensions = data.extensions
        return item
    }

    /// A link without `rel` is an alternate link (RFC 4287 section 4.2.7.2).
    private func isAlternate(_ link: Link) -> Bool { link.rel == nil || link.rel == "alternate" }
}
