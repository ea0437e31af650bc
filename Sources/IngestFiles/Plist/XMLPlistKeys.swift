import IngestCore
/// The keys the records of one table are written under in an XML property list.
///
/// XML cannot carry every character a name may hold: ``XMLPlistWriter`` writes a NUL
/// (and the other characters ``XMLPlistWriter/readBack(_:)`` names) as U+FFFD, so a
/// field `a\0` would read back as the key of a field named `a\u{FFFD}`. Each field of
/// the table gets one key for all its records, as a reader will see it, distinct
/// from every other field's (see ``IngestCore/DistinctNames``): a field `a\u{FFFD}`
/// met after `a\0` is written `a\u{FFFD}_2`. The binary format carries every name
/// exactly and needs none of this.
struct XMLPlistKeys {
    private var indexOfField = NameIndex()
    private var keys: [String] = []
    private var taken = DistinctNames(comparing: .bytes)

    /// The key of field `name`; `written` is the key the format would give the field
    /// were XML to carry every character (a keyed archive's `$$name`).
    mutating func key(for name: Name, writtenAs written: @autoclosure () -> String) -> String {
        if let index = indexOfField.value(for: name) { return keys[index] }
        keys.append(taken.claim(XMLPlistWriter.readBack(written())))
        indexOfField.set(keys.count - 1, for: name)
        return keys[keys.count - 1]
    }
}
