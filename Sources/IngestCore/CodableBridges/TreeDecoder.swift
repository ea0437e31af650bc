/// Decodes a `Decodable` type from one record's ``JSONValue`` tree, reading XML as
/// naturally as JSON:
///
/// - a key finds a member of that name, or else the attribute `@key`, so
///   `<person id="7"><name>Matt</name></person>` decodes `id` and `name`;
/// - XML text converts to the number or Boolean a property asks for (`"7"` as `Int`;
///   `true`/`false`/`1`/`0` as `Bool`), surrounding white space ignored;
/// - a property that is an array takes a single value as a one-element array, since
///   XML cannot tell one repeated child from a lone one, and an element wrapping
///   children of one name as the list of them (`<tags><tag>a</tag></tags>`);
/// - a missing key or JSON `null` is `nil` for an optional.
struct TreeDecoder: Decoder {
    let value: JSONValue
    let path: TreeCodingPath?
    var codingPath: [any CodingKey] { TreeCodingPath.keys(path) }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(_ value: JSONValue, path: TreeCodingPath? = nil) {
        self.value = value
        self.path = path
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        switch value {
        case .object(let members):
            return KeyedDecodingContainer(KeyedTreeContainer(members: members, path: path))
        case .string(let text) where text.allSatisfy(\.isWhitespace):
            // An empty XML element is an object with no members.
            return KeyedDecodingContainer(KeyedTreeContainer(members: [], path: path))
        default:
            throw mismatch(type, "expected an object (an element with children or attributes)")
        }
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        switch value {
        case .array(let items): UnkeyedTreeContainer(items: items, path: path)
        case .null: UnkeyedTreeContainer(items: [], path: path)
        case .object(let members) where members.count == 1 && !members[0].key.hasPrefix("@"):
            // An XML wrapper: <tags><tag>a</tag><tag>b</tag></tags> lists its children.
            if case .array(let items) = members[0].value {
                UnkeyedTreeContainer(items: items, path: path)
            } else {
                UnkeyedTreeContainer(items: [members[0].value], path: path)
            }
        default: UnkeyedTreeContainer(items: [value], path: path)
        }
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    func mismatch(_ type: Any.Type, _ what: String) -> DecodingError {
        .typeMismatch(type, .init(codingPath: codingPath, debugDescription: "\(what), found \(value.summary)"))
    }
}

extension TreeDecoder: SingleValueDecodingContainer {
    func decodeNil() -> Bool { value == .null }

    func decode(_ type: Bool.Type) throws -> Bool {
        switch value {
        case .bool(let flag): return flag
        case .string(let text):
            switch text.trimmingXMLWhitespace {
            case "true", "1": return true
            case "false", "0": return false
            default: break
            }
        default: break
        }
        throw mismatch(type, "expected true, false, 1 or 0")
    }

    func decode(_ type: String.Type) throws -> String {
        switch value {
        case .string(let text), .number(let text): return text
        case .bool(let flag): return flag ? "true" : "false"
        default: throw mismatch(type, "expected text")
        }
    }

    /// The text of a number: JSON's as written, XML's without surrounding white space.
    private func numberText(_ type: Any.Type) throws -> Substring {
        switch value {
        case .number(let text): return text[...]
        case .string(let text): return text.trimmingXMLWhitespace
        default: throw mismatch(type, "expected a number")
        }
    }

    private func integer<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        let text = try numberText(type)
        if let number = T(text) { return number }
        // JSON writes some integers as `1.0` or `1e3`; take them only when exact.
        if let double = Double(text), let number = T(exactly: double) { return number }
        throw mismatch(type, "expected an integer that fits \(type)")
    }

    private func floatingPoint<T: LosslessStringConvertible>(_ type: T.Type) throws -> T {
        let text = try numberText(type)
        guard let number = T(String(text)) else { throw mismatch(type, "expected a number") }
        return number
    }

    func decode(_ type: Double.Type) throws -> Double { try floatingPoint(type) }
    func decode(_ type: Float.Type) throws -> Float { try floatingPoint(type) }
    func decode(_ type: Int.Type) throws -> Int { try integer(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try T(from: self) }
}

/// The members of an object, by key (or `@key` for an XML attribute).
private struct KeyedTreeContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let members: [(key: String, value: JSONValue)]
    let path: TreeCodingPath?
    var codingPath: [any CodingKey] { TreeCodingPath.keys(path) }

    var allKeys: [Key] {
        members.compactMap { Key(stringValue: $0.key.hasPrefix("@") ? String($0.key.dropFirst()) : $0.key) }
    }

    func lookup(_ key: Key) -> JSONValue? {
        if let member = members.first(where: { $0.key == key.stringValue }) { return member.value }
        let attribute = "@" + key.stringValue
        return members.first(where: { $0.key == attribute })?.value
    }

    func contains(_ key: Key) -> Bool { lookup(key) != nil }

    func decoder(for key: Key) throws -> TreeDecoder {
        guard let value = lookup(key) else {
            throw DecodingError.keyNotFound(
                key,
                .init(codingPath: codingPath, debugDescription: "no \"\(key.stringValue)\" child, attribute or key"))
        }
        return TreeDecoder(value, path: TreeCodingPath(parent: path, key: key))
    }

    func decodeNil(forKey key: Key) throws -> Bool { (lookup(key) ?? .null) == .null }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try decoder(for: key).decode(type) }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decoder(for: key).decode(type) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try decoder(for: key).decode(type) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decoder(for: key).decode(type) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try decoder(for: key).decode(type) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decoder(for: key).decode(type) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try decoder(for: key).decode(type) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try decoder(for: key).decode(type) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try decoder(for: key).decode(type) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decoder(for: key).decode(type) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try decoder(for: key).decode(type) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try decoder(for: key).decode(type) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try decoder(for: key).decode(type) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try decoder(for: key).decode(type) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try decoder(for: key).decode(type) }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        try decoder(for: key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try decoder(for: key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder { TreeDecoder(.object(members), path: path) }
    func superDecoder(forKey key: Key) throws -> any Decoder { try decoder(for: key) }
}

/// The items of a list, in order.
private struct UnkeyedTreeContainer: UnkeyedDecodingContainer {
    let items: [JSONValue]
    let path: TreeCodingPath?
    var codingPath: [any CodingKey] { TreeCodingPath.keys(path) }
    private(set) var currentIndex = 0

    init(items: [JSONValue], path: TreeCodingPath?) {
        self.items = items
        self.path = path
    }

    var count: Int? { items.count }
    var isAtEnd: Bool { currentIndex >= items.count }

    private struct Index: CodingKey {
        var intValue: Int?
        var stringValue: String { "\(intValue!)" }
        init(intValue: Int) { self.intValue = intValue }
        init?(stringValue: String) { nil }
    }

    private mutating func next() throws -> TreeDecoder {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                Any.self, .init(codingPath: codingPath, debugDescription: "the list has only \(items.count) items"))
        }
        defer { currentIndex += 1 }
        return TreeDecoder(items[currentIndex], path: TreeCodingPath(parent: path, key: Index(intValue: currentIndex)))
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, items[currentIndex] == .null else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next().decode(type) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<
        NestedKey
    > {
        try next().container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { try next().unkeyedContainer() }
    mutating func superDecoder() throws -> any Decoder { try next() }
}

/// The keys from a record down to a decoder, shared with the decoders above it: each
/// level adds one node, and the array `Decoder.codingPath` gives is built only when
/// asked for (an error, a type that reads it). Copying the whole path at every
/// level, as arrays would, made a record nested 10 000 deep cost gigabytes.
final class TreeCodingPath {
    let parent: TreeCodingPath?
    let key: any CodingKey

    init(parent: TreeCodingPath?, key: any CodingKey) {
        self.parent = parent
        self.key = key
    }

    /// The keys from the top down to `path`.
    static func keys(_ path: TreeCodingPath?) -> [any CodingKey] {
        var keys: [any CodingKey] = []
        var node = path
        while let current = node {
            keys.append(current.key)
            node = current.parent
        }
        return keys.reversed()
    }
}

extension JSONValue {
    /// A short description for error messages.
    var summary: String {
        switch self {
        case .null: "null"
        case .bool(let flag): "\(flag)"
        case .number(let text): text
        case .string(let text): text.count > 40 ? "\"\(text.prefix(40))…\"" : "\"\(text)\""
        case .array(let items): "a list of \(items.count)"
        case .object: "an object"
        }
    }
}

extension String {
    /// Without leading and trailing XML white space (space, tab, CR, LF).
    var trimmingXMLWhitespace: Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
        guard let first = firstIndex(where: { !isSpace($0) }) else { return "" }
        let last = lastIndex(where: { !isSpace($0) })!
        return self[first...last]
    }
}

extension JSONValue {
    /// The tree decoded as a `T`, as ``TreeDecoder`` reads it (IngestParsers' record streams).
    package func decoded<T: Decodable>(as type: T.Type) throws -> T {
        try TreeDecoder(self).decode(T.self)
    }
}
