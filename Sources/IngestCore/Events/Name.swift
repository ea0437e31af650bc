/// An element or attribute name, interned: every occurrence of the same name in one
/// parse is the same object, so handlers compare names by identity (`===`) or by
/// ``id`` and the hot path never builds a `String` for a name it has seen before.
///
/// For a namespaced name, ``qualified`` is the name as written (`dc:title`),
/// ``local`` is the part after the prefix and ``namespaceURI`` is the URI the prefix
/// was bound to. JSON keys become names with no namespace.
public final class Name: Hashable, CustomStringConvertible, Sendable {
    /// Dense, 0-based number of this name in its ``NameTable``; handy as an array index.
    public let id: Int
    /// The name as written in the document, prefix included (`dc:title`).
    public let qualified: String
    /// The name without its prefix (`title`).
    public let local: String
    /// The namespace the name belongs to, or `nil`.
    public let namespaceURI: String?

    init(id: Int, qualified: String, local: String, namespaceURI: String?) {
        self.id = id
        self.qualified = qualified
        self.local = local
        self.namespaceURI = namespaceURI
    }

    public var description: String { qualified }
    public static func == (lhs: Name, rhs: Name) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

/// The symbol table of one parse: turns the bytes of a name into its interned ``Name``.
///
/// Lookup hashes the bytes (with `Hasher`, seeded per process) into an open-addressed
/// table and compares them
/// byte for byte against one byte arena, so a name seen before costs no allocation
/// and no reference counting.
/// A table is used by one parse on one thread at a time, so it is not `Sendable`;
/// the ``Name``s it hands out are immutable and are.
public final class NameTable {
    // Safety (`@exclusivity(unchecked)`): a table is used by one parse on one thread
    // (it is not `Sendable`), and while one of these properties is being accessed
    // nothing else runs that could touch another: `intern` calls no code of anyone
    // else, and its one closure (in `equalBytes`) only reads `arena`, which nothing
    // writes meanwhile. So no two accesses overlap and the runtime check is not needed.
    /// Per slot: index into `names`, or -1 when empty.
    @exclusivity(unchecked) private var slots = [Int32](repeating: -1, count: 64)
    @exclusivity(unchecked) private var hashes: [UInt64] = []
    /// The bytes of every name, back to back; `spans[id]` locates name `id`.
    @exclusivity(unchecked) private var arena: [UInt8] = []
    @exclusivity(unchecked) private var spans: [(start: Int, count: Int)] = []
    /// Every name interned so far, indexed by ``Name/id``.
    @exclusivity(unchecked) public private(set) var names: [Name] = []
    /// `names` again, unretained: what ``internUnmanaged(_:)`` hands out.
    @exclusivity(unchecked) private var unmanagedNames: [Unmanaged<Name>] = []

    /// An empty table. Each parser interns the names of its document into a table of
    /// its own (IngestParsers' `ExpatPushParser.names`); names from two tables are never equal.
    public init() {}

    /// The byte the parsers put between a namespaced name's URI, local part and
    /// prefix (`URI␁local␁prefix`, Expat's triplets) when they intern it.
    public static let namespaceSeparator: UInt8 = 0x01

    /// The interned name for `bytes`. `separator`, when given, splits Expat's
    /// `URI<sep>local<sep>prefix` namespace triplets.
    public func intern(_ bytes: UnsafeBufferPointer<UInt8>, namespaceSeparator separator: UInt8? = nil) -> Name {
        internUnmanaged(bytes, namespaceSeparator: separator).takeUnretainedValue()
    }

    /// ``intern(_:namespaceSeparator:)`` for a parser that passes names on borrowed
    /// (`_withUnsafeGuaranteedRef`): a name met before costs no reference counting.
    /// The table holds the name.
    package func internUnmanaged(_ bytes: UnsafeBufferPointer<UInt8>, namespaceSeparator separator: UInt8? = nil)
        -> Unmanaged<Name>
    {
        // Swift's own seeded hash, as its dictionaries use: no document can be written
        // whose names all collide. Expat's and the JSON tokenizer's guesses find most
        // names before they get here; libxml2's and the tree's come here each time.
        var hasher = Hasher()
        hasher.combine(bytes: UnsafeRawBufferPointer(bytes))
        let hash = UInt64(truncatingIfNeeded: hasher.finalize())
        let mask = slots.count - 1
        var index = Int(truncatingIfNeeded: hash) & mask
        while true {
            let id = Int(slots[index])
            if id < 0 { break }
            if hashes[id] == hash, spans[id].count == bytes.count, equalBytes(spans[id].start, bytes) {
                return unmanagedNames[id]
            }
            index = (index + 1) & mask
        }
        let name = makeName(bytes, separator: separator)
        slots[index] = Int32(name.id)
        hashes.append(hash)
        spans.append((arena.count, bytes.count))
        arena.append(contentsOf: bytes)
        if names.count * 2 > slots.count { grow() }
        return unmanagedNames[name.id]
    }

    /// Whether `name`, interned here, was interned from exactly `bytes`: a check that
    /// costs one comparison of the bytes, for callers that can guess which name comes next.
    @inline(__always)
    package func matches(_ name: Name, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let span = spans[name.id]
        return span.count == bytes.count && names[name.id] === name && equalBytes(span.start, bytes)
    }

    /// Whether `name`, interned here, was interned from exactly the NUL-terminated
    /// `cString`: ``matches(_:_:)`` without first measuring the string.
    @inline(__always)
    package func matches(_ name: Name, cString: UnsafePointer<CChar>) -> Bool {
        let span = spans[name.id]
        // strncmp's walk: it stops at a shorter string's NUL; equal for `span.count`
        // bytes, the string is at least that long, so reading its next byte stays inside it.
        return names[name.id] === name
            && arena.withUnsafeBufferPointer { arena in
                for index in 0..<span.count {
                    let byte = arena[span.start + index]
                    guard UInt8(bitPattern: cString[index]) == byte else { return false }
                    if byte == 0 { return true }
                }
                return true
            }
            && cString[span.count] == 0
    }

    /// The interned name for a Swift string (no namespace).
    public func intern(_ string: String) -> Name {
        var string = string
        return string.withUTF8 { intern($0) }
    }

    private func equalBytes(_ start: Int, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        return arena.withUnsafeBufferPointer { bytesEqual($0.baseAddress! + start, base, count: bytes.count) }
    }

    private func makeName(_ bytes: UnsafeBufferPointer<UInt8>, separator: UInt8?) -> Name {
        let id = names.count
        let name: Name
        if let separator, bytes.contains(separator) {
            let parts = bytes.split(separator: separator, omittingEmptySubsequences: false)
                .map { String(decoding: UnsafeBufferPointer(rebasing: $0), as: UTF8.self) }
            let uri = parts[0], local = parts.count > 1 ? parts[1] : ""
            let qualified = parts.count > 2 && !parts[2].isEmpty ? "\(parts[2]):\(local)" : local
            name = Name(id: id, qualified: qualified, local: local, namespaceURI: uri)
        } else {
            let string = String(decoding: bytes, as: UTF8.self)
            name = Name(id: id, qualified: string, local: string, namespaceURI: nil)
        }
        names.append(name)
        unmanagedNames.append(Unmanaged.passUnretained(name))
        return name
    }

    private func grow() {
        slots = [Int32](repeating: -1, count: slots.count * 2)
        let mask = slots.count - 1
        for id in names.indices {
            var index = Int(truncatingIfNeeded: hashes[id]) & mask
            while slots[index] >= 0 { index = (index + 1) & mask }
            slots[index] = Int32(id)
        }
    }
}

/// A reference kept without reference counting, for arrays on the hot path whose
/// objects something else owns (names, owned by their ``NameTable``).
///
/// Safety: whoever stores one must make sure that the object is kept alive elsewhere
/// for as long as ``object`` is read. Every use holds a ``Name``, which its
/// ``NameTable`` keeps for as long as the table lives (it never removes one), and
/// reads it only while the parse that interned it runs: `ExpatPushParser`'s open
/// and recent names (its own table), `JSONFieldHandler`'s children (cleared at each
/// element's start), `RecordHandler.seen` (see there).
package struct Unowned<Object: AnyObject> {
    package unowned(unsafe) let object: Object

    @inline(__always)
    package init(_ object: Object) { self.object = object }
}
