import IngestCore
/// Writes records as an `NSKeyedArchiver` archive, streamed, with flat memory: what
/// `NSKeyedArchiver.archivedData(withRootObject:)` makes of an `NSArray` of objects
/// whose `encode(with:)` encodes each field under its name.
///
/// The archive is a property list (binary by default, or XML):
///
/// - `$archiver` = `NSKeyedArchiver`, `$version` = 100000, `$top` = `{root: UID 1}`;
/// - `$objects[0]` = `$null`; `$objects[1]` = the root `NSArray`
///   (`NS.objects` = the records' UIDs in order, `$class` → `NSArray`, `NSObject`);
/// - one object per record, of class ``className`` (else ``classNames``' entry for
///   its table, else ``ArchiveClassName`` of its table), `$classes` = [name, `NSObject`]. Its fields, as `NSCoder` stores them:
///   integers, reals and booleans directly in the object (`encodeInt64`,
///   `encodeDouble`, `encodeBool`); text as an `NSString` object referenced by UID
///   (`encodeObject`); binary data (``FieldValue/data(_:)``) as an `NSData`, which
///   `NSKeyedArchiver` stores as the plist `data` object itself, with no `$class`,
///   referenced by UID (`encodeObject`, `decodeObject(of: NSData.self, forKey:)`);
///   nested data as `NSArray` (`NS.objects`) and `NSDictionary`
///   (`NS.keys`, `NS.objects`) objects whose numbers and booleans are `NSNumber`s;
///   `null` fields and `null` in nested data are left out. Text stays text — the
///   plist date rule does not apply, since a class decodes the type it declares.
///   A field name starting with `$` is stored as `$$name`, as `NSKeyedArchiver` does.
///
/// Equal strings are one object with one UID while they are in a cache of the 32 768
/// most recently met distinct strings of at most 64 UTF-8 bytes; a full cache starts
/// over empty. In a binary archive, ``BinaryPlistWriter`` shares keys and values too.
///
/// UIDs are given out in `$objects` order — a record, then what it refers to — and
/// entries are written as they are given out. The root (`$objects[1]`) and the class
/// entries are reserved and filled in at ``finish()``, when the final table names
/// are known.
final class KeyedArchiveSink: FileRecordSink {
    /// The class name for every record, or nil to derive it from the table.
    let className: String?
    let format: PlistFormat
    private let output: OutputFile
    /// Interns the keys of every nested value this sink writes.
    private let nestedNames = NameTable()

    // Binary: entries are objects; `$objects` is a spool of their references.
    private let binary: BinaryPlistWriter?
    private let objectRefs: SpoolFile?
    // XML: entries are text in a spool; the records' UIDs are spooled as 8-byte numbers.
    private let xml: XMLPlistWriter?
    private let objectText: SpoolFile?
    private var writer: any PlistEventWriter { xml ?? binary! }

    /// Binary: references to one UID object per record. XML: the records' UIDs.
    private let recordSpool: SpoolFile
    private var recordCount: UInt64 = 0

    /// The next UID to give out; 0 is `$null`, 1 the root.
    private var nextUID: UInt64 = 2
    private var queue: [Pending] = []
    private var strings: [ExactString: UInt64] = [:]
    static let maxCachedStrings = 32_768
    static let maxCachedStringBytes = 64

    /// Record classes by table, in the order met: their UID and where their entry
    /// was reserved (binary: byte offset in `objectRefs`; XML: in `objectText`).
    private var classes: [(table: String, uid: UInt64, reserved: UInt64)] = []
    /// XML: the keys of each class's fields, by index in ``classes``.
    private var xmlKeys: [XMLPlistKeys] = []
    private var arrayClass: UInt64?
    private var dictionaryClass: UInt64?

    private enum Pending {
        case string(String)
        case scalar(PlistScalar)
        case array([JSONValue])
        case dictionary([(key: String, value: JSONValue)])
        case recordClass(index: Int)
        case foundationClass(String)
    }

    /// Class names by table (a schema's `archiveClass`), for tables ``className`` does not cover.
    let classNames: [String: String]

    init(
        output: OutputFile, format: PlistFormat = .binary, className: String? = nil,
        classNames: [String: String] = [:]
    ) throws {
        self.output = output
        self.format = format
        self.className = className
        self.classNames = classNames
        recordSpool = try output.makeSpool()
        switch format {
        case .binary:
            let refs = try output.makeSpool()
            binary = BinaryPlistWriter(spool: try output.makeSpool())
            objectRefs = refs
            xml = nil
            objectText = nil
            // $objects[0] = "$null"; $objects[1] = the root, filled in at finish.
            try binary!.scalar(.string("$null"))
            try refs.writer.write(bigEndian: UInt64(binary!.lastRef), size: 4)
            try refs.writer.write(bigEndian: 0, size: 4)
        case .xml:
            let text = try output.makeSpool()
            xml = XMLPlistWriter(output: text.writer, depth: 2)
            objectText = text
            binary = nil
            objectRefs = nil
        }
    }

    // MARK: Records

    func write(_ record: IngestRecord) throws {
        let uid = allocate()
        let recordClass = classIndex(for: record.table)
        try writer.beginDictionary()
        try writer.key("$class")
        try writer.uid(classes[recordClass].uid)
        for field in record.fields {
            let key =
                xml == nil
                ? Self.archivedKey(field.name.qualified)
                : xmlKeys[recordClass].key(for: field.name, writtenAs: Self.archivedKey(field.name.qualified))
            switch field.value {
            case .null: continue
            case .bool(let flag):
                try writer.key(key)
                try writer.scalar(.bool(flag))
            case .number(let number):
                try writer.key(key)
                try writer.scalar(number.kind == .integer ? .integer(number.int64Value) : .real(number.doubleValue))
            case .text(let text):
                try writer.key(key)
                try writer.uid(stringUID(text))
            case .json(let text, _):
                try writer.key(key)
                try writer.uid(enqueue(nested: try JSONValue(parsing: text, names: nestedNames)))
            case .data(let bytes):
                try writer.key(key)
                try writer.uid(enqueue(.scalar(.data(bytes))))
            }
        }
        try writer.endDictionary()
        try endEntry()
        if let binary {
            try binary.uid(uid)
            try recordSpool.writer.write(bigEndian: UInt64(binary.lastRef), size: 4)
        } else {
            try recordSpool.writer.write(bigEndian: uid, size: 8)
        }
        recordCount += 1
        try drain()
    }

    func renameTable(_ old: String, to new: String) throws {
        for index in classes.indices where classes[index].table.hasSameBytes(as: old) { classes[index].table = new }
    }

    // MARK: UIDs and entries

    private func allocate() -> UInt64 {
        defer { nextUID += 1 }
        return nextUID
    }

    private func enqueue(_ entry: Pending) -> UInt64 {
        queue.append(entry)
        return allocate()
    }

    private func stringUID(_ text: String) -> UInt64 {
        if let uid = strings[ExactString(text)] { return uid }
        let uid = enqueue(.string(text))
        if text.utf8.count <= Self.maxCachedStringBytes {
            if strings.count >= Self.maxCachedStrings { strings.removeAll(keepingCapacity: true) }
            strings[ExactString(text)] = uid
        }
        return uid
    }

    /// A field's key as `NSKeyedArchiver` writes it: a name starting with `$` gets
    /// another `$`, so it cannot be taken for one of the archive's own keys.
    private static func archivedKey(_ name: String) -> String {
        name.hasPrefix("$") ? "$" + name : name
    }

    /// The index in ``classes`` of the class of `table`'s records.
    private func classIndex(for table: String) -> Int {
        if let found = classes.firstIndex(where: { $0.table.hasSameBytes(as: table) }) { return found }
        let index = classes.count
        classes.append((table, 0, 0))
        classes[index].uid = enqueue(.recordClass(index: index))
        if xml != nil { xmlKeys.append(XMLPlistKeys()) }
        return index
    }

    private func foundationClassUID(_ name: String) -> UInt64 {
        let existing = name == "NSArray" ? arrayClass : dictionaryClass
        if let existing { return existing }
        let uid = enqueue(.foundationClass(name))
        if name == "NSArray" { arrayClass = uid } else { dictionaryClass = uid }
        return uid
    }

    /// The UID of an element of nested data, or nil for `null`.
    private func enqueue(element: JSONValue) -> UInt64? {
        switch element {
        case .null: return nil
        case .string(let text): return stringUID(text)
        case .bool(let flag): return enqueue(.scalar(.bool(flag)))
        case .number(let text): return enqueue(.scalar(.number(text)))
        case .array, .object: return enqueue(nested: element)
        }
    }

    private func enqueue(nested value: JSONValue) -> UInt64 {
        switch value {
        case .array(let items): return enqueue(.array(items))
        case .object(let members): return enqueue(.dictionary(members))
        default: return enqueue(element: value) ?? 0
        }
    }

    /// Writes the queued entries in UID order; writing one may queue more.
    private func drain() throws {
        var index = 0
        while index < queue.count {
            let entry = queue[index]
            index += 1
            if case .recordClass(let classIndex) = entry {
                classes[classIndex].reserved = try reserveEntry()
                continue
            }
            switch entry {
            case .string(let text): try writer.scalar(.string(text))
            case .scalar(let scalar): try writer.scalar(scalar)
            case .array(let items):
                try writer.beginDictionary()
                try writer.key("NS.objects")
                try writer.beginArray()
                for item in items { if let uid = enqueue(element: item) { try writer.uid(uid) } }
                try writer.endArray()
                try writer.key("$class")
                try writer.uid(foundationClassUID("NSArray"))
                try writer.endDictionary()
            case .dictionary(let members):
                let kept = members.filter { if case .null = $0.value { false } else { true } }
                try writer.beginDictionary()
                try writer.key("NS.keys")
                try writer.beginArray()
                // Keys as a reader gets them back, kept apart as a record's fields are.
                var keys = DistinctNames(comparing: .bytes)
                for member in kept { try writer.uid(stringUID(keys.claim(writer.readBack(member.key)))) }
                try writer.endArray()
                try writer.key("NS.objects")
                try writer.beginArray()
                for member in kept { if let uid = enqueue(element: member.value) { try writer.uid(uid) } }
                try writer.endArray()
                try writer.key("$class")
                try writer.uid(foundationClassUID("NSDictionary"))
                try writer.endDictionary()
            case .foundationClass(let name): try writeClass(name)
            case .recordClass: break
            }
            try endEntry()
        }
        queue.removeAll(keepingCapacity: true)
    }

    private func writeClass(_ name: String) throws {
        try writer.beginDictionary()
        try writer.key("$classes")
        try writer.beginArray()
        try writer.scalar(.string(name))
        try writer.scalar(.string("NSObject"))
        try writer.endArray()
        try writer.key("$classname")
        try writer.scalar(.string(name))
        try writer.endDictionary()
    }

    /// The entry just written becomes the next element of `$objects`.
    private func endEntry() throws {
        if let binary, let objectRefs {
            try objectRefs.writer.write(bigEndian: UInt64(binary.lastRef), size: 4)
        }
    }

    /// Keeps the next element of `$objects` for later; returns where to fill it in.
    private func reserveEntry() throws -> UInt64 {
        if let objectRefs {
            let at = objectRefs.writer.position
            try objectRefs.writer.write(bigEndian: 0, size: 4)
            return at
        }
        return objectText!.writer.position
    }

    private func recordClassName(_ index: Int) -> String {
        className ?? classNames[classes[index].table] ?? ArchiveClassName.forTable(classes[index].table)
    }

    // MARK: Finish

    /// Writes the root, the classes and the top of the archive; renames it into place.
    func finish() throws {
        let rootClass = foundationClassUID("NSArray")
        try drain()
        if let binary, let objectRefs {
            try finishBinary(binary, objectRefs, rootClass: rootClass)
        } else if let xml, let objectText {
            try finishXML(xml, objectText, rootClass: rootClass)
        }
    }

    private func finishBinary(_ binary: BinaryPlistWriter, _ objectRefs: SpoolFile, rootClass: UInt64) throws {
        // The root NSArray, into $objects[1].
        let records = try binary.writeArray(count: recordCount, refs: recordSpool)
        try binary.key("NS.objects")
        let objectsKey = binary.lastRef
        try binary.key("$class")
        let classKey = binary.lastRef
        try binary.uid(rootClass)
        let root = try binary.writeDictionary(keys: [objectsKey, classKey], values: [records, binary.lastRef])
        try objectRefs.writer.patch(at: 4, Self.bigEndian(root))
        for index in classes.indices {
            try writeClass(recordClassName(index))
            try objectRefs.writer.patch(at: classes[index].reserved, Self.bigEndian(binary.lastRef))
        }
        let objects = try binary.writeArray(count: nextUID, refs: objectRefs)
        try binary.key("root")
        let rootKey = binary.lastRef
        try binary.uid(1)
        let top = try binary.writeDictionary(keys: [rootKey], values: [binary.lastRef])
        var keys: [BinaryPlistWriter.Ref] = []
        for key in ["$archiver", "$objects", "$top", "$version"] {
            try binary.key(key)
            keys.append(binary.lastRef)
        }
        try binary.scalar(.string("NSKeyedArchiver"))
        let archiver = binary.lastRef
        try binary.scalar(.integer(100_000))
        let version = binary.lastRef
        let archive = try binary.writeDictionary(keys: keys, values: [archiver, objects, top, version])
        try binary.finish(top: archive, into: output)
    }

    private func finishXML(_ xml: XMLPlistWriter, _ objectText: SpoolFile, rootClass: UInt64) throws {
        let file = try output.writer()
        try file.write(XMLPlistWriter.header)
        xml.output = file
        xml.depth = 0
        try xml.beginDictionary()
        try xml.key("$archiver")
        try xml.scalar(.string("NSKeyedArchiver"))
        try xml.key("$objects")
        try xml.beginArray()
        try xml.scalar(.string("$null"))
        // $objects[1]: the root NSArray, its UIDs read back from the spool.
        try xml.beginDictionary()
        try xml.key("$class")
        try xml.uid(rootClass)
        try xml.key("NS.objects")
        try xml.beginArray()
        let uids = try recordSpool.reader()
        for _ in 0..<recordCount { try xml.uid(try uids.readBigEndian(size: 8)) }
        try xml.endArray()
        try xml.endDictionary()
        // The other entries, with each record class filled in where it was reserved.
        let reader = try objectText.reader()
        for index in classes.indices {
            try reader.copy(classes[index].reserved - reader.position, to: file)
            try writeClass(recordClassName(index))
        }
        try reader.copyRest(to: file)
        try xml.endArray()
        try xml.key("$top")
        try xml.beginDictionary()
        try xml.key("root")
        try xml.uid(1)
        try xml.endDictionary()
        try xml.key("$version")
        try xml.scalar(.integer(100_000))
        try xml.endDictionary()
        try file.write(XMLPlistWriter.footer)
    }

    private static func bigEndian(_ ref: BinaryPlistWriter.Ref) -> [UInt8] {
        [UInt8(ref >> 24), UInt8(ref >> 16 & 0xFF), UInt8(ref >> 8 & 0xFF), UInt8(ref & 0xFF)]
    }
}
