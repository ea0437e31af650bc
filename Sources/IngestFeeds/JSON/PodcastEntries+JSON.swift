import IngestCore

// The JSON of the Podcasting 2.0 entries that hold no arrays: written here, member
// by member in declaration order, empty ones left out; read back by the
// `Decodable` synthesized beside each declaration, whose keys these are (see
// Podcast+Codable.swift for the shape as a whole).

extension PodcastTranscript: Encodable, PodcastJSONWritable {
    var jsonValue: JSONValue {
        var object = JSONObjectBuilder()
        object.add("url", url)
        object.add("type", type)
        object.add("language", language)
        object.add("rel", rel)
        return object.value
    }
}

extension PodcastChapters: Encodable, PodcastJSONWritable {
    var jsonValue: JSONValue {
        var object = JSONObjectBuilder()
        object.add("url", url)
        object.add("type", type)
        return object.value
    }
}

extension PodcastSoundbite: Encodable, PodcastJSONWritable {
    var jsonValue: JSONValue {
        var object = JSONObjectBuilder()
        object.add("startTime", startTime)
        object.add("duration", duration)
        object.add("title", title)
        return object.value
    }
}

extension PodcastPerson: Encodable, PodcastJSONWritable {
    var jsonValue: JSONValue {
        var object = JSONObjectBuilder()
        object.add("name", name)
        object.add("role", role)
        object.add("group", group)
        object.add("img", img)
        object.add("href", href)
        return object.value
    }
}

extension PodcastLocation: Encodable, PodcastJSONWritable {
    var jsonValue: JSONValue {
        var object = JSONObjectBuilder()
        object.add("name", name)
        object.add("geo", geo)
        object.add("osm", osm)
        object.add("rel", rel)
        object.add("country", country)
        return object.value
    }
}

extension PodcastSeason: Encodable, PodcastJSONWritable {
    var jsonValue: JSONValue {
        var object = JSONObjectBuilder()
        object.add("number", number)
        object.add("name", name)
        return object.value
    }
}

extension PodcastEpisode: Encodable, PodcastJSONWritable {
    var jsonValue: JSONValue {
        var object = JSONObjectBuilder()
        object.add("number", number)
        object.add("display", display)
        return object.value
    }
}

extension PodcastTrailer: Encodable, PodcastJSONWritable {
    var jsonValue: JSONValue {
        var object = JSONObjectBuilder()
        object.add("title", title)
        object.add("url", url)
        object.add("pubdate", pubdate)
        object.add("pubdateParsed", pubdateParsed)
        object.add("length", length)
        object.add("type", type)
        object.add("season", season)
        return object.value
    }
}

extension PodcastFunding: Encodable, PodcastJSONWritable {
    var jsonValue: JSONValue {
        var object = JSONObjectBuilder()
        object.add("url", url)
        object.add("text", text)
        return object.value
    }
}

extension PodcastLicense: Encodable, PodcastJSONWritable {
    var jsonValue: JSONValue {
        var object = JSONObjectBuilder()
        object.add("name", name)
        object.add("url", url)
        return object.value
    }
}

extension PodcastSource: Encodable, PodcastJSONWritable {
    var jsonValue: JSONValue {
        var object = JSONObjectBuilder()
        object.add("uri", uri)
        object.add("contentType", contentType)
        return object.value
    }
}

extension PodcastIntegrity: Encodable, PodcastJSONWritable {
    var jsonValue: JSONValue {
        var object = JSONObjectBuilder()
        object.add("type", type)
        object.add("value", value)
        return object.value
    }
}

extension PodcastValueRecipient: Encodable, PodcastJSONWritable {
    var jsonValue: JSONValue {
        var object = JSONObjectBuilder()
        object.add("name", name)
        object.add("customKey", customKey)
        object.add("customValue", customValue)
        object.add("type", type)
        object.add("address", address)
        object.add("split", split)
        object.add("fee", fee)
        return object.value
    }
}

extension PodcastRemoteItem: Encodable, PodcastJSONWritable {
    var jsonValue: JSONValue {
        var object = JSONObjectBuilder()
        object.add("feedGuid", feedGuid)
        object.add("feedUrl", feedUrl)
        object.add("itemGuid", itemGuid)
        object.add("medium", medium)
        return object.value
    }
}

extension PodcastContentLink: Encodable, PodcastJSONWritable {
    var jsonValue: JSONValue {
        var object = JSONObjectBuilder()
        object.add("href", href)
        object.add("text", text)
        return object.value
    }
}

extension PodcastSocialInteract: Encodable, PodcastJSONWritable {
    var jsonValue: JSONValue {
        var object = JSONObjectBuilder()
        object.add("uri", uri)
        object.add("protocol", socialProtocol)
        object.add("accountId", accountId)
        object.add("accountUrl", accountUrl)
        object.add("priority", priority)
        return object.value
    }
}

extension PodcastChat: Encodable, PodcastJSONWritable {
    var jsonValue: JSONValue {
        var object = JSONObjectBuilder()
        object.add("server", server)
        object.add("protocol", chatProtocol)
        object.add("accountId", accountId)
        object.add("space", space)
        return object.value
    }
}

extension PodcastLocked: Encodable, PodcastJSONWritable {
    var jsonValue: JSONValue {
        var object = JSONObjectBuilder()
        object.add("locked", isLocked)
        object.add("owner", owner)
        return object.value
    }
}

extension PodcastBlock: Encodable, PodcastJSONWritable {
    var jsonValue: JSONValue {
        var object = JSONObjectBuilder()
        object.add("blocked", isBlocked)
        object.add("id", id)
        return object.value
    }
}

extension PodcastTxt: Encodable, PodcastJSONWritable {
    var jsonValue: JSONValue {
        var object = JSONObjectBuilder()
        object.add("purpose", purpose)
        object.add("text", text)
        return object.value
    }
}

extension PodcastUpdateFrequency: Encodable, PodcastJSONWritable {
    var jsonValue: JSONValue {
        var object = JSONObjectBuilder()
        object.add("text", text)
        object.add("complete", complete)
        object.add("dtstart", dtstart)
        object.add("dtstartParsed", dtstartParsed)
        object.add("rrule", rrule)
        return object.value
    }
}

extension PodcastImage: Encodable, PodcastJSONWritable {
    var jsonValue: JSONValue {
        var object = JSONObjectBuilder()
        object.add("href", href)
        object.add("alt", alt)
        object.add("aspectRatio", aspectRatio)
        object.add("width", width)
        object.add("height", height)
        object.add("type", type)
        object.add("purpose", purpose)
        return object.value
    }
}
