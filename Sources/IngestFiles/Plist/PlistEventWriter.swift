import IngestCore
/// Writes one property list as a stream of events, the way an XML writer does:
/// open a dictionary, a key, a value, close it. ``XMLPlistWriter`` turns the events
/// into text as they come; ``BinaryPlistWriter`` into objects of a `bplist00` file.
/// The record sinks speak only this protocol, so each format is written once.
protocol PlistEventWriter: AnyObject {
    func beginDictionary() throws
    /// The key of the next value in the open dictionary.
    func key(_ key: String) throws
    func endDictionary() throws
    func beginArray() throws
    func endArray() throws
    func scalar(_ value: PlistScalar) throws
    /// A keyed archive's reference to `$objects[value]` (`CF$UID`).
    func uid(_ value: UInt64) throws
    /// `text` as a reader of the written property list gets it back (the XML format
    /// cannot carry every character): two keys of one dictionary must differ so.
    func readBack(_ text: String) -> String
}

extension PlistEventWriter {
    /// Writes nested JSON text as arrays and dictionaries; `null` is left out (of
    /// arrays too: a plist has no null). The text is read by the JSON input's own
    /// reader, as events, so a value nested however deep costs no stack and builds
    /// no tree.
    /// `names` interns the keys; one table serves every value a sink writes.
    func write(json text: String, dates: Bool, names: NameTable) throws {
        try JSONPushParser.parseNested(text, into: PlistJSONForwarder(writer: self, dates: dates), names: names)
    }
}

/// Hands the events of nested JSON text to a ``PlistEventWriter``: a member's key
/// before its value, containers opened and closed, `null` dropped with its key.
private final class PlistJSONForwarder: ParseEventReceiver {
    let writer: any PlistEventWriter
    let dates: Bool
    /// Per open container, whether it is a dictionary (its children need keys).
    private var inDictionary: [Bool] = []
    /// Per open dictionary, the keys written in it as a reader gets them back: a
    /// key that would read as one already there (`a\u{0}` after `a\u{FFFD}` in XML,
    /// a JSON member repeated) gets a suffix, `_2`, as a record's fields do.
    private var keysTaken: [DistinctNames] = []

    init(writer: any PlistEventWriter, dates: Bool) {
        self.writer = writer
        self.dates = dates
    }

    private func key(_ name: Name) throws {
        guard inDictionary.last == true else { return }
        try writer.key(keysTaken[keysTaken.count - 1].claim(writer.readBack(name.qualified)))
    }

    func startElement(_ name: Name, kind: ContentKind, at position: SourcePosition) throws {
        try key(name)
        if kind == .object {
            try writer.beginDictionary()
            keysTaken.append(DistinctNames(comparing: .bytes))
        } else {
            try writer.beginArray()
        }
        inDictionary.append(kind == .object)
    }

    func scalar(_ name: Name, kind: ContentKind, text: UnsafeBufferPointer<UInt8>, at position: SourcePosition) throws {
        guard case .scalar(let scalar) = PlistContent(JSONValue(scalar: kind, TextBytes(text)), dates: dates) else {
            return
        }
        try key(name)
        try writer.scalar(scalar)
    }

    func endElement(_ name: Name, at position: SourcePosition) throws {
        if inDictionary.removeLast() {
            keysTaken.removeLast()
            try writer.endDictionary()
        } else {
            try writer.endArray()
        }
    }

    // JSON has no XML elements or text.
    func startElement(_ name: Name, attributes: Attributes, at position: SourcePosition) throws {}
    func text(_ bytes: UnsafeBufferPointer<UInt8>, at position: SourcePosition) throws {}
}
