import IngestCore

/// Parse events written down as bytes, to be played back later, on another thread,
/// into a ``/IngestCore/ParseEventReceiver``: the unit ``EventRelay`` hands over.
///
/// Each event is a tag byte, its position (line, column, byte offset) and its parts:
/// a name as a pointer to its ``/IngestCore/Name`` (which the writer keeps alive, see
/// ``EventRelay``), text and attribute values as a length and a copy of their bytes.
/// Nothing is a `String` and nothing is counted by reference on the way.
///
/// A tape grows to hold its largest event; ``EventRelay`` hands it over once it
/// passes ``EventRelay/tapeBytes``, so a tape holds about that much plus one event,
/// and an event is no larger than what the parser already held to deliver it.
///
/// A struct, so that writing an event touches no reference count; its memory is its
/// owner's to free, once, with ``deallocate()`` (``EventRelay`` holds each tape in one
/// place at a time).
struct EventTape {
    private enum Tag: UInt8 {
        case start = 1, startKind, text, end, scalar, progress
    }

    private var base: UnsafeMutableRawPointer
    /// The bytes the tape can hold before it grows.
    private(set) var capacity: Int
    /// The bytes written so far.
    private(set) var count = 0

    init(capacity: Int) {
        self.capacity = capacity
        base = Self.allocate(capacity)
    }

    /// Raw memory for `bytes` bytes, bound to `UInt8` for the text read back from it.
    private static func allocate(_ bytes: Int) -> UnsafeMutableRawPointer {
        let memory = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 16)
        memory.bindMemory(to: UInt8.self, capacity: bytes)
        return memory
    }

    /// Frees the tape's memory: the tape and its copies must not be used again.
    func deallocate() { base.deallocate() }

    /// Forgets every event, keeping the memory for the next ones.
    mutating func clear() { count = 0 }

    // MARK: Writing

    mutating func writeStart(_ name: Name, attributes: Attributes, at position: SourcePosition) {
        var size = 1 + Self.positionSize + 12
        for attribute in attributes { size += 16 + attribute.value.count }
        reserve(size)
        put(Tag.start.rawValue)
        put(position)
        put(name)
        put(Int32(truncatingIfNeeded: attributes.count))
        for attribute in attributes {
            put(attribute.name)
            put(bytes: attribute.value)
        }
    }

    mutating func writeStart(_ name: Name, kind: ContentKind, at position: SourcePosition) {
        reserve(2 + Self.positionSize + 8)
        put(Tag.startKind.rawValue)
        put(position)
        put(name)
        put(kind.rawValue)
    }

    mutating func writeText(_ bytes: UnsafeBufferPointer<UInt8>, at position: SourcePosition) {
        reserve(1 + Self.positionSize + 8 + bytes.count)
        put(Tag.text.rawValue)
        put(position)
        put(bytes: bytes)
    }

    mutating func writeEnd(_ name: Name, at position: SourcePosition) {
        reserve(1 + Self.positionSize + 8)
        put(Tag.end.rawValue)
        put(position)
        put(name)
    }

    mutating func writeScalar(
        _ name: Name, kind: ContentKind, text: UnsafeBufferPointer<UInt8>, at position: SourcePosition
    ) {
        reserve(2 + Self.positionSize + 16 + text.count)
        put(Tag.scalar.rawValue)
        put(position)
        put(name)
        put(kind.rawValue)
        put(bytes: text)
    }

    /// Notes that the parser has consumed `bytes` of its input: played back as a call
    /// of the progress closure, after the events before it.
    mutating func writeProgress(_ bytes: Int) {
        reserve(1 + Self.positionSize)
        put(Tag.progress.rawValue)
        put(SourcePosition(line: 0, column: 0, byteOffset: bytes))
    }

    private static let positionSize = 24

    private mutating func reserve(_ bytes: Int) {
        guard count + bytes > capacity else { return }
        let grown = max(capacity * 2, count + bytes)
        let larger = Self.allocate(grown)
        larger.copyMemory(from: base, byteCount: count)
        base.deallocate()
        base = larger
        capacity = grown
    }

    @inline(__always)
    private mutating func put<T: BitwiseCopyable>(_ value: T) {
        base.storeBytes(of: value, toByteOffset: count, as: T.self)
        count += MemoryLayout<T>.size
    }

    @inline(__always)
    private mutating func put(_ position: SourcePosition) {
        put(position.line)
        put(position.column)
        put(position.byteOffset)
    }

    @inline(__always)
    private mutating func put(_ name: Name) {
        put(UInt(bitPattern: Unmanaged.passUnretained(name).toOpaque()))
    }

    @inline(__always)
    private mutating func put(bytes: UnsafeBufferPointer<UInt8>) {
        put(bytes.count)
        if let source = bytes.baseAddress, !bytes.isEmpty {
            (base + count).copyMemory(from: source, byteCount: bytes.count)
            count += bytes.count
        }
    }

    // MARK: Playing back

    /// Sends every event, in the order written, to `receiver`, and each progress note
    /// to `progress`, rebuilding attributes in `attributes` (scratch, kept between
    /// calls). When the receiver throws, the error carries the position of the event
    /// it threw at (if it had none) and the events after it are not sent.
    func play<Receiver: ParseEventReceiver>(
        into receiver: Receiver, progress: ((Int) -> Void)?, attributes: inout [Attribute]
    ) throws {
        var offset = 0
        var position = SourcePosition.start
        do {
            while offset < count {
                let tag = Tag(rawValue: base.load(fromByteOffset: offset, as: UInt8.self))!
                offset += 1
                position = SourcePosition(
                    line: take(&offset), column: take(&offset), byteOffset: take(&offset))
                switch tag {
                case .start:
                    let name = takeName(&offset)
                    let count = Int(take(&offset) as Int32)
                    if count == 0 {
                        try name._withUnsafeGuaranteedRef {
                            try receiver.startElement($0, attributes: .none, at: position)
                        }
                    } else {
                        attributes.removeAll(keepingCapacity: true)
                        for _ in 0..<count {
                            let attributeName = takeName(&offset).takeUnretainedValue()
                            attributes.append(Attribute(name: attributeName, value: takeBytes(&offset)))
                        }
                        try attributes.withUnsafeBufferPointer { attributes in
                            try name._withUnsafeGuaranteedRef {
                                try receiver.startElement($0, attributes: Attributes(attributes), at: position)
                            }
                        }
                    }
                case .startKind:
                    let name = takeName(&offset)
                    let kind = ContentKind(rawValue: take(&offset))!
                    try name._withUnsafeGuaranteedRef { try receiver.startElement($0, kind: kind, at: position) }
                case .text:
                    try receiver.text(takeBytes(&offset), at: position)
                case .end:
                    try takeName(&offset)._withUnsafeGuaranteedRef { try receiver.endElement($0, at: position) }
                case .progress:
                    progress?(position.byteOffset)
                case .scalar:
                    let name = takeName(&offset)
                    let kind = ContentKind(rawValue: take(&offset))!
                    let text = takeBytes(&offset)
                    try name._withUnsafeGuaranteedRef {
                        try receiver.scalar($0, kind: kind, text: text, at: position)
                    }
                }
            }
        } catch var error as IngestError {
            if error.position == nil { error.position = position }
            throw error
        }
    }

    @inline(__always)
    private func take<T: BitwiseCopyable>(_ offset: inout Int) -> T {
        let value = base.loadUnaligned(fromByteOffset: offset, as: T.self)
        offset += MemoryLayout<T>.size
        return value
    }

    @inline(__always)
    private func takeName(_ offset: inout Int) -> Unmanaged<Name> {
        let bits: UInt = take(&offset)
        return Unmanaged.fromOpaque(UnsafeRawPointer(bitPattern: bits)!)
    }

    @inline(__always)
    private func takeBytes(_ offset: inout Int) -> UnsafeBufferPointer<UInt8> {
        let count: Int = take(&offset)
        let start = (base + offset).assumingMemoryBound(to: UInt8.self)
        offset += count
        return UnsafeBufferPointer(start: count == 0 ? nil : start, count: count)
    }
}
