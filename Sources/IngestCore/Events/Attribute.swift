/// One attribute of a starting element. ``value`` points into the parser's buffer and
/// is valid only during the call that delivered it; use ``string`` to keep it.
public struct Attribute {
    // Safety: every parser interns into a table it owns (`names`) and a table never
    // removes a name, so the name outlives the call that delivers the attribute.
    /// The attribute's interned name: ``Name/local``, ``Name/namespaceURI`` (for a
    /// prefixed attribute) and ``Name/qualified`` as written. Held by its
    /// ``NameTable`` for the whole parse, so the event carries it without reference
    /// counting. Assign it to a `Name` variable to keep it beyond the parse.
    public unowned(unsafe) let name: Name
    /// The value's UTF-8 bytes, entities and character references resolved and white
    /// space normalised as XML prescribes; valid only during the call.
    public let value: UnsafeBufferPointer<UInt8>

    /// An attribute whose value is `value`, borrowed for as long as the event lasts
    /// (parsers and test harnesses make them).
    public init(name: Name, value: UnsafeBufferPointer<UInt8>) {
        self.name = name
        self.value = value
    }

    /// The value as a `String` (allocates).
    public var string: String { String(decoding: value, as: UTF8.self) }
}

/// The attributes of a starting element, in document order.
public struct Attributes: RandomAccessCollection {
    @usableFromInline let storage: UnsafeBufferPointer<Attribute>

    /// The attributes in `storage`, which must outlive the event they are sent with.
    public init(_ storage: UnsafeBufferPointer<Attribute>) { self.storage = storage }

    /// No attributes.
    public static var none: Attributes { Attributes(UnsafeBufferPointer(start: nil, count: 0)) }

    public var startIndex: Int { 0 }
    public var endIndex: Int { storage.count }
    public subscript(position: Int) -> Attribute { storage[position] }

    /// The value of the attribute whose qualified name is `name`, as a `String`.
    public subscript(name: String) -> String? {
        first { $0.name.qualified == name }?.string
    }
}
