import IngestCore

// gofeed's JSON, exactly: its keys (camelCase, `dcExt`, `itunesExt`), in the order
// of its structs, empty fields left out (`omitempty`) except where gofeed writes
// them always (a feed's `items`, `feedType` and `feedVersion`, and an extension's
// `value`, `attrs` and `children`), dates as RFC 3339 in UTC. Each model type says
// once which members it has, in ``GofeedJSONCodable/visitGofeedMembers(_:)``; the
// writer (``GofeedJSONWriter``) and the decoder (``GofeedJSONReader``) both walk that
// description, so the JSON written and the JSON read back cannot drift apart.

/// One walk over a model value's gofeed members, in gofeed's order: writing reads
/// each member, decoding sets it. Each method says how one kind of member is
/// written, left out and read.
protocol GofeedMemberVisitor {
    /// What the walk can fail with: nothing when writing, the decoder's errors when reading.
    associatedtype Failure: Error

    /// A string, left out when absent (the model holds no `""`).
    mutating func string(_ key: String, _ value: inout String?) throws(Failure)
    /// A string written always, `""` when missing.
    mutating func string(_ key: String, _ value: inout String) throws(Failure)
    /// A text, as its string; read back with its type guessed (``FeedText``).
    mutating func text(_ key: String, _ value: inout FeedText?) throws(Failure)
    /// A date, as RFC 3339 in UTC.
    mutating func date(_ key: String, _ value: inout FeedDate?) throws(Failure)
    /// Strings, left out when empty.
    mutating func strings(_ key: String, _ values: inout [String]) throws(Failure)
    /// Links, as their `href`s.
    mutating func links(_ key: String, _ values: inout [Link]) throws(Failure)
    /// A nested gofeed object, left out when absent.
    mutating func object<Value: GofeedJSONCodable>(_ key: String, _ value: inout Value?) throws(Failure)
    /// Nested gofeed objects, left out when none.
    mutating func objects<Value: GofeedJSONCodable>(_ key: String, _ values: inout [Value]) throws(Failure)
    /// A whole number, left out when absent.
    mutating func number(_ key: String, _ value: inout Int?) throws(Failure)
    /// A decimal, left out when absent; a whole one is written without a fraction
    /// (`60`, not `60.0`).
    mutating func number(_ key: String, _ value: inout Double?) throws(Failure)
    /// A flag, as a JSON boolean; left out when absent.
    mutating func flag(_ key: String, _ value: inout Bool?) throws(Failure)
    /// Extensions by prefix and name, keys sorted as Go writes maps; left out when empty.
    mutating func extensions(_ key: String, _ value: inout Extensions) throws(Failure)
    /// A map of strings, keys sorted; left out when empty unless `always`.
    mutating func map(_ key: String, _ value: inout [String: String], always: Bool) throws(Failure)
    /// An extension's children by name, keys sorted, written always.
    mutating func children(_ key: String, _ value: inout [String: [Extension]]) throws(Failure)
}

/// A model type whose JSON is gofeed's (or, for the Podcasting 2.0 views, written
/// beside gofeed's), described once by ``visitGofeedMembers(_:)``: `Encodable`
/// writes it and `Decodable` reads it from that description.
protocol GofeedJSONCodable: Codable {
    /// The value before decoding sets any member: every member absent or empty.
    init()
    /// Visits every member of the value's JSON, in gofeed's order.
    mutating func visitGofeedMembers<Visitor: GofeedMemberVisitor>(_ visitor: inout Visitor) throws(Visitor.Failure)
}

extension GofeedJSONCodable {
    /// The value as gofeed's JSON object, members in gofeed's order.
    var gofeedJSONObject: JSONValue {
        var writer = GofeedJSONWriter()
        var copy = self
        copy.visitGofeedMembers(&writer)
        return writer.object.value
    }

    /// Encodes the gofeed JSON object: gofeed's keys, in its order where the encoder
    /// keeps order.
    public func encode(to encoder: any Encoder) throws {
        try EncodableJSON(gofeedJSONObject).encode(to: encoder)
    }

    /// Decodes gofeed's JSON; absent members are empty.
    public init(from decoder: any Decoder) throws {
        var reader = GofeedJSONReader(try decoder.container(keyedBy: GofeedJSONReader.Key.self))
        self.init()
        try visitGofeedMembers(&reader)
    }
}
