import IngestFeeds
import IngestCore

/// gofeed's universal model as a schema, to read an expected JSON file the way
/// gofeed's own translator test does: `json.Unmarshal` into `gofeed.Feed`, which
/// drops keys the model does not have (`"enclosure"`, a person's `"avatar"`) and
/// empty values its `omitempty` tags leave out, then compared with the
/// translator's result. Here the unmarshalled value is written back as JSON, in
/// sorted key order, to compare with ours as JSON values.
enum GofeedJSON {
    indirect enum Field {
        case string, time, strings, stringMap
        case object(String)
        case objects(String)
        case extensions
        case extensionMap
    }

    /// Per struct: (key, type, omitempty).
    static let schema: [String: [(String, Field, Bool)]] = [
        "Feed": [
            ("title", .string, true), ("description", .string, true), ("link", .string, true),
            ("feedLink", .string, true), ("links", .strings, true), ("updated", .string, true),
            ("updatedParsed", .time, true), ("published", .string, true), ("publishedParsed", .time, true),
            ("author", .object("Person"), true), ("authors", .objects("Person"), true), ("language", .string, true),
            ("image", .object("Image"), true), ("copyright", .string, true), ("generator", .string, true),
            ("categories", .strings, true), ("dcExt", .object("DublinCore"), true),
            ("itunesExt", .object("ITunesFeed"), true), ("extensions", .extensions, true),
            ("custom", .stringMap, true), ("items", .objects("Item"), false), ("feedType", .string, false),
            ("feedVersion", .string, false)
        ],
        "Item": [
            ("title", .string, true), ("description", .string, true), ("content", .string, true),
            ("link", .string, true), ("links", .strings, true), ("updated", .string, true),
            ("updatedParsed", .time, true), ("published", .string, true), ("publishedParsed", .time, true),
            ("author", .object("Person"), true), ("authors", .objects("Person"), true), ("guid", .string, true),
            ("image", .object("Image"), true), ("categories", .strings, true),
            ("enclosures", .objects("Enclosure"), true), ("dcExt", .object("DublinCore"), true),
            ("itunesExt", .object("ITunesItem"), true), ("extensions", .extensions, true), ("custom", .stringMap, true)
        ],
        "Person": [("name", .string, true), ("email", .string, true)],
        "Image": [("url", .string, true), ("title", .string, true)],
        "Enclosure": [("url", .string, true), ("length", .string, true), ("type", .string, true)],
        "DublinCore": [
            "title", "creator", "author", "subject", "description", "publisher", "contributor", "date",
            "type", "format", "identifier", "source", "language", "relation", "coverage", "rights"
        ]
        .map { ($0, .strings, true) },
        "ITunesFeed": [
            ("author", .string, true), ("block", .string, true), ("categories", .objects("ITunesCategory"), true),
            ("explicit", .string, true), ("keywords", .string, true), ("owner", .object("ITunesOwner"), true),
            ("subtitle", .string, true), ("summary", .string, true), ("image", .string, true),
            ("complete", .string, true), ("newFeedUrl", .string, true), ("type", .string, true)
        ],
        "ITunesItem": [
            "author", "block", "duration", "explicit", "keywords", "subtitle", "summary", "image",
            "isClosedCaptioned", "episode", "season", "order", "episodeType"
        ].map { ($0, .string, true) },
        "ITunesCategory": [("text", .string, true), ("subcategory", .object("ITunesCategory"), true)],
        "ITunesOwner": [("email", .string, true), ("name", .string, true)],
        // gofeed always writes these four; its translator never leaves a map nil.
        "Extension": [
            ("name", .string, false), ("value", .string, false), ("attrs", .stringMap, false),
            ("children", .extensionMap, false)
        ]
    ]

    /// `value` read into gofeed's `Feed` and written back, keys sorted.
    static func normalized(feed value: JSONValue) -> JSONValue {
        normalize(value, as: "Feed")
    }

    /// Our own JSON with its object keys sorted, to compare as values.
    static func sorted(_ value: JSONValue) -> JSONValue {
        switch value {
        case .array(let items): .array(items.map(sorted))
        case .object(let members): .object(members.map { ($0.key, sorted($0.value)) }.sorted { $0.key < $1.key })
        default: value
        }
    }

    private static func normalize(_ value: JSONValue, as structName: String) -> JSONValue {
        guard case .object(let members) = value else { return .object([]) }
        var result: [(key: String, value: JSONValue)] = []
        for (key, field, omitEmpty) in schema[structName]! {
            let given = members.last { $0.key == key }?.value
            guard let normalizedValue = normalize(given, field) else {
                if !omitEmpty { result.append((key, zero(field))) }
                continue
            }
            result.append((key, normalizedValue))
        }
        return .object(result.sorted { $0.key < $1.key })
    }

    /// The field as gofeed writes it back, or `nil` when it is empty (`omitempty`).
    private static func normalize(_ value: JSONValue?, _ field: Field) -> JSONValue? {
        guard let value, value != .null else { return nil }
        switch field {
        case .string:
            guard case .string(let text) = value, !text.isEmpty else { return nil }
            return value
        case .time:
            guard case .string(let text) = value, let date = FeedDate(parsing: text) else { return nil }
            return .string(date.rfc3339)
        case .strings:
            guard case .array(let items) = value, !items.isEmpty else { return nil }
            return .array(items.map { if case .string = $0 { $0 } else { .string("") } })
        case .stringMap:
            guard case .object(let members) = value, !members.isEmpty else { return nil }
            return .object(members.map { ($0.key, $0.value) }.sorted { $0.key < $1.key })
        case .object(let name):
            guard case .object = value else { return nil }
            return normalize(value, as: name)
        case .objects(let name):
            guard case .array(let items) = value, !items.isEmpty else { return nil }
            return .array(items.map { normalize($0, as: name) })
        case .extensions:
            guard case .object(let prefixes) = value, !prefixes.isEmpty else { return nil }
            return .object(
                prefixes.map { prefix in
                    guard case .object(let names) = prefix.value else { return (prefix.key, .object([])) }
                    return (
                        prefix.key,
                        .object(
                            names.map { name in
                                guard case .array(let elements) = name.value else { return (name.key, .array([])) }
                                return (name.key, .array(elements.map { normalize($0, as: "Extension") }))
                            }.sorted { $0.key < $1.key })
                    )
                }.sorted { $0.key < $1.key })
        case .extensionMap:
            guard case .object(let names) = value, !names.isEmpty else { return nil }
            return .object(
                names.map { name in
                    guard case .array(let elements) = name.value else { return (name.key, .array([])) }
                    return (name.key, .array(elements.map { normalize($0, as: "Extension") }))
                }.sorted { $0.key < $1.key })
        }
    }

    /// What gofeed writes for a field that is not `omitempty` and absent: `""` for a
    /// string, `[]`/`{}` for the slices and maps its translator never leaves nil.
    private static func zero(_ field: Field) -> JSONValue {
        switch field {
        case .string, .time: .string("")
        case .strings, .objects: .array([])
        case .stringMap, .extensions, .extensionMap, .object: .object([])
        }
    }
}
