import IngestCore
/// Writes a binary property list (`bplist00`) as a stream, without holding its
/// objects in memory.
///
/// **Pass one**, while records arrive: every object is encoded as soon as it is
/// complete and appended to a spool file beside the output — scalars at once,
/// a container when it closes (its children were written before it). Objects are
/// numbered in the order written. Object references in the spool are provisional:
/// always 4 bytes, since the final count is not known yet.
///
/// **Pass two**, in ``finish(top:into:)``: the object count now gives the real
/// reference size (1 byte up to 256 objects, 2 up to 65 536, else 4), and the spool
/// size minus the bytes that saves gives where the offset table starts, hence the
/// offset size (1, 2, 4 or 8 bytes). The spool is read once, front to back; each
/// object is copied with its references rewritten, while its offset is written to
/// the offset table at the end of the same file by a second writer. The trailer
/// closes the file. Memory is the same for ten objects or a billion.
///
/// **Deduplication** (objects stored once and referred to from everywhere):
/// - every dictionary key, up to 65 536 distinct keys (then keys go through the value cache);
/// - `true` and `false`;
/// - values — strings of at most 64 UTF-8 bytes, integers, reals, dates, UIDs — through
///   a cache of the 32 768 most recently met distinct values; when it is full it
///   starts over empty. Longer strings, and data, are written each time.
///
/// Encodings follow Apple's format: integers in 1, 2 or 4 bytes when not negative
/// and below 2³², otherwise 8 bytes (two's complement); reals as 8-byte doubles;
/// dates as 8-byte doubles of seconds since 2001-01-01 UTC; strings in ASCII
/// (`0x5_`) when every character is ASCII, else UTF-16 big-endian (`0x6_`); data as
/// `0x4_` and its bytes; counts of 15 and more as a following integer object.
final class BinaryPlistWriter: PlistEventWriter {
    typealias Ref = UInt32

    private let spool: SpoolFile
    private var out: BufferedFileWriter { spool.writer }
    /// Objects written so far; the next object's number.
    private(set) var objectCount: UInt64 = 0
    /// References written so far (each 4 bytes in the spool).
    private var referenceCount: UInt64 = 0

    /// Open containers: their kind and the references of their children (for a
    /// dictionary, key and value alternating). Arrays are reused between records.
    private var frames: [(isDictionary: Bool, refs: [Ref])] = []
    private var depth = 0
    /// The reference of the last value completed outside any container.
    private(set) var lastRef: Ref = 0

    /// Keys already written, by their bytes (see ``ExactString``).
    private var keys: [ExactString: Ref] = [:]
    private static let maxKeys = 65_536
    private var values: [CacheKey: Ref] = [:]
    static let maxCachedValues = 32_768
    static let maxCachedStringBytes = 64
    private var trueRef: Ref?
    private var falseRef: Ref?

    private enum CacheKey: Hashable {
        case string(ExactString)
        case integer(Int64)
        case real(UInt64)
        case date(Int64)
        case uid(UInt64)
    }

    /// A writer spooling to `spool`.
    init(spool: SpoolFile) {
        self.spool = spool
    }

    // MARK: Events

    func beginDictionary() throws { push(isDictionary: true) }
    func beginArray() throws { push(isDictionary: false) }

    func endDictionary() throws {
        let refs = frames[depth - 1].refs
        let count = refs.count / 2
        let ref = try writeContainer(marker: 0xD0, count: count) {
            for index in stride(from: 0, to: refs.count, by: 2) {
                try out.write(bigEndian: UInt64(refs[index]), size: 4)
            }
            for index in stride(from: 1, to: refs.count, by: 2) {
                try out.write(bigEndian: UInt64(refs[index]), size: 4)
            }
        }
        referenceCount += UInt64(refs.count)
        depth -= 1
        complete(ref)
    }

    func endArray() throws {
        let refs = frames[depth - 1].refs
        let ref = try writeContainer(marker: 0xA0, count: refs.count) {
            for child in refs { try out.write(bigEndian: UInt64(child), size: 4) }
        }
        referenceCount += UInt64(refs.count)
        depth -= 1
        complete(ref)
    }

    /// The binary format carries every character: keys read back as written.
    func readBack(_ text: String) -> String { text }

    func key(_ key: String) throws {
        if let ref = keys[ExactString(key)] {
            complete(ref)
        } else if keys.count < Self.maxKeys {
            let ref = try writeString(key)
            keys[ExactString(key)] = ref
            complete(ref)
        } else {
            try scalar(.string(key))
        }
    }

    func scalar(_ value: PlistScalar) throws {
        let ref: Ref
        switch value {
        case .bool(let flag):
            if let cached = flag ? trueRef : falseRef {
                ref = cached
            } else {
                ref = try newObject()
                try out.write(byte: flag ? 0x09 : 0x08)
                if flag { trueRef = ref } else { falseRef = ref }
            }
        case .string(let text):
            ref =
                text.utf8.count <= Self.maxCachedStringBytes
                ? try cached(.string(ExactString(text))) { try writeString(text) }
                : try writeString(text)
        case .integer(let number):
            ref = try cached(.integer(number)) { try writeInteger(number) }
        case .real(let number):
            ref = try cached(.real(number.bitPattern)) {
                let ref = try newObject()
                try out.write(byte: 0x23)
                try out.write(bigEndian: number.bitPattern, size: 8)
                return ref
            }
        case .date(let date):
            ref = try cached(.date(date.secondsSinceReferenceDate)) {
                let ref = try newObject()
                try out.write(byte: 0x33)
                try out.write(bigEndian: Double(date.secondsSinceReferenceDate).bitPattern, size: 8)
                return ref
            }
        case .data(let bytes):
            ref = try newObject()
            try writeMarker(0x40, count: UInt64(bytes.count))
            try bytes.withUnsafeBytes { try out.write($0) }
        }
        complete(ref)
    }

    func uid(_ value: UInt64) throws {
        let ref = try cached(.uid(value)) {
            let ref = try newObject()
            let size = Self.byteCount(value)
            try out.write(byte: 0x80 | UInt8(size - 1))
            try out.write(bigEndian: value, size: size)
            return ref
        }
        complete(ref)
    }

    // MARK: Large containers

    /// Writes an array whose `count` references (4 bytes each, big-endian) are the
    /// contents of `refs`: the root array of millions of records, never in memory.
    func writeArray(count: UInt64, refs: SpoolFile) throws -> Ref {
        let reader = try refs.reader()
        let ref = try writeContainer(marker: 0xA0, count: Int(count)) {
            try reader.copy(count * 4, to: out)
        }
        referenceCount += count
        return ref
    }

    /// Writes a dictionary of the given keys and values outside any event stream.
    func writeDictionary(keys: [Ref], values: [Ref]) throws -> Ref {
        let ref = try writeContainer(marker: 0xD0, count: keys.count) {
            for key in keys { try out.write(bigEndian: UInt64(key), size: 4) }
            for value in values { try out.write(bigEndian: UInt64(value), size: 4) }
        }
        referenceCount += UInt64(keys.count * 2)
        return ref
    }

    // MARK: Objects

    private func push(isDictionary: Bool) {
        if depth == frames.count { frames.append((isDictionary, [])) }
        frames[depth].isDictionary = isDictionary
        frames[depth].refs.removeAll(keepingCapacity: true)
        depth += 1
    }

    private func complete(_ ref: Ref) {
        if depth == 0 { lastRef = ref } else { frames[depth - 1].refs.append(ref) }
    }

    private func newObject() throws -> Ref {
        guard objectCount < UInt64(UInt32.max) else {
            throw IngestError(
                .output, "more than \(UInt32.max) objects do not fit a binary property list written by ingest",
                file: out.displayName)
        }
        defer { objectCount += 1 }
        return Ref(objectCount)
    }

    private func cached(_ key: CacheKey, _ write: () throws -> Ref) throws -> Ref {
        if let ref = values[key] { return ref }
        let ref = try write()
        if values.count >= Self.maxCachedValues { values.removeAll(keepingCapacity: true) }
        values[key] = ref
        return ref
    }

    private func writeContainer(marker: UInt8, count: Int, _ body: () throws -> Void) throws -> Ref {
        let ref = try newObject()
        try writeMarker(marker, count: UInt64(count))
        try body()
        return ref
    }

    private func writeMarker(_ marker: UInt8, count: UInt64) throws {
        if count < 15 {
            try out.write(byte: marker | UInt8(count))
        } else {
            try out.write(byte: marker | 0x0F)
            try writeIntegerBody(Int64(count))
        }
    }

    private func writeInteger(_ value: Int64) throws -> Ref {
        let ref = try newObject()
        try writeIntegerBody(value)
        return ref
    }

    /// An integer object's bytes: marker `0x1n`, then 2ⁿ bytes.
    private func writeIntegerBody(_ value: Int64) throws {
        let size = value < 0 ? 8 : Self.byteCount(UInt64(value))
        try out.write(byte: 0x10 | UInt8(size.trailingZeroBitCount))
        try out.write(bigEndian: UInt64(bitPattern: value), size: size)
    }

    private func writeString(_ text: String) throws -> Ref {
        let ref = try newObject()
        var text = text
        let ascii = text.withUTF8 { bytes in bytes.allSatisfy { $0 < 0x80 } }
        if ascii {
            try text.withUTF8 { bytes in
                try writeMarker(0x50, count: UInt64(bytes.count))
                try out.write(UnsafeRawBufferPointer(bytes))
            }
        } else {
            try writeMarker(0x60, count: UInt64(text.utf16.count))
            for unit in text.utf16 { try out.write(bigEndian: UInt64(unit), size: 2) }
        }
        return ref
    }

    /// 1, 2, 4 or 8: the bytes an unsigned value needs.
    static func byteCount(_ value: UInt64) -> Int {
        value <= 0xFF ? 1 : value <= 0xFFFF ? 2 : value <= 0xFFFF_FFFF ? 4 : 8
    }

    // MARK: Pass two

    /// Writes the finished `bplist00` file to `output` (from its start), with `top`
    /// as the root object.
    func finish(top: Ref, into output: OutputFile) throws {
        precondition(depth == 0, "a container is still open")
        let refSize = Self.byteCount(objectCount == 0 ? 0 : objectCount - 1)
        let spoolSize = out.position
        let offsetTableOffset = 8 + spoolSize - referenceCount * UInt64(4 - refSize)
        let offsetSize = Self.byteCount(offsetTableOffset)
        let reader = try spool.reader()
        let objects = try output.writer()
        let offsets = try BufferedFileWriter(
            path: output.temporaryPath, displayName: output.displayName, offset: offsetTableOffset)
        try objects.write("bplist00")
        for _ in 0..<objectCount {
            try offsets.write(bigEndian: objects.position, size: offsetSize)
            try copyObject(from: reader, to: objects, refSize: refSize)
        }
        guard reader.position == spoolSize, objects.position == offsetTableOffset else {
            throw IngestError(
                .io,
                "the binary plist's objects did not add up (\(reader.position)/\(spoolSize), \(objects.position)/\(offsetTableOffset))",
                file: output.displayName)
        }
        // Trailer: 5 unused bytes, sort version, offset size, reference size, object
        // count, top object, offset table offset.
        for _ in 0..<6 { try offsets.write(byte: 0) }
        try offsets.write(byte: UInt8(offsetSize))
        try offsets.write(byte: UInt8(refSize))
        try offsets.write(bigEndian: objectCount, size: 8)
        try offsets.write(bigEndian: UInt64(top), size: 8)
        try offsets.write(bigEndian: offsetTableOffset, size: 8)
        try offsets.flush()
    }

    /// Copies one spooled object, rewriting its references to `refSize` bytes.
    private func copyObject(from reader: BufferedFileReader, to writer: BufferedFileWriter, refSize: Int) throws {
        let marker = try reader.readByte()
        try writer.write(byte: marker)
        let low = marker & 0x0F
        func count() throws -> UInt64 {
            guard low == 0x0F else { return UInt64(low) }
            let intMarker = try reader.readByte()
            try writer.write(byte: intMarker)
            let size = 1 << Int(intMarker & 0x0F)
            let value = try reader.readBigEndian(size: size)
            try writer.write(bigEndian: value, size: size)
            return value
        }
        switch marker >> 4 {
        case 0x0: break
        case 0x1, 0x2: try reader.copy(1 << UInt64(low), to: writer)
        case 0x3: try reader.copy(8, to: writer)
        case 0x4, 0x5: try reader.copy(try count(), to: writer)
        case 0x6: try reader.copy(try count() * 2, to: writer)
        case 0x8: try reader.copy(UInt64(low) + 1, to: writer)
        case 0xA, 0xD:
            let refs = try count() * (marker >> 4 == 0xD ? 2 : 1)
            for _ in 0..<refs {
                try writer.write(bigEndian: try reader.readBigEndian(size: 4), size: refSize)
            }
        default:
            throw IngestError(
                .io, "unexpected object marker 0x\(String(marker, radix: 16)) in a temporary file",
                file: writer.displayName)
        }
    }
}
