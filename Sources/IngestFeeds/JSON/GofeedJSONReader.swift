/// Reads the members a ``GofeedJSONCodable`` value visits from a decoder's gofeed
/// JSON object: an absent member leaves the value's empty default, and an empty
/// optional string is no string, as the writer never writes one.
struct GofeedJSONReader: GofeedMemberVisitor {
    typealias Failure = any Error

    /// A member's key, as gofeed spells it.
    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    private let container: KeyedDecodingContainer<Key>

    init(_ container: KeyedDecodingContainer<Key>) { self.container = container }

    private func decode<Value: Decodable>(_ type: Value.Type, _ key: String) throws -> Value? {
        try container.decodeIfPresent(type, forKey: Key(stringValue: key))
    }

    mutating func string(_ key: String, _ value: inout String?) throws { value = try decode(String.self, key).nonEmpty }

    mutating func string(_ key: String, _ value: inout String) throws { value = try decode(String.self, key) ?? "" }

    mutating func text(_ key: String, _ value: inout FeedText?) throws { value = try decode(FeedText.self, key) }

    mutating func date(_ key: String, _ value: inout FeedDate?) throws { value = try decode(FeedDate.self, key) }

    mutating func strings(_ key: String, _ values: inout [String]) throws {
        values = try decode([String].self, key) ?? []
    }

    mutating func links(_ key: String, _ values: inout [Link]) throws { values = try decode([Link].self, key) ?? [] }

    mutating func object<Value: GofeedJSONCodable>(_ key: String, _ value: inout Value?) throws {
        value = try decode(Value.self, key)
    }

    mutating func objects<Value: GofeedJSONCodable>(_ key: String, _ values: inout [Value]) throws {
        values = try decode([Value].self, key) ?? []
    }

    mutating func number(_ key: String, _ value: inout Int?) throws { value = try decode(Int.self, key) }

    mutating func number(_ key: String, _ value: inout Double?) throws { value = try decode(Double.self, key) }

    mutating func flag(_ key: String, _ value: inout Bool?) throws { value = try decode(Bool.self, key) }

    mutating func extensions(_ key: String, _ value: inout Extensions) throws {
        value = try decode(Extensions.self, key) ?? [:]
    }

    mutating func map(_ key: String, _ value: inout [String: String], always: Bool) throws {
        value = try decode([String: String].self, key) ?? [:]
    }

    mutating func children(_ key: String, _ value: inout [String: [Extension]]) throws {
        value = try decode([String: [Extension]].self, key) ?? [:]
    }
}
