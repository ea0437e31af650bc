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
}

extension PlistEventWriter {
    /// Writes nested JSON text as arrays and dictionaries; `null` is left out (of
    /// arrays too: a plist has no null). The text is read as a stream of events, so
    /// a value nested however deep costs no stack and builds no tree.
    func write(json text: String, dates: Bool) throws {
        var text = text
        try text.withUTF8 { bytes in
            var parser = JSONTextParser(bytes: bytes)
            // A member's key waits for its value: a null drops both.
            var pendingKey: String?
            while let event = try parser.next() {
                switch event {
                case .key(let key):
                    pendingKey = key
                    continue
                case .value(let value):
                    if case .scalar(let scalar) = PlistContent(value, dates: dates) {
                        if let pendingKey { try key(pendingKey) }
                        try self.scalar(scalar)
                    }
                case .beginArray:
                    if let pendingKey { try key(pendingKey) }
                    try beginArray()
                case .beginObject:
                    if let pendingKey { try key(pendingKey) }
                    try beginDictionary()
                case .endArray: try endArray()
                case .endObject: try endDictionary()
                }
                pendingKey = nil
            }
        }
    }
}
