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
    /// Writes nested JSON as arrays and dictionaries; `null` is left out (of arrays
    /// too: a plist has no null).
    func write(_ value: JSONValue, dates: Bool) throws {
        switch value {
        case .array(let items):
            try beginArray()
            for item in items { try write(item, dates: dates) }
            try endArray()
        case .object(let members):
            try beginDictionary()
            for member in members {
                if case .null = member.value { continue }
                try key(member.key)
                try write(member.value, dates: dates)
            }
            try endDictionary()
        default:
            if case .scalar(let scalar) = PlistContent(value, dates: dates) { try self.scalar(scalar) }
        }
    }
}
