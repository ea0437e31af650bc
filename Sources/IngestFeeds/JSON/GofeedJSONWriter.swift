import IngestCore

/// Writes the members a ``GofeedJSONCodable`` value visits as a gofeed JSON object,
/// leaving out what gofeed's `omitempty` leaves out.
struct GofeedJSONWriter: GofeedMemberVisitor {
    typealias Failure = Never

    /// The members written so far.
    var object = JSONObjectBuilder()

    mutating func string(_ key: String, _ value: inout String?) { object.add(key, value) }

    mutating func string(_ key: String, _ value: inout String) { object.add(key, JSONValue.string(value)) }

    mutating func text(_ key: String, _ value: inout FeedText?) { object.add(key, value?.value) }

    mutating func date(_ key: String, _ value: inout FeedDate?) { object.add(key, value?.rfc3339) }

    mutating func strings(_ key: String, _ values: inout [String]) { object.add(key, values) }

    mutating func links(_ key: String, _ values: inout [Link]) { object.add(key, values.map(\.href)) }

    mutating func object<Value: GofeedJSONCodable>(_ key: String, _ value: inout Value?) {
        object.add(key, value?.gofeedJSONObject)
    }

    mutating func objects<Value: GofeedJSONCodable>(_ key: String, _ values: inout [Value]) {
        object.add(key, values.map(\.gofeedJSONObject))
    }

    mutating func number(_ key: String, _ value: inout Int?) {
        object.add(key, value.map { JSONValue.number(String($0)) })
    }

    mutating func number(_ key: String, _ value: inout Double?) {
        guard let value else { return }
        if value == value.rounded(), abs(value) < 1e15, let whole = Int64(exactly: value) {
            object.add(key, JSONValue.number(String(whole)))
        } else {
            object.add(key, JSONValue.number(String(value)))
        }
    }

    mutating func flag(_ key: String, _ value: inout Bool?) { object.add(key, value.map(JSONValue.bool)) }

    mutating func extensions(_ key: String, _ value: inout Extensions) {
        if !value.isEmpty { object.add(key, Extension.jsonValue(value)) }
    }

    mutating func map(_ key: String, _ value: inout [String: String], always: Bool) {
        if always || !value.isEmpty { object.add(key, Extension.jsonValue(value)) }
    }

    mutating func children(_ key: String, _ value: inout [String: [Extension]]) {
        object.add(key, Extension.jsonValue(value))
    }
}

/// An object's members, gofeed's `omitempty` applied as they are added.
struct JSONObjectBuilder {
    private(set) var members: [(key: String, value: JSONValue)] = []

    mutating func add(_ key: String, _ value: String?) {
        if let value, !value.isEmpty { members.append((key, .string(value))) }
    }

    mutating func add(_ key: String, _ values: [String]) {
        if !values.isEmpty { members.append((key, .array(values.map { .string($0) }))) }
    }

    mutating func add(_ key: String, _ value: JSONValue?) {
        if let value { members.append((key, value)) }
    }

    mutating func add(_ key: String, _ values: [JSONValue]) {
        if !values.isEmpty { members.append((key, .array(values))) }
    }

    var value: JSONValue { .object(members) }
}
