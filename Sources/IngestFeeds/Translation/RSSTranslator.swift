/// gofeed's `DefaultRSSTranslator`, rule for rule: which RSS element, Dublin Core,
/// iTunes, Media RSS or embedded Atom element fills each field of the universal
/// model, and in which order they are tried.
struct RSSTranslator {
    /// Scan item HTML for a first `<img>` when nothing else gives an image.
    var scansContentForImages = true

    func feed(_ channel: RSSChannelData) -> Feed {
        var feed = Feed(format: FeedFormat(.rss, version: channel.version))
        let dc = channel.extensions["dc"].map(DublinCoreExtension.init)
        let iTunes = channel.extensions["itunes"].map(ITunesFeedExtension.init)
        feed.dublinCore = dc
        feed.iTunes = iTunes
        feed.podcast = channel.extensions["podcast"].map(PodcastFeedExtension.init)
        feed.extensions = channel.extensions
        feed.generator = channel.generator
        feed.published = channel.pubDate
        feed.publishedParsed = channel.pubDate.flatMap(FeedDateParser.parse)

        if let title = channel.title ?? dc?.title.first.nonEmpty {
            feed.title = FeedText(title, type: HTMLText.looksLikeHTML(title) ? .html : .text)
        }
        if let description = channel.description {
            feed.description = FeedText(description, type: .html)
        } else if let summary = iTunes?.summary {
            feed.description = FeedText(summary, type: HTMLText.looksLikeHTML(summary) ? .html : .text)
        }
        feed.language = channel.language ?? dc?.language.first.nonEmpty
        feed.copyright = channel.copyright ?? dc?.rights.first.nonEmpty
        feed.updated = channel.lastBuildDate ?? dc?.date.first.nonEmpty
        feed.updatedParsed =
            channel.lastBuildDate.flatMap(FeedDateParser.parse)
            ?? dc?.date.first.flatMap(FeedDateParser.parse)

        let atomLinks = atomElements(channel.extensions).elements("link")
        feed.link = channel.link ?? atomLinks.first { isPageLink($0) }.flatMap { $0.attributes["href"] }
        feed.feedLink = atomLinks.last { $0.attributes["rel"] == "self" }.flatMap { $0.attributes["href"] }.nonEmpty
        feed.links =
            channel.links.map { Link(href: $0) }
            + atomLinks.filter { isPageLink($0) || $0.attributes["rel"] == "self" }.map(link)

        if let author = author(channel, dc: dc, iTunes: iTunes) {
            feed.author = author
            feed.authors = [author]
        }
        feed.image = image(channel, iTunes: iTunes)
        var categories = channel.categories
        categories += keywords(iTunes?.keywords)
        for category in iTunes?.categories ?? [] {
            if let text = category.text { categories.append(text) }
            if let text = category.subcategory?.text { categories.append(text) }
        }
        categories += dc?.subject ?? []
        feed.categories = categories
        feed.updateHints = FeedUpdateHints(
            ttl: channel.ttl, skipHours: channel.skipHours, skipDays: channel.skipDays,
            syndication: channel.extensions["sy"])
        return feed
    }

    func item(_ data: RSSItemData) -> FeedItem {
        var item = FeedItem()
        let atom = atomElements(data.extensions)
        let dc = data.extensions["dc"].map(DublinCoreExtension.init)
        let iTunes = data.extensions["itunes"].map(ITunesItemExtension.init)
        item.link = data.link
        item.dublinCore = dc
        item.iTunes = iTunes
        item.podcast = data.extensions["podcast"].map(PodcastItemExtension.init)
        item.extensions = data.extensions
        item.custom = data.custom

        if let title = data.title ?? dc?.title.first.nonEmpty {
            item.title = FeedText(title, type: HTMLText.looksLikeHTML(title) ? .html : .text)
        }
        if let description = data.description {
            item.description = FeedText(description, type: .html)
        } else if let description = dc?.description.first.nonEmpty {
            item.description = FeedText(description, type: HTMLText.looksLikeHTML(description) ? .html : .text)
        } else if let summary = iTunes?.summary {
            item.description = FeedText(summary, type: HTMLText.looksLikeHTML(summary) ? .html : .text)
        } else if let summary = atom.value("summary") {
            item.description = FeedText(summary, type: .html)
        }
        if let content = data.content ?? atom.value("content") {
            item.content = FeedText(content, type: .html)
        }
        item.links = data.links.map { Link(href: $0) }

        item.published = data.pubDate ?? dc?.date.first.nonEmpty ?? atom.value("published")
        item.publishedParsed =
            data.pubDate.flatMap(FeedDateParser.parse)
            ?? (dc?.date.first.nonEmpty ?? atom.value("published")).flatMap(FeedDateParser.parse)
        item.updated = dc?.date.first.nonEmpty ?? atom.value("updated")
        item.updatedParsed = item.updated.flatMap(FeedDateParser.parse)

        if let author = author(data, dc: dc, iTunes: iTunes, atom: atom) {
            item.author = author
            item.authors = [author]
        }
        item.guid = data.guid
        item.image = image(data, iTunes: iTunes)
        var categories = data.categories
        categories += keywords(iTunes?.keywords)
        categories += dc?.subject ?? []
        for category in atom.elements("category") {
            if let term = category.attributes["term"], !term.isEmpty { categories.append(term) }
        }
        item.categories = categories
        item.enclosures = data.enclosures
        return item
    }

    // MARK: - Rules

    /// managingEditor, webMaster, dc:author, dc:creator, itunes:author.
    private func author(_ channel: RSSChannelData, dc: DublinCoreExtension?, iTunes: ITunesFeedExtension?) -> Person? {
        let text =
            channel.managingEditor ?? channel.webMaster ?? dc?.author.first ?? dc?.creator.first ?? iTunes?.author
        return text.map(PersonText.parse)
    }

    /// author, dc:author, dc:creator, itunes:author, then an embedded atom:author.
    private func author(
        _ data: RSSItemData, dc: DublinCoreExtension?, iTunes: ITunesItemExtension?,
        atom: AtomElements
    ) -> Person? {
        if let text = data.author ?? dc?.author.first ?? dc?.creator.first ?? iTunes?.author {
            return PersonText.parse(text)
        }
        guard let atomAuthor = atom.elements("author").first else { return nil }
        let name = atomAuthor.child("name")?.value.nonEmptyString,
            email = atomAuthor.child("email")?.value.nonEmptyString
        guard name != nil || email != nil else { return nil }
        return Person(name: name, email: email, url: atomAuthor.child("uri")?.value)
    }

    /// The channel image, itunes:image, a media:content image, the first `<img>`
    /// of the description.
    private func image(_ channel: RSSChannelData, iTunes: ITunesFeedExtension?) -> Image? {
        if let image = channel.image { return image }
        if let url = iTunes?.image { return Image(url: url) }
        for content in channel.extensions["media"]?["content"] ?? [] {
            if content.attributes["type"]?.hasPrefix("image/") == true || content.attributes["medium"] == "image" {
                return Image(url: content.attributes["url"])
            }
        }
        guard scansContentForImages, let description = channel.description else { return nil }
        return HTMLLinks.firstImageSource(in: description).map { Image(url: $0) }
    }

    /// itunes:image, a media:content image, an image enclosure, the first `<img>` of
    /// the content, then of the description.
    private func image(_ data: RSSItemData, iTunes: ITunesItemExtension?) -> Image? {
        if let url = iTunes?.image { return Image(url: url) }
        for content in data.extensions["media"]?["content"] ?? [] {
            if content.attributes["type"]?.contains("image") == true
                || content.attributes["medium"]?.contains("image") == true
            {
                return Image(url: content.attributes["url"])
            }
        }
        if let enclosure = data.enclosures.first(where: { $0.type?.hasPrefix("image/") == true }) {
            return Image(url: enclosure.url)
        }
        guard scansContentForImages else { return nil }
        if let content = data.content, let source = HTMLLinks.firstImageSource(in: content) {
            return Image(url: source)
        }
        if let description = data.description, let source = HTMLLinks.firstImageSource(in: description) {
            return Image(url: source)
        }
        return nil
    }

    /// `itunes:keywords`, split at commas (trimmed, empty ones dropped).
    private func keywords(_ text: String?) -> [String] {
        guard let text else { return [] }
        return text.split(separator: ",").map { String($0).trimmingASCIIWhiteSpace() }.filter { !$0.isEmpty }
    }

    /// Atom elements embedded in RSS: under `atom`, `atom10` or `atom03`, gofeed's
    /// keys, and any other prefix the feed bound to an Atom namespace — gathered
    /// once per item, and nothing at all for the many items without any.
    struct AtomElements {
        var maps: [[String: [Extension]]] = []

        /// The elements named `name` under the first key that has them.
        func elements(_ name: String) -> [Extension] {
            for map in maps {
                if let elements = map[name], !elements.isEmpty { return elements }
            }
            return []
        }

        func value(_ name: String) -> String? { elements(name).first?.value.nonEmptyString }
    }

    private func atomElements(_ extensions: Extensions) -> AtomElements {
        var atom = AtomElements()
        guard !extensions.isEmpty else { return atom }
        for key in atomKeys { if let map = extensions[key] { atom.maps.append(map) } }
        return atom
    }

    var atomKeys = ["atom", "atom10", "atom03"]

    private func isPageLink(_ link: Extension) -> Bool {
        let rel = link.attributes["rel"] ?? ""
        return rel.isEmpty || rel == "alternate"
    }

    private func link(_ element: Extension) -> Link {
        Link(
            href: element.attributes["href"] ?? "", rel: element.attributes["rel"], type: element.attributes["type"],
            title: element.attributes["title"], hreflang: element.attributes["hreflang"],
            length: element.attributes["length"])
    }
}
