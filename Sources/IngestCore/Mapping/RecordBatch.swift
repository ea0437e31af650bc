/// Records in bulk, as the mapping produces them and a writer consumes them: the
/// values' bytes back to back in one arena, and per field its name, its kind and
/// where its bytes are. Building a record allocates nothing once the batch has
/// grown to its working size, and a batch crosses from the parsing thread to the
/// writing thread in one hand-over.
///
/// Values keep their bytes as the input had them; what they are is decided by the
/// reader of the batch: ``Kind/inferred`` bytes (XML character data, JSON numbers)
/// are a number when ``FieldValue/Number`` holds them exactly, text otherwise.
/// ``value(ofField:)`` and ``record(at:)`` give the same values as an ``IngestRecord``
/// would have carried; a sink that can, binds the bytes directly.
///
/// ```swift
/// for index in 0..<batch.count {
///     let record = batch.record(at: index)     // materialised: table, fields, position
///     print(record.table, record["firstName"] ?? .null)
/// }
/// ```
public final class RecordBatch {
    /// What a field's bytes are.
    public enum Kind: UInt8, Sendable {
        /// No value (a JSON `null`); the field has no bytes.
        case null
        /// The boolean `false`; the field has no bytes.
        case `false`
        /// The boolean `true`; the field has no bytes.
        case `true`
        /// Text that stays text whatever it looks like (a JSON string).
        case text
        /// XML character data: a number when it is one without loss, text otherwise
        /// (see ``FieldValue/inferring(_:)``).
        case inferred
        /// A JSON number as written: a number when ``FieldValue/Number`` holds it
        /// exactly, its text otherwise.
        case number
        /// A number known to be an integer or a real (``FieldValue/Number``).
        case integer
        /// A number known to be a real, exact as a `Double` (``FieldValue/Number/Kind/real``).
        case real
        /// Nested data as compact JSON text: an array.
        case jsonArray
        /// Nested data as compact JSON text: an object.
        case jsonObject
        /// Binary data.
        case data
    }

    /// One field: its name, what its bytes are, where it came from, and where its
    /// bytes are in the arena.
    public struct Field {
        // Safety: `append` holds every name it stores (`hold`: `namesByID`, and
        // `displacedNames` for a name whose id another table's name takes over), and
        // a batch never lets go of a name, `clear()` included.
        /// The name, held by the batch: read it while the batch lives, or assign it
        /// to a `Name` variable to keep it longer.
        public var name: Name { unmanagedName.takeUnretainedValue() }
        /// The name, for writers to borrow (`_withUnsafeGuaranteedRef`) without
        /// touching its reference count, which the parsing thread's events use.
        package let unmanagedName: Unmanaged<Name>
        /// What the field's bytes are.
        public let kind: Kind
        /// What part of the record element the field comes from.
        public let origin: IngestRecord.Field.Origin
        let offset: Int
        let count: Int
    }

    /// One record: its table and its fields.
    public struct Entry {
        /// The record's table, as an index into ``RecordBatch/tables``.
        public let table: Int
        let firstField: Int
        /// How many fields the record has; they follow one another in ``RecordBatch/fields``.
        public let fieldCount: Int
        /// Where the record's element started.
        public let position: SourcePosition
    }

    /// The tables records go to, by index; a record names its table by index.
    @exclusivity(unchecked) public private(set) var tables: [String] = []
    /// The records, in the order they were built.
    @exclusivity(unchecked) public private(set) var entries: [Entry] = []
    /// Every record's fields, one record's after another's.
    @exclusivity(unchecked) public private(set) var fields: [Field] = []
    /// The fields' names by ``Name/id``, held so that they outlive the parse that
    /// interned them (a batch is written after its parser may be gone). Checked by
    /// identity: names of another ``NameTable`` take the slot over, and the one they
    /// displace is kept in ``displacedNames``.
    @exclusivity(unchecked) private var namesByID: [Name?] = []
    @exclusivity(unchecked) private var displacedNames: [Name] = []
    @exclusivity(unchecked) private var arena: UnsafeMutableRawPointer
    @exclusivity(unchecked) private var capacity: Int
    /// Bytes used in the arena.
    @exclusivity(unchecked) public private(set) var byteCount = 0
    /// Where the record being built starts, in ``fields``.
    @exclusivity(unchecked) private var recordStart = 0
    @exclusivity(unchecked) private var lastTable = -1

    /// An empty batch whose arena starts with room for `bytes` bytes.
    public init(reservingBytes bytes: Int = 64 << 10) {
        capacity = max(bytes, 64)
        arena = .allocate(byteCount: capacity, alignment: 16)
        fields.reserveCapacity(1024)
        entries.reserveCapacity(256)
    }

    /// An empty batch with room for as many bytes, fields and records as `other`
    /// holds: the next batch of a stream, sized like the last, grows no more.
    public convenience init(shapedLike other: RecordBatch) {
        self.init(reservingBytes: other.byteCount)
        fields.reserveCapacity(other.fields.count)
        entries.reserveCapacity(other.entries.count)
    }

    deinit { arena.deallocate() }

    // Safety (`@exclusivity(unchecked)`): every stored property is touched per field,
    // by one thread at a time (the batch is not `Sendable`; it is handed over whole,
    // through the pipe's lock), and no method calls out while it accesses one: the
    // closures it passes (`withUTF8`, `withUnsafeBytes`) only copy into the arena.
    // Exclusivity is checked statically only: the runtime check showed in the
    // parsing thread's profile (BENCHMARKS.md).

    /// The number of finished records.
    public var count: Int { entries.count }

    // MARK: Building

    /// Adds a field to the record being built, its value `bytes` of `kind`.
    @inline(__always)
    public func append(
        _ name: Name, _ kind: Kind, origin: IngestRecord.Field.Origin = .element,
        bytes: UnsafeRawBufferPointer
    ) {
        if name.id >= namesByID.count || namesByID[name.id] !== name { hold(name) }
        let offset = reserve(bytes.count)
        if bytes.count > 0 { (arena + offset).copyMemory(from: bytes.baseAddress!, byteCount: bytes.count) }
        fields.append(
            Field(unmanagedName: .passUnretained(name), kind: kind, origin: origin, offset: offset, count: bytes.count))
    }

    /// Adds a field without bytes (`null`, `true`, `false`).
    @inline(__always)
    public func append(_ name: Name, _ kind: Kind, origin: IngestRecord.Field.Origin = .element) {
        append(name, kind, origin: origin, bytes: UnsafeRawBufferPointer(start: nil, count: 0))
    }

    /// Adds a field whose bytes are `text`'s UTF-8.
    public func append(_ name: Name, _ kind: Kind, origin: IngestRecord.Field.Origin = .element, text: String) {
        var text = text
        text.withUTF8 { append(name, kind, origin: origin, bytes: UnsafeRawBufferPointer($0)) }
    }

    /// Adds a field holding `value`, as an ``IngestRecord`` carries it.
    public func append(_ name: Name, _ value: FieldValue, origin: IngestRecord.Field.Origin = .element) {
        switch value {
        case .null: append(name, Kind.null, origin: origin)
        case .bool(let flag): append(name, flag ? .true : .false, origin: origin)
        case .number(let number):
            append(name, number.kind == .integer ? .integer : .real, origin: origin, text: number.text)
        case .text(let text): append(name, .text, origin: origin, text: text)
        case .json(let text, let shape):
            append(name, shape == .array ? .jsonArray : .jsonObject, origin: origin, text: text)
        case .data(let bytes): bytes.withUnsafeBytes { append(name, .data, origin: origin, bytes: $0) }
        }
    }

    /// Fields of the record being built, counted from its first.
    public var pendingFieldCount: Int { fields.count - recordStart }

    /// Points pending field `index` (counted from the record's first) at new bytes:
    /// how a field that turns out to repeat becomes a list.
    public func replacePendingField(_ index: Int, with kind: Kind, bytes: UnsafeRawBufferPointer) {
        let old = fields[recordStart + index]
        let offset = reserve(bytes.count)
        if bytes.count > 0 { (arena + offset).copyMemory(from: bytes.baseAddress!, byteCount: bytes.count) }
        fields[recordStart + index] = Field(
            unmanagedName: old.unmanagedName, kind: kind, origin: old.origin, offset: offset, count: bytes.count)
    }

    /// The pending field `index`'s value, counted from the record's first.
    public func pendingValue(_ index: Int) -> FieldValue { value(ofField: recordStart + index) }

    /// The pending field `index`'s value as an item of a JSON list.
    func pendingJSONValue(_ index: Int) -> JSONValue {
        let field = fields[recordStart + index]
        return JSONValue(field.kind, bytes(of: field))
    }

    /// Finishes the record being built, in `table`, starting at `position`.
    public func endRecord(table: String, position: SourcePosition) {
        let tableIndex: Int
        // Table names compare by bytes: canonically equivalent spellings are two tables.
        if lastTable >= 0, tables[lastTable].hasSameBytes(as: table) {
            tableIndex = lastTable
        } else {
            tableIndex =
                tables.firstIndex(where: { $0.hasSameBytes(as: table) })
                ?? {
                    tables.append(table)
                    return tables.count - 1
                }()
            lastTable = tableIndex
        }
        entries.append(
            Entry(
                table: tableIndex, firstField: recordStart, fieldCount: fields.count - recordStart,
                position: position))
        recordStart = fields.count
    }

    /// Drops the fields of the record being built.
    public func discardRecord() {
        fields.removeSubrange(recordStart...)
    }

    /// Appends `record` whole.
    public func append(_ record: IngestRecord) {
        for field in record.fields { append(field.name, field.value, origin: field.origin) }
        endRecord(table: record.table, position: record.position)
    }

    /// Empties the batch, keeping its storage.
    public func clear() {
        tables.removeAll(keepingCapacity: true)
        entries.removeAll(keepingCapacity: true)
        fields.removeAll(keepingCapacity: true)
        byteCount = 0
        recordStart = 0
        lastTable = -1
    }

    /// Moves every record's position `lines` lines down: the records of a part of a
    /// file, read as if it began the file, placed where the part is in it.
    package func shiftLines(by lines: Int) {
        for index in entries.indices {
            let entry = entries[index]
            var position = entry.position
            position.line += lines
            entries[index] = Entry(
                table: entry.table, firstField: entry.firstField, fieldCount: entry.fieldCount, position: position)
        }
    }

    /// Renames table `old` to `new` in this batch.
    public func renameTable(_ old: String, to new: String) {
        for index in tables.indices where tables[index].hasSameBytes(as: old) { tables[index] = new }
    }

    private func reserve(_ count: Int) -> Int {
        if byteCount + count > capacity { grow(byteCount + count) }
        defer { byteCount += count }
        return byteCount
    }

    private func grow(_ needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let larger = UnsafeMutableRawPointer.allocate(byteCount: newCapacity, alignment: 16)
        larger.copyMemory(from: arena, byteCount: byteCount)
        arena.deallocate()
        arena = larger
        capacity = newCapacity
    }

    private func hold(_ name: Name) {
        if name.id >= namesByID.count { namesByID += Array(repeating: nil, count: name.id + 1 - namesByID.count) }
        if let displaced = namesByID[name.id] { displacedNames.append(displaced) }
        namesByID[name.id] = name
    }

    // MARK: Setting aside

    /// What a batch holds besides its three runs of raw memory (``withParts(_:)``):
    /// its tables, and the names its fields point to, which the parts hold while the
    /// batch is set aside. For a pipe that sets batches aside on disk and rebuilds
    /// them in the same process (IngestParsers' `RecordSpill`).
    package struct Parts {
        let tables: [String]
        let namesByID: [Name?]
        let displacedNames: [Name]
        package let byteCount: Int
        package let fieldCount: Int
        package let entryCount: Int
    }

    /// Calls `body` with the batch's parts and its bytes, fields and records as raw
    /// memory, valid for the call. Fields and records are plain values (a field's
    /// name is an unowned pointer, held by the parts), so their bytes rebuild them.
    package func withParts<Result>(
        _ body: (
            _ parts: Parts, _ bytes: UnsafeRawBufferPointer, _ fields: UnsafeRawBufferPointer,
            _ entries: UnsafeRawBufferPointer
        ) throws -> Result
    ) rethrows -> Result {
        precondition(_isPOD(Field.self) && _isPOD(Entry.self), "fields and records must be plain values")
        precondition(recordStart == fields.count, "a batch is set aside between records")
        let parts = Parts(
            tables: tables, namesByID: namesByID, displacedNames: displacedNames, byteCount: byteCount,
            fieldCount: fields.count, entryCount: entries.count)
        return try fields.withUnsafeBytes { fields in
            try entries.withUnsafeBytes { entries in
                try body(parts, UnsafeRawBufferPointer(start: arena, count: byteCount), fields, entries)
            }
        }
    }

    /// One of the three runs of raw memory of ``withParts(_:)``.
    package enum Region {
        case bytes, fields, entries
    }

    /// The batch `parts` describe, each region filled by `fill` with the bytes
    /// ``withParts(_:)`` gave for it, in this process.
    package convenience init(
        parts: Parts, fill: (_ region: Region, _ memory: UnsafeMutableRawBufferPointer) throws -> Void
    ) rethrows {
        self.init(reservingBytes: parts.byteCount)
        try fill(.bytes, UnsafeMutableRawBufferPointer(start: arena, count: parts.byteCount))
        fields = try [Field](unsafeUninitializedCapacity: parts.fieldCount) { memory, count in
            try fill(.fields, .init(start: memory.baseAddress, count: parts.fieldCount * MemoryLayout<Field>.stride))
            count = parts.fieldCount
        }
        entries = try [Entry](unsafeUninitializedCapacity: parts.entryCount) { memory, count in
            try fill(.entries, .init(start: memory.baseAddress, count: parts.entryCount * MemoryLayout<Entry>.stride))
            count = parts.entryCount
        }
        tables = parts.tables
        namesByID = parts.namesByID
        displacedNames = parts.displacedNames
        byteCount = parts.byteCount
        recordStart = parts.fieldCount
    }

    // MARK: Reading

    /// The fields of record `index`.
    public func fields(of index: Int) -> ArraySlice<Field> {
        let entry = entries[index]
        return fields[entry.firstField..<entry.firstField + entry.fieldCount]
    }

    /// The table record `index` goes to.
    public func table(of index: Int) -> String { tables[entries[index].table] }

    /// The bytes of `field`, valid while the batch is not changed.
    @inline(__always)
    public func bytes(of field: Field) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: arena + field.offset, count: field.count)
    }

    /// The value of field `index` (an index into ``fields``), as an ``IngestRecord`` carries it.
    public func value(ofField index: Int) -> FieldValue { value(of: fields[index]) }

    /// The value of `field`, as an ``IngestRecord`` carries it.
    public func value(of field: Field) -> FieldValue {
        let bytes = bytes(of: field).assumingMemoryBound(to: UInt8.self)
        switch field.kind {
        case .null: return .null
        case .false: return .bool(false)
        case .true: return .bool(true)
        case .text: return .text(String(decoding: bytes, as: UTF8.self))
        case .inferred: return .inferring(bytes)
        case .number: return .jsonNumber(bytes)
        case .integer: return .number(.init(text: String(decoding: bytes, as: UTF8.self), kind: .integer))
        case .real: return .number(.init(text: String(decoding: bytes, as: UTF8.self), kind: .real))
        case .jsonArray: return .json(String(decoding: bytes, as: UTF8.self), .array)
        case .jsonObject: return .json(String(decoding: bytes, as: UTF8.self), .object)
        case .data: return .data(Array(bytes))
        }
    }

    /// Record `index`, materialised.
    public func record(at index: Int) -> IngestRecord {
        let entry = entries[index]
        let fields = self.fields(of: index).map {
            IngestRecord.Field(name: $0.name, value: value(of: $0), origin: $0.origin)
        }
        return IngestRecord(table: tables[entry.table], fields: fields, position: entry.position)
    }
}
