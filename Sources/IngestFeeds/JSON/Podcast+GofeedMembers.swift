import IngestCore

// The Podcasting 2.0 views as JSON: under `podcastExt`, beside gofeed's `itunesExt`
// in a feed's and an item's JSON (gofeed has no such key, so gofeed's keys keep
// gofeed's values). Each view's members are described once, as gofeed's own types
// are (GofeedMembers.swift): keys are the Swift property names except `protocol`,
// `default`, `locked` and `blocked`; empty fields are left out as gofeed leaves its
// own out; times and numbers are JSON numbers, flags JSON booleans, parsed dates
// RFC 3339 in UTC. An `init()` here is the empty value decoding starts from.

extension PodcastFeedExtension: GofeedJSONCodable {
    mutating func visitGofeedMembers<Visitor: GofeedMemberVisitor>(_ visitor: inout Visitor) throws(Visitor.Failure) {
        try visitor.object("locked", &locked)
        try visitor.objects("funding", &funding)
        try visitor.objects("persons", &persons)
        try visitor.objects("locations", &locations)
        try visitor.objects("trailers", &trailers)
        try visitor.object("license", &license)
        try visitor.string("guid", &guid)
        try visitor.objects("values", &values)
        try visitor.string("medium", &medium)
        try visitor.string("imagesSrcset", &imagesSrcset)
        try visitor.objects("images", &images)
        try visitor.objects("liveItems", &liveItems)
        try visitor.objects("socialInteracts", &socialInteracts)
        try visitor.objects("blocks", &blocks)
        try visitor.objects("txts", &txts)
        try visitor.objects("remoteItems", &remoteItems)
        try visitor.objects("podroll", &podroll)
        try visitor.object("updateFrequency", &updateFrequency)
        try visitor.flag("usesPodping", &usesPodping)
        try visitor.object("chat", &chat)
        try visitor.object("publisher", &publisher)
    }
}

extension PodcastItemExtension: GofeedJSONCodable {
    mutating func visitGofeedMembers<Visitor: GofeedMemberVisitor>(_ visitor: inout Visitor) throws(Visitor.Failure) {
        try visitor.objects("transcripts", &transcripts)
        try visitor.object("chapters", &chapters)
        try visitor.objects("soundbites", &soundbites)
        try visitor.objects("persons", &persons)
        try visitor.objects("locations", &locations)
        try visitor.object("season", &season)
        try visitor.object("episode", &episode)
        try visitor.object("license", &license)
        try visitor.objects("alternateEnclosures", &alternateEnclosures)
        try visitor.objects("values", &values)
        try visitor.string("imagesSrcset", &imagesSrcset)
        try visitor.objects("images", &images)
        try visitor.objects("socialInteracts", &socialInteracts)
        try visitor.objects("txts", &txts)
        try visitor.object("chat", &chat)
        try visitor.objects("funding", &funding)
        try visitor.objects("contentLinks", &contentLinks)
    }
}

extension PodcastAlternateEnclosure: GofeedJSONCodable {
    init() {}

    mutating func visitGofeedMembers<Visitor: GofeedMemberVisitor>(_ visitor: inout Visitor) throws(Visitor.Failure) {
        try visitor.string("type", &type)
        try visitor.number("length", &length)
        try visitor.number("bitrate", &bitrate)
        try visitor.number("height", &height)
        try visitor.string("lang", &lang)
        try visitor.string("title", &title)
        try visitor.string("rel", &rel)
        try visitor.string("codecs", &codecs)
        try visitor.flag("default", &isDefault)
        try visitor.objects("sources", &sources)
        try visitor.object("integrity", &integrity)
    }
}

extension PodcastValue: GofeedJSONCodable {
    init() {}

    mutating func visitGofeedMembers<Visitor: GofeedMemberVisitor>(_ visitor: inout Visitor) throws(Visitor.Failure) {
        try visitor.string("type", &type)
        try visitor.string("method", &method)
        try visitor.string("suggested", &suggested)
        try visitor.objects("recipients", &recipients)
        try visitor.objects("timeSplits", &timeSplits)
    }
}

extension PodcastValueTimeSplit: GofeedJSONCodable {
    init() {}

    mutating func visitGofeedMembers<Visitor: GofeedMemberVisitor>(_ visitor: inout Visitor) throws(Visitor.Failure) {
        try visitor.number("startTime", &startTime)
        try visitor.number("duration", &duration)
        try visitor.number("remoteStartTime", &remoteStartTime)
        try visitor.number("remotePercentage", &remotePercentage)
        try visitor.object("remoteItem", &remoteItem)
        try visitor.objects("recipients", &recipients)
    }
}

extension PodcastLiveItem: GofeedJSONCodable {
    init() {}

    mutating func visitGofeedMembers<Visitor: GofeedMemberVisitor>(_ visitor: inout Visitor) throws(Visitor.Failure) {
        try visitor.string("status", &status)
        try visitor.string("start", &start)
        try visitor.date("startParsed", &startParsed)
        try visitor.string("end", &end)
        try visitor.date("endParsed", &endParsed)
        try visitor.string("title", &title)
        try visitor.string("guid", &guid)
        try visitor.objects("contentLinks", &contentLinks)
        try visitor.objects("alternateEnclosures", &alternateEnclosures)
    }
}

extension PodcastTranscript: GofeedJSONCodable {
    init() { url = "" }

    mutating func visitGofeedMembers<Visitor: GofeedMemberVisitor>(_ visitor: inout Visitor) throws(Visitor.Failure) {
        try visitor.string("url", &url)
        try visitor.string("type", &type)
        try visitor.string("language", &language)
        try visitor.string("rel", &rel)
    }
}

extension PodcastChapters: GofeedJSONCodable {
    init() { url = "" }

    mutating func visitGofeedMembers<Visitor: GofeedMemberVisitor>(_ visitor: inout Visitor) throws(Visitor.Failure) {
        try visitor.string("url", &url)
        try visitor.string("type", &type)
    }
}

extension PodcastSoundbite: GofeedJSONCodable {
    init() {}

    mutating func visitGofeedMembers<Visitor: GofeedMemberVisitor>(_ visitor: inout Visitor) throws(Visitor.Failure) {
        try visitor.number("startTime", &startTime)
        try visitor.number("duration", &duration)
        try visitor.string("title", &title)
    }
}

extension PodcastPerson: GofeedJSONCodable {
    init() { name = "" }

    mutating func visitGofeedMembers<Visitor: GofeedMemberVisitor>(_ visitor: inout Visitor) throws(Visitor.Failure) {
        try visitor.string("name", &name)
        try visitor.string("role", &role)
        try visitor.string("group", &group)
        try visitor.string("img", &img)
        try visitor.string("href", &href)
    }
}

extension PodcastLocation: GofeedJSONCodable {
    init() {}

    mutating func visitGofeedMembers<Visitor: GofeedMemberVisitor>(_ visitor: inout Visitor) throws(Visitor.Failure) {
        try visitor.string("name", &name)
        try visitor.string("geo", &geo)
        try visitor.string("osm", &osm)
        try visitor.string("rel", &rel)
        try visitor.string("country", &country)
    }
}

extension PodcastSeason: GofeedJSONCodable {
    init() {}

    mutating func visitGofeedMembers<Visitor: GofeedMemberVisitor>(_ visitor: inout Visitor) throws(Visitor.Failure) {
        try visitor.number("number", &number)
        try visitor.string("name", &name)
    }
}

extension PodcastEpisode: GofeedJSONCodable {
    init() {}

    mutating func visitGofeedMembers<Visitor: GofeedMemberVisitor>(_ visitor: inout Visitor) throws(Visitor.Failure) {
        try visitor.number("number", &number)
        try visitor.string("display", &display)
    }
}

extension PodcastTrailer: GofeedJSONCodable {
    init() { url = "" }

    mutating func visitGofeedMembers<Visitor: GofeedMemberVisitor>(_ visitor: inout Visitor) throws(Visitor.Failure) {
        try visitor.string("title", &title)
        try visitor.string("url", &url)
        try visitor.string("pubdate", &pubdate)
        try visitor.date("pubdateParsed", &pubdateParsed)
        try visitor.number("length", &length)
        try visitor.string("type", &type)
        try visitor.number("season", &season)
    }
}

extension PodcastFunding: GofeedJSONCodable {
    init() { url = "" }

    mutating func visitGofeedMembers<Visitor: GofeedMemberVisitor>(_ visitor: inout Visitor) throws(Visitor.Failure) {
        try visitor.string("url", &url)
        try visitor.string("text", &text)
    }
}

extension PodcastLicense: GofeedJSONCodable {
    init() {}

    mutating func visitGofeedMembers<Visitor: GofeedMemberVisitor>(_ visitor: inout Visitor) throws(Visitor.Failure) {
        try visitor.string("name", &name)
        try visitor.string("url", &url)
    }
}

extension PodcastSource: GofeedJSONCodable {
    init() { uri = "" }

    mutating func visitGofeedMembers<Visitor: GofeedMemberVisitor>(_ visitor: inout Visitor) throws(Visitor.Failure) {
        try visitor.string("uri", &uri)
        try visitor.string("contentType", &contentType)
    }
}

extension PodcastIntegrity: GofeedJSONCodable {
    init() {}

    mutating func visitGofeedMembers<Visitor: GofeedMemberVisitor>(_ visitor: inout Visitor) throws(Visitor.Failure) {
        try visitor.string("type", &type)
        try visitor.string("value", &value)
    }
}

extension PodcastValueRecipient: GofeedJSONCodable {
    init() { address = "" }

    mutating func visitGofeedMembers<Visitor: GofeedMemberVisitor>(_ visitor: inout Visitor) throws(Visitor.Failure) {
        try visitor.string("name", &name)
        try visitor.string("customKey", &customKey)
        try visitor.string("customValue", &customValue)
        try visitor.string("type", &type)
        try visitor.string("address", &address)
        try visitor.number("split", &split)
        try visitor.flag("fee", &fee)
    }
}

extension PodcastRemoteItem: GofeedJSONCodable {
    init() {}

    mutating func visitGofeedMembers<Visitor: GofeedMemberVisitor>(_ visitor: inout Visitor) throws(Visitor.Failure) {
        try visitor.string("feedGuid", &feedGuid)
        try visitor.string("feedUrl", &feedUrl)
        try visitor.string("itemGuid", &itemGuid)
        try visitor.string("medium", &medium)
    }
}

extension PodcastContentLink: GofeedJSONCodable {
    init() { href = "" }

    mutating func visitGofeedMembers<Visitor: GofeedMemberVisitor>(_ visitor: inout Visitor) throws(Visitor.Failure) {
        try visitor.string("href", &href)
        try visitor.string("text", &text)
    }
}

extension PodcastSocialInteract: GofeedJSONCodable {
    init() {}

    mutating func visitGofeedMembers<Visitor: GofeedMemberVisitor>(_ visitor: inout Visitor) throws(Visitor.Failure) {
        try visitor.string("uri", &uri)
        try visitor.string("protocol", &socialProtocol)
        try visitor.string("accountId", &accountId)
        try visitor.string("accountUrl", &accountUrl)
        try visitor.number("priority", &priority)
    }
}

extension PodcastChat: GofeedJSONCodable {
    init() {}

    mutating func visitGofeedMembers<Visitor: GofeedMemberVisitor>(_ visitor: inout Visitor) throws(Visitor.Failure) {
        try visitor.string("server", &server)
        try visitor.string("protocol", &chatProtocol)
        try visitor.string("accountId", &accountId)
        try visitor.string("space", &space)
    }
}

extension PodcastLocked: GofeedJSONCodable {
    init() {}

    mutating func visitGofeedMembers<Visitor: GofeedMemberVisitor>(_ visitor: inout Visitor) throws(Visitor.Failure) {
        try visitor.flag("locked", &isLocked)
        try visitor.string("owner", &owner)
    }
}

extension PodcastBlock: GofeedJSONCodable {
    init() {}

    mutating func visitGofeedMembers<Visitor: GofeedMemberVisitor>(_ visitor: inout Visitor) throws(Visitor.Failure) {
        try visitor.flag("blocked", &isBlocked)
        try visitor.string("id", &id)
    }
}

extension PodcastTxt: GofeedJSONCodable {
    init() { text = "" }

    mutating func visitGofeedMembers<Visitor: GofeedMemberVisitor>(_ visitor: inout Visitor) throws(Visitor.Failure) {
        try visitor.string("purpose", &purpose)
        try visitor.string("text", &text)
    }
}

extension PodcastUpdateFrequency: GofeedJSONCodable {
    init() {}

    mutating func visitGofeedMembers<Visitor: GofeedMemberVisitor>(_ visitor: inout Visitor) throws(Visitor.Failure) {
        try visitor.string("text", &text)
        try visitor.flag("complete", &complete)
        try visitor.string("dtstart", &dtstart)
        try visitor.date("dtstartParsed", &dtstartParsed)
        try visitor.string("rrule", &rrule)
    }
}

extension PodcastImage: GofeedJSONCodable {
    init() { href = "" }

    mutating func visitGofeedMembers<Visitor: GofeedMemberVisitor>(_ visitor: inout Visitor) throws(Visitor.Failure) {
        try visitor.string("href", &href)
        try visitor.string("alt", &alt)
        try visitor.string("aspectRatio", &aspectRatio)
        try visitor.number("width", &width)
        try visitor.number("height", &height)
        try visitor.string("type", &type)
        try visitor.string("purpose", &purpose)
    }
}
