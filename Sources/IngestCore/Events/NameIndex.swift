/// Small integers by name — which column, which field — looked up per value on the
/// hot path.
///
/// A name is found first by its ``Name/id`` in an array, checked against the name
/// itself, so names interned by different ``NameTable``s (two inputs into one
/// output) never take each other's slot; then by the bytes of its qualified name.
/// Bytes, not `String`: Swift's `String` equality follows Unicode canonical
/// equivalence, and "Á" written precomposed and decomposed are two different names
/// in a document, which must stay two columns or two keys.
package struct NameIndex {
    /// By id: the name stored there, held so that no other name can take its
    /// identity; that identity, which is what lookups compare (reading it touches no
    /// reference count, and a writer's lookups must not touch the counts of names the
    /// parsing thread is using); and its value.
    private var byID: [(name: Name?, identity: ObjectIdentifier?, value: Int)] = []
    private var byBytes: [[UInt8]: Int] = [:]

    package init() {}

    /// The value for `name`, if one was stored for it or for a name with the same bytes.
    package mutating func value(for name: Name) -> Int? {
        let id = name.id
        if id < byID.count, byID[id].identity == ObjectIdentifier(name) { return byID[id].value }
        guard let value = byBytes[Array(name.qualified.utf8)] else { return nil }
        remember(name, value)
        return value
    }

    /// Stores `value` for `name` (and for every name with the same bytes).
    package mutating func set(_ value: Int, for name: Name) {
        byBytes[Array(name.qualified.utf8)] = value
        remember(name, value)
    }

    /// Stores `value` for the name spelled `qualified`.
    package mutating func set(_ value: Int, forQualified qualified: String) {
        byBytes[Array(qualified.utf8)] = value
    }

    /// The value stored for the name spelled `qualified`.
    package func value(forQualified qualified: String) -> Int? {
        byBytes[Array(qualified.utf8)]
    }

    private mutating func remember(_ name: Name, _ value: Int) {
        if byID.count <= name.id { byID += Array(repeating: (nil, nil, -1), count: name.id + 1 - byID.count) }
        byID[name.id] = (name, ObjectIdentifier(name), value)
    }
}
