import Foundation

/// Writes your own `Encodable` values through any ``RecordSink`` — SQLite, a
/// property list, an archive, JSON — as records of `table`, one at a time.
///
/// ```swift
/// try SQLiteOutput(path: "people.db", mode: .replace).writeAndCommit { sink in
///     try writeRecords(people, as: "people", to: sink)
/// }
/// ```
///
/// Each value's top-level properties become fields. Strings are text; integers and
/// floating-point numbers are numbers under the same lossless rule as parsed input
/// (``FieldValue/Number``), otherwise their text; `Bool` is a Boolean; `nil` is
/// null; a `Date` is ISO 8601 text (which plist sinks write as `<date>`); a `Data`
/// property is binary data (``FieldValue/data(_:)``: a BLOB, plist `data`, `NSData`,
/// base64 in JSON); nested structs and arrays are one field holding JSON, with any
/// `Data` inside them as base64 text, since JSON has no bytes.
/// The output the sink belongs to commits what was written.
public func writeRecords<Values: Sequence>(
    _ values: Values, as table: String, to sink: any RecordSink,
    names: NameTable = NameTable()
) throws where Values.Element: Encodable {
    for value in values {
        try sink.write(try RecordEncoder.record(value, table: table, names: names))
    }
}

/// Turns an `Encodable` value into an ``IngestRecord``: see ``writeRecords(_:as:to:names:)``.
enum RecordEncoder {
    static func record(_ value: some Encodable, table: String, names: NameTable) throws -> IngestRecord {
        let root = try TreeEncoder.encodeNode(value)
        guard case .object(let members) = root.content else {
            throw EncodingError.invalidValue(
                value,
                .init(
                    codingPath: [],
                    debugDescription: "a record must encode as keyed properties, not \(root.tree.summary)"))
        }
        return IngestRecord(
            table: table, fields: members.map { IngestRecord.Field(name: names.intern($0.0), value: field($0.1)) })
    }

    /// A top-level property: its bytes when it is `Data`, else its tree's value.
    static func field(_ node: TreeEncoder.Node) -> FieldValue {
        if case .data(let bytes) = node.content { return .data(bytes) }
        return field(node.tree)
    }

    static func field(_ value: JSONValue) -> FieldValue {
        switch value {
        case .null: return .null
        case .bool(let flag): return .bool(flag)
        case .string(let text): return .text(text)
        case .number(let text):
            var text = text
            return text.withUTF8 { FieldValue.inferring($0) }
        case .array: return .json(value.serialized, .array)
        case .object: return .json(value.serialized, .object)
        }
    }
}

/// An `Encoder` producing a ``JSONValue`` tree.
final class TreeEncoder: Encoder {
    /// A value under construction: containers are shared references so nested
    /// containers can fill them after they are handed out.
    final class Node {
        enum Content {
            case value(JSONValue), object([(String, Node)]), array([Node])
            /// A `Data` value: its bytes, for a top-level property to become
            /// ``FieldValue/data(_:)``; base64 text in a JSON tree.
            case data([UInt8])
        }
        var content: Content = .value(.null)

        var tree: JSONValue {
            switch content {
            case .value(let value): value
            case .data(let bytes): .string(Base64.encode(bytes))
            case .object(let members): .object(members.map { ($0.0, $0.1.tree) })
            case .array(let items): .array(items.map(\.tree))
            }
        }
    }

    let node: Node
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(node: Node = Node(), codingPath: [any CodingKey] = []) {
        self.node = node
        self.codingPath = codingPath
    }

    /// The encoded value, not yet a ``JSONValue`` (``Node/tree``), so a `Data`
    /// property is still bytes.
    static func encodeNode(_ value: some Encodable) throws -> Node {
        let encoder = TreeEncoder()
        try encoder.encodeValue(value)
        return encoder.node
    }

    /// Encodes `value`, with the few types whose own encoding would not be what a
    /// record wants turned into text (or, for `Data`, kept as bytes) first.
    func encodeValue(_ value: some Encodable) throws {
        switch value {
        case let date as Date: node.content = .value(.string(date.formatted(.iso8601)))
        case let data as Data: node.content = .data([UInt8](data))
        case let url as URL: node.content = .value(.string(url.absoluteString))
        default: try value.encode(to: self)
        }
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if case .object = node.content {} else { node.content = .object([]) }
        return KeyedEncodingContainer(KeyedTreeEncoding(node: node, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .array = node.content {} else { node.content = .array([]) }
        return UnkeyedTreeEncoding(node: node, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { SingleTreeEncoding(encoder: self) }
}

private struct SingleTreeEncoding: SingleValueEncodingContainer {
    let encoder: TreeEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    private func set(_ value: JSONValue) { encoder.node.content = .value(value) }

    mutating func encodeNil() throws { set(.null) }
    mutating func encode(_ value: Bool) throws { set(.bool(value)) }
    mutating func encode(_ value: String) throws { set(.string(value)) }
    mutating func encode(_ value: Double) throws { try set(Self.number(value, codingPath)) }
    mutating func encode(_ value: Float) throws { try set(Self.number(Double(value), codingPath)) }
    mutating func encode(_ value: Int) throws { set(.number(String(value))) }
    mutating func encode(_ value: Int8) throws { set(.number(String(value))) }
    mutating func encode(_ value: Int16) throws { set(.number(String(value))) }
    mutating func encode(_ value: Int32) throws { set(.number(String(value))) }
    mutating func encode(_ value: Int64) throws { set(.number(String(value))) }
    mutating func encode(_ value: UInt) throws { set(.number(String(value))) }
    mutating func encode(_ value: UInt8) throws { set(.number(String(value))) }
    mutating func encode(_ value: UInt16) throws { set(.number(String(value))) }
    mutating func encode(_ value: UInt32) throws { set(.number(String(value))) }
    mutating func encode(_ value: UInt64) throws { set(.number(String(value))) }
    mutating func encode<T: Encodable>(_ value: T) throws { try encoder.encodeValue(value) }

    static func number(_ value: Double, _ codingPath: [any CodingKey]) throws -> JSONValue {
        guard value.isFinite else {
            throw EncodingError.invalidValue(
                value, .init(codingPath: codingPath, debugDescription: "\(value) has no JSON or SQL number form"))
        }
        return .number(value.description)
    }
}

private struct KeyedTreeEncoding<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: TreeEncoder.Node
    let codingPath: [any CodingKey]

    /// The member for `key`, created on first use.
    private func child(_ key: Key) -> TreeEncoder.Node {
        guard case .object(var members) = node.content else { fatalError("keyed container over a non-object") }
        if let existing = members.first(where: { $0.0 == key.stringValue }) { return existing.1 }
        let child = TreeEncoder.Node()
        members.append((key.stringValue, child))
        node.content = .object(members)
        return child
    }

    private func encoder(_ key: Key) -> TreeEncoder { TreeEncoder(node: child(key), codingPath: codingPath + [key]) }

    mutating func encodeNil(forKey key: Key) throws { child(key).content = .value(.null) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { try encoder(key).encodeValue(value) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        encoder(key).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        encoder(key).unkeyedContainer()
    }
    mutating func superEncoder() -> any Encoder { TreeEncoder(node: node, codingPath: codingPath) }
    mutating func superEncoder(forKey key: Key) -> any Encoder { encoder(key) }
}

private struct UnkeyedTreeEncoding: UnkeyedEncodingContainer {
    let node: TreeEncoder.Node
    let codingPath: [any CodingKey]
    var count: Int {
        if case .array(let items) = node.content { return items.count }
        return 0
    }

    private struct Index: CodingKey {
        var intValue: Int?
        var stringValue: String { "\(intValue!)" }
        init(intValue: Int) { self.intValue = intValue }
        init?(stringValue: String) { nil }
    }

    private func appended() -> TreeEncoder {
        guard case .array(var items) = node.content else { fatalError("unkeyed container over a non-array") }
        let child = TreeEncoder.Node()
        items.append(child)
        node.content = .array(items)
        return TreeEncoder(node: child, codingPath: codingPath + [Index(intValue: items.count - 1)])
    }

    mutating func encodeNil() throws { appended().node.content = .value(.null) }
    mutating func encode<T: Encodable>(_ value: T) throws { try appended().encodeValue(value) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) -> KeyedEncodingContainer<
        NestedKey
    > {
        appended().container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { appended().unkeyedContainer() }
    mutating func superEncoder() -> any Encoder { appended() }
}
