/// A push tokenizer for JSON (RFC 8259, strict), fed in chunks of any size, that
/// emits the one event model (``ParseEventReceiver``) as it goes.
///
/// ```swift
/// let tokenizer = JSONPushParser(receiver: stack, documentName: "folks")
/// try tokenizer.feed(chunk1)
/// try tokenizer.feed(chunk2)        // a token may be split anywhere
/// try tokenizer.finish()
/// ```
///
/// What it checks: the grammar, UTF-8 (overlong forms, surrogates and code points
/// past U+10FFFF are errors), escapes (a `\u` high surrogate must be followed by a
/// `\u` low surrogate), control characters in strings, nesting depth and string size
/// (``ParseLimits``). A UTF-8 byte order mark at the start is skipped. Errors carry
/// line and column (columns count bytes).
///
/// How JSON becomes events (see ``JSONParser`` for the mapping this enables):
/// - the top-level value is the document element, named `documentName`;
/// - an object member is a child element named by its key, an array item a child
///   element named `item`;
/// - objects and arrays arrive through ``ParseEventReceiver/startElement(_:kind:at:)``
///   and ``ParseEventReceiver/endElement(_:at:)``; scalars through
///   ``ParseEventReceiver/scalar(_:kind:text:at:)``: strings decoded, numbers exactly
///   as written, `true`/`false` as their literal, `null` with no text.
///
/// With `lines: true` the input is a sequence of JSON values (JSON Lines, NDJSON or
/// simply concatenated documents): the document element is an array named
/// `documentName`, and each value is one of its `item`s.
///
/// Memory: one buffer holding the current chunk (and a token cut by its end), the
/// decoded text of a string that has escapes or spans chunks, and the nesting stack.
public final class JSONPushParser: PushParser {
    /// Where the element names of the events (keys, `item`, the document name) are
    /// interned: the same key always arrives as the same ``Name``.
    public let names: NameTable
    /// The input's name in error messages.
    public let displayName: String
    /// Bounds on nesting depth and on the bytes of one string or number; passing one
    /// throws `.data`.
    public let limits: ParseLimits
    /// Whether the input is a sequence of values (JSON Lines) rather than one document.
    public let lines: Bool
    private let receiver: any ParseEventReceiver
    /// ``stringByteClasses``, read once: a global is checked for its first use at
    /// every read.
    private let stringClasses = stringByteClasses
    private let documentName: Name
    private let itemName: Name

    // Safety (`@exclusivity(unchecked)` on the state below, `Unmanaged` names): one
    // thread drives a parser, and a receiver must not feed the parser calling it
    // (see ParseEventReceiver), so no access to the parser's state overlaps another
    // and `storage` is never reallocated while a token in it is being delivered.
    // `containerNames`, `key` and `keyGuesses` hold names of `names`, which the parser
    // owns and which never lets a name go.
    // The buffer: bytes [start, end) of `storage` are read but not yet consumed.
    @exclusivity(unchecked) private var storage: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) private var capacity: Int
    @exclusivity(unchecked) private var start = 0
    @exclusivity(unchecked) private var end = 0
    /// Offset in the input of `storage[0]`.
    @exclusivity(unchecked) private var base = 0

    // Where we are, for positions.
    @exclusivity(unchecked) private var line = 1
    @exclusivity(unchecked) private var lineStart = 0

    // The grammar.
    @exclusivity(unchecked) private var state = State.value
    /// Open containers, innermost last: `true` for an object.
    @exclusivity(unchecked) private var isObject: [Bool] = []
    @exclusivity(unchecked) private var containerNames: [Unmanaged<Name>] = []
    /// The last key read in the innermost open object (when the innermost container
    /// is an array, a key of an object closed inside it, which nothing reads).
    @exclusivity(unchecked) private var key: Unmanaged<Name>?
    /// The key that came last time after the key of id `i` (at `2 * i`) and first in
    /// an object named by the name of id `i` (at `2 * i + 1`): objects of one kind
    /// repeat their keys in one order, so a key guessed right costs one comparison of
    /// its bytes instead of a hash and a probe.
    @exclusivity(unchecked) private var keyGuesses: [Unmanaged<Name>?] = []
    @exclusivity(unchecked) private var sawValue = false

    // A token cut by the end of the buffer.
    @exclusivity(unchecked) private var pending = Pending.none
    @exclusivity(unchecked) private var tokenPosition = SourcePosition.start
    @exclusivity(unchecked) private var numberState: UInt8 = 0
    /// How much of a cut number was already scanned (in `numberState`).
    @exclusivity(unchecked) private var scannedNumberBytes = 0
    /// Decoded text of the current string, once it has an escape or spans buffers.
    @exclusivity(unchecked) private var scratch: [UInt8] = []
    @exclusivity(unchecked) private var inScratch = false

    /// With `lines`, the parse stops where the first line starting at or past this
    /// offset outside any value starts (`Int.max`: never).
    private let stopOffset: Int
    /// Whether it stopped there: the bytes after it are not parsed.
    public private(set) var stoppedAtLineEnd = false

    private enum State: UInt8 {
        case value, valueOrArrayEnd, keyOrObjectEnd, key, colon, commaOrEnd, done
    }

    private enum Pending: UInt8 {
        case none, string, key, number, literal
    }

    /// - Parameters:
    ///   - receiver: where events go.
    ///   - documentName: the name of the document element (ingest uses the input's
    ///     file name without its extension).
    ///   - lines: read a sequence of values (JSON Lines) rather than one document.
    ///   - limits: bounds on nesting depth and on one string's or number's bytes.
    ///   - names: the table keys are interned in.
    ///   - bufferSize: the initial size of the buffer bytes are read into; it grows
    ///     when a token cut by its end or ``writableSpace(minimum:)`` needs more.
    ///   - displayName: the input's name in error messages.
    ///   - startOffset: the offset in the file of the first byte fed: positions'
    ///     byte offsets count from the file's start (lines still count from 1).
    ///   - stopsAtLineEndFrom: with `lines`, stop after the line end before the first
    ///     line starting at or past this offset outside any value, and ignore what
    ///     follows (``stoppedAtLineEnd``): how a ``FilePiece`` ends.
    public init(
        receiver: any ParseEventReceiver, documentName: String, lines: Bool = false,
        limits: ParseLimits = .default, names: NameTable = NameTable(),
        bufferSize: Int = defaultChunkSize, displayName: String = "<memory>",
        startOffset: Int = 0, stopsAtLineEndFrom: Int? = nil
    ) {
        base = startOffset
        lineStart = startOffset
        stopOffset = lines ? stopsAtLineEndFrom ?? .max : .max
        self.receiver = receiver
        self.displayName = displayName
        self.names = names
        self.limits = limits
        self.lines = lines
        self.documentName = names.intern(documentName)
        self.itemName = names.intern("item")
        capacity = max(bufferSize, 64)
        storage = .allocate(capacity: capacity)
    }

    deinit { storage.deallocate() }

    /// Bytes of input consumed so far (from `startOffset`: the offset reached).
    public var consumed: Int { base + start }

    /// The line ends (`\n`) consumed so far.
    public var lineEnds: Int { line - 1 }

    /// Tokenizes `bytes`, the next piece of the input.
    public func feed(_ bytes: UnsafeRawBufferPointer) throws {
        var offset = 0
        while offset < bytes.count {
            let space = writableSpace(minimum: 1)
            let count = min(space.count, bytes.count - offset)
            space.baseAddress!.copyMemory(from: bytes.baseAddress! + offset, byteCount: count)
            offset += count
            try commit(count)
        }
    }

    /// Runs `body`, blaming its errors on the input unless they name a file already.
    private func naming(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as IngestError {
            throw error.inFile(displayName)
        }
    }

    /// Room at the end of the buffer to read the next bytes into, at least `minimum`
    /// bytes; call ``commit(_:)`` with the number of bytes written.
    public func writableSpace(minimum: Int = defaultChunkSize) -> UnsafeMutableRawBufferPointer {
        if start > 0 {
            let kept = end - start
            // Overlapping ranges: copyMemory moves as memmove does.
            if kept > 0 { UnsafeMutableRawPointer(storage).copyMemory(from: storage + start, byteCount: kept) }
            base += start
            end = kept
            start = 0
        }
        if capacity - end < minimum {
            var newCapacity = capacity * 2
            while newCapacity - end < minimum { newCapacity *= 2 }
            let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
            larger.update(from: storage, count: end)
            storage.deallocate()
            storage = larger
            capacity = newCapacity
        }
        return UnsafeMutableRawBufferPointer(start: storage + end, count: capacity - end)
    }

    /// `count` bytes were written into the space ``writableSpace(minimum:)`` gave:
    /// tokenize them.
    public func commit(_ count: Int) throws {
        end += count
        guard !stoppedAtLineEnd else { return }
        try naming { try run(final: false) }
    }

    /// The input has ended: fails unless it held exactly one complete document (or,
    /// with `lines`, complete values only).
    public func finish() throws {
        try naming(finishDocument)
    }

    private func finishDocument() throws {
        if !stoppedAtLineEnd { try run(final: true) }
        if pending != .none { throw error("the input ends inside a value", at: tokenPosition) }
        if lines {
            if state != .value || !isObject.isEmpty {
                throw error("the input ends inside a value (\(expectation))", at: here(start))
            }
            if !sawValue { try receiver.startElement(documentName, kind: .array, at: here(start)) }
            try receiver.endElement(documentName, at: here(start))
        } else if state != .done {
            throw error(
                sawValue
                    ? "the input ends inside the document (\(expectation))"
                    : "no JSON value: the input is empty or blank", at: here(start))
        }
    }

    // MARK: - The tokenizer

    /// Tokenizes the buffer as far as it goes; a token cut by the end of the buffer is
    /// left in it (from `start`) unless `final`.
    private func run(final: Bool) throws {
        if start == 0, base == 0, end >= 2 {
            if end >= 3, storage[0] == 0xEF, storage[1] == 0xBB, storage[2] == 0xBF {
                start = 3  // UTF-8 byte order mark
            } else if storage[0] == 0 || storage[1] == 0 || (storage[0] == 0xFE && storage[1] == 0xFF)
                || (storage[0] == 0xFF && storage[1] == 0xFE)
            {
                throw error(
                    "the input looks like UTF-16 or UTF-32, but JSON must be UTF-8 (convert it first, e.g. iconv -f UTF-16 -t UTF-8)",
                    at: .start)
            }
        }
        switch pending {
        case .none: break
        case .string, .key:
            guard try string(from: start, final: final) else { return }
        case .number:
            guard try number(scanningFrom: start, final: final) else { return }
        case .literal:
            guard try literal(at: start, final: final) else { return }
        }
        let buffer = storage
        var p = start
        let e = end
        while true {
            // White space.
            while p < e {
                let byte = buffer[p]
                if byte == 0x20 || byte == 0x09 || byte == 0x0D {
                    p += 1
                    continue
                }
                if byte == 0x0A {
                    p += 1
                    line += 1
                    lineStart = base + p
                    if lineStart >= stopOffset, state == .value, isObject.isEmpty {
                        start = p
                        stoppedAtLineEnd = true
                        return
                    }
                    continue
                }
                break
            }
            guard p < e else {
                start = p
                return
            }
            let byte = buffer[p]
            switch state {
            case .value, .valueOrArrayEnd:
                if byte == UInt8(ascii: "]"), state == .valueOrArrayEnd {
                    p += 1
                    try close(at: p - 1)
                    continue
                }
                start = p
                switch byte {
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    let object = byte == UInt8(ascii: "{")
                    let name = valueName
                    guard valueDepth <= limits.maxDepth else {
                        throw error(
                            "nested deeper than \(limits.maxDepth) levels", at: here(p),
                            reason: .depthLimit(limits.maxDepth))
                    }
                    try openDocumentIfNeeded(at: p)
                    isObject.append(object)
                    containerNames.append(name)
                    try name._withUnsafeGuaranteedRef {
                        try receiver.startElement($0, kind: object ? .object : .array, at: here(p))
                    }
                    p += 1
                    state = object ? .keyOrObjectEnd : .valueOrArrayEnd
                case UInt8(ascii: "\""):
                    tokenPosition = here(p)
                    pending = .string
                    inScratch = false
                    guard try string(from: p + 1, final: final) else { return }
                    p = start
                case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                    tokenPosition = here(p)
                    pending = .number
                    numberState = 0
                    guard try number(scanningFrom: p, final: final) else { return }
                    p = start
                case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
                    tokenPosition = here(p)
                    pending = .literal
                    guard try literal(at: p, final: final) else { return }
                    p = start
                default:
                    throw unexpected(at: p)
                }
            case .keyOrObjectEnd, .key:
                if byte == UInt8(ascii: "}"), state == .keyOrObjectEnd {
                    p += 1
                    try close(at: p - 1)
                    continue
                }
                guard byte == UInt8(ascii: "\"") else { throw unexpected(at: p) }
                start = p
                tokenPosition = here(p)
                pending = .key
                inScratch = false
                guard try string(from: p + 1, final: final) else { return }
                p = start
            case .colon:
                guard byte == UInt8(ascii: ":") else { throw unexpected(at: p) }
                p += 1
                state = .value
            case .commaOrEnd:
                let object = isObject[isObject.count - 1]
                if byte == UInt8(ascii: ",") {
                    p += 1
                    state = object ? .key : .value
                } else if byte == (object ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    p += 1
                    try close(at: p - 1)
                } else {
                    throw unexpected(at: p)
                }
            case .done:
                throw error(
                    "unexpected \(describe(byte)) after the end of the document", at: here(p),
                    reason: .moreThanOneJSONDocument)
            }
        }
    }

    /// The name of the value about to start, borrowed from the table (`names`), which
    /// holds it: passing it on costs no reference counting.
    private var valueName: Unmanaged<Name> {
        if let last = isObject.last {
            return last ? key! : Unmanaged.passUnretained(itemName)
        }
        return Unmanaged.passUnretained(lines ? itemName : documentName)
    }

    /// The element depth of the value about to start (the document element is 1).
    private var valueDepth: Int { isObject.count + (lines ? 2 : 1) }

    /// In `lines` mode the document element opens with the first value.
    @inline(__always)
    private func openDocumentIfNeeded(at p: Int) throws {
        if !sawValue {
            sawValue = true
            if lines { try receiver.startElement(documentName, kind: .array, at: here(p)) }
        }
    }

    private func close(at p: Int) throws {
        let name = containerNames.removeLast()
        isObject.removeLast()
        // The parent's last key is the closed value's name.
        if isObject.last == true { key = name }
        try name._withUnsafeGuaranteedRef { try receiver.endElement($0, at: here(p)) }
        valueEnded()
    }

    @inline(__always)
    private func valueEnded() {
        if isObject.isEmpty {
            state = lines ? .value : .done
        } else {
            state = .commaOrEnd
        }
    }

    /// A scalar is complete: send it.
    @inline(__always)
    private func emitScalar(_ kind: ContentKind, _ text: UnsafeBufferPointer<UInt8>) throws {
        guard valueDepth <= limits.maxDepth else {
            throw error(
                "nested deeper than \(limits.maxDepth) levels", at: tokenPosition, reason: .depthLimit(limits.maxDepth))
        }
        try openDocumentIfNeeded(at: tokenPosition.byteOffset - base)
        try valueName._withUnsafeGuaranteedRef { try receiver.scalar($0, kind: kind, text: text, at: tokenPosition) }
        valueEnded()
    }

    // MARK: Strings

    /// Scans a string's contents from `p` (just after the opening quote, or where a
    /// cut string resumes). Returns `false` when the buffer ends first: what was read
    /// is kept in `scratch`, and `start` marks the bytes to read again.
    private func string(from p: Int, final: Bool) throws -> Bool {
        let buffer = storage
        let e = end
        var p = p
        var run = p
        let classes = stringClasses
        while true {
            // Eight bytes at a time while none is special, then straight to the first
            // that is.
            while p &+ 8 <= e {
                let special = specialBytes(ByteWord.load(buffer + p))
                if special != 0 {
                    p &+= ByteWord.first(in: special)
                    break
                }
                p &+= 8
            }
            while p < e, classes[Int(buffer[p])] == 0 { p &+= 1 }
            guard p < e else {
                if final { throw error("the input ends inside a string", at: tokenPosition) }
                try keep(buffer + run, p - run)
                start = p
                return false
            }
            switch classes[Int(buffer[p])] {
            case 1:  // the closing quote
                if inScratch {
                    try keep(buffer + run, p - run)
                    try scratch.withUnsafeBufferPointer { try stringEnded($0) }
                } else {
                    try stringEnded(UnsafeBufferPointer(start: buffer + run, count: p - run))
                }
                start = p + 1
                return true
            case 2:  // an escape
                try keep(buffer + run, p - run)
                guard let next = try escape(at: p, final: final) else {
                    start = p
                    return false
                }
                p = next
                run = p
            case 3:
                throw error(
                    "control character U+\(hex(UInt32(buffer[p]), 4)) in a string (write it as an escape such as \\n or \\u\(hex(UInt32(buffer[p]), 4)))",
                    at: here(p))
            default:  // the first byte of a multi-byte UTF-8 sequence
                let length = try utf8SequenceLength(at: p, final: final)
                if length == 0 {
                    try keep(buffer + run, p - run)
                    start = p
                    return false
                }
                p += length
            }
        }
    }

    /// Copies text into `scratch`, the string now being decoded there.
    @inline(__always)
    private func keep(_ bytes: UnsafePointer<UInt8>, _ count: Int) throws {
        guard inScratch || count > 0 else { return }
        if !inScratch {
            inScratch = true
            scratch.removeAll(keepingCapacity: true)
        }
        guard scratch.count + count <= limits.maxTextBytes else {
            throw error(
                "a string longer than \(limits.maxTextBytes) bytes", at: tokenPosition,
                reason: .textLimit(limits.maxTextBytes))
        }
        scratch.append(contentsOf: UnsafeBufferPointer(start: bytes, count: count))
    }

    private func stringEnded(_ text: UnsafeBufferPointer<UInt8>) throws {
        guard text.count <= limits.maxTextBytes else {
            throw error(
                "a string longer than \(limits.maxTextBytes) bytes", at: tokenPosition,
                reason: .textLimit(limits.maxTextBytes))
        }
        let wasKey = pending == .key
        pending = .none
        inScratch = false
        if wasKey {
            key = internKey(text)
            state = .colon
        } else {
            try emitScalar(.string, text)
        }
    }

    /// The interned key for `text`, guessed first from ``keyGuesses``.
    @inline(__always)
    private func internKey(_ text: UnsafeBufferPointer<UInt8>) -> Unmanaged<Name> {
        let first = state == .keyOrObjectEnd
        let after = first ? containerNames[containerNames.count - 1] : key!
        let slot = 2 &* after._withUnsafeGuaranteedRef { $0.id } &+ (first ? 1 : 0)
        if slot < keyGuesses.count, let guess = keyGuesses[slot],
            guess._withUnsafeGuaranteedRef({ names.matches($0, text) })
        {
            return guess
        }
        let interned = names.internUnmanaged(text)
        if slot >= keyGuesses.count { keyGuesses += repeatElement(nil, count: slot + 1 - keyGuesses.count) }
        keyGuesses[slot] = interned
        return interned
    }

    /// Decodes the escape at `p` into `scratch`; returns the index after it, or `nil`
    /// when the buffer ends inside it.
    private func escape(at p: Int, final: Bool) throws -> Int? {
        let buffer = storage
        let available = end - p
        guard available >= 2 else {
            if final { throw error("the input ends inside an escape", at: here(p)) }
            return nil
        }
        let decoded: UInt8
        switch buffer[p + 1] {
        case UInt8(ascii: "\""): decoded = 0x22
        case UInt8(ascii: "\\"): decoded = 0x5C
        case UInt8(ascii: "/"): decoded = 0x2F
        case UInt8(ascii: "b"): decoded = 0x08
        case UInt8(ascii: "f"): decoded = 0x0C
        case UInt8(ascii: "n"): decoded = 0x0A
        case UInt8(ascii: "r"): decoded = 0x0D
        case UInt8(ascii: "t"): decoded = 0x09
        case UInt8(ascii: "u"):
            guard available >= 6 else {
                if final { throw error("the input ends inside a \\u escape", at: here(p)) }
                return nil
            }
            guard let unit = hexQuad(at: p + 2) else {
                throw error("\\u must be followed by four hexadecimal digits", at: here(p))
            }
            var scalar = UInt32(unit)
            var after = p + 6
            if unit >= 0xD800, unit < 0xDC00 {
                guard available >= 12 || final else { return nil }
                guard available >= 12, buffer[p + 6] == UInt8(ascii: "\\"), buffer[p + 7] == UInt8(ascii: "u"),
                    let low = hexQuad(at: p + 8), low >= 0xDC00, low < 0xE000
                else {
                    throw error(
                        "lone surrogate \\u\(hex(UInt32(unit), 4)): a high surrogate must be followed by a \\u escape of a low surrogate",
                        at: here(p))
                }
                scalar = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
                after = p + 12
            } else if unit >= 0xDC00, unit < 0xE000 {
                throw error(
                    "lone surrogate \\u\(hex(UInt32(unit), 4)): a low surrogate without a high one before it",
                    at: here(p))
            }
            try appendUTF8(scalar)
            return after
        default:
            throw error(
                "invalid escape \\\(describeEscape(buffer[p + 1])) (JSON has \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)",
                at: here(p))
        }
        var byte = decoded
        try withUnsafePointer(to: &byte) { try keep($0, 1) }
        return p + 2
    }

    private func appendUTF8(_ scalar: UInt32) throws {
        var bytes: (UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0)
        let count: Int
        switch scalar {
        case ..<0x80:
            bytes.0 = UInt8(scalar)
            count = 1
        case ..<0x800:
            bytes.0 = UInt8(0xC0 | (scalar >> 6))
            bytes.1 = UInt8(0x80 | (scalar & 0x3F))
            count = 2
        case ..<0x10000:
            bytes.0 = UInt8(0xE0 | (scalar >> 12))
            bytes.1 = UInt8(0x80 | ((scalar >> 6) & 0x3F))
            bytes.2 = UInt8(0x80 | (scalar & 0x3F))
            count = 3
        default:
            bytes.0 = UInt8(0xF0 | (scalar >> 18))
            bytes.1 = UInt8(0x80 | ((scalar >> 12) & 0x3F))
            bytes.2 = UInt8(0x80 | ((scalar >> 6) & 0x3F))
            bytes.3 = UInt8(0x80 | (scalar & 0x3F))
            count = 4
        }
        try withUnsafeBytes(of: &bytes) { try keep($0.baseAddress!.assumingMemoryBound(to: UInt8.self), count) }
    }

    private func hexQuad(at p: Int) -> UInt16? {
        var value: UInt16 = 0
        for i in 0..<4 {
            let byte = storage[p + i]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt16(digit)
        }
        return value
    }

    /// The length of the well-formed UTF-8 sequence at `p` (Unicode's table 3-7), or
    /// 0 when the buffer ends inside it.
    private func utf8SequenceLength(at p: Int, final: Bool) throws -> Int {
        let buffer = storage
        let lead = buffer[p]
        let length: Int
        var low: UInt8 = 0x80, high: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0:
            length = 3
            low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED:
            length = 3
            high = 0x9F
        case 0xF0:
            length = 4
            low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4:
            length = 4
            high = 0x8F
        default: throw error("invalid UTF-8: byte 0x\(hex(UInt32(lead), 2)) cannot start a character", at: here(p))
        }
        let available = end - p
        let second = available > 1 ? buffer[p + 1] : nil
        if let second, second < low || second > high {
            throw error("invalid UTF-8: byte 0x\(hex(UInt32(second), 2)) after 0x\(hex(UInt32(lead), 2))", at: here(p))
        }
        var i = 2
        while i < min(length, available) {
            let byte = buffer[p + i]
            guard byte & 0xC0 == 0x80 else {
                throw error("invalid UTF-8: byte 0x\(hex(UInt32(byte), 2)) inside a character", at: here(p))
            }
            i += 1
        }
        if available < length {
            if final { throw error("invalid UTF-8: the input ends inside a character", at: here(p)) }
            return 0
        }
        return length
    }

    // MARK: Numbers

    /// Scans the number starting at `start` (resuming at `from` with `numberState`).
    /// The grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    private func number(scanningFrom from: Int, final: Bool) throws -> Bool {
        let buffer = storage
        let e = end
        let tokenStart = tokenPosition.byteOffset - base
        var p = max(from, tokenStart + scannedNumberBytes)
        var state = numberState
        scan: while p < e {
            let byte = buffer[p]
            let isDigit = byte &- UInt8(ascii: "0") < 10
            switch state {
            case 0:  // start
                if byte == UInt8(ascii: "-") {
                    state = 1
                } else if byte == UInt8(ascii: "0") {
                    state = 2
                } else {
                    state = 3
                }
            case 1:  // after '-'
                guard isDigit else { break scan }
                state = byte == UInt8(ascii: "0") ? 2 : 3
            case 2, 3:  // after a leading 0 / in the integer part
                if isDigit, state == 3 { break }
                if isDigit { throw error("a number cannot have a leading zero", at: tokenPosition) }
                if byte == UInt8(ascii: ".") {
                    state = 4
                } else if byte | 0x20 == UInt8(ascii: "e") {
                    state = 6
                } else {
                    break scan
                }
            case 4:  // after '.'
                guard isDigit else { break scan }
                state = 5
            case 5:  // fraction
                if isDigit { break }
                if byte | 0x20 == UInt8(ascii: "e") { state = 6 } else { break scan }
            case 6:  // after 'e'
                if byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") {
                    state = 7
                } else if isDigit {
                    state = 8
                } else {
                    break scan
                }
            case 7:  // after the exponent's sign
                guard isDigit else { break scan }
                state = 8
            default:  // exponent digits
                guard isDigit else { break scan }
            }
            p += 1
        }
        if p == e, !final {
            guard p - tokenStart <= limits.maxTextBytes else {
                throw error("a number longer than \(limits.maxTextBytes) bytes", at: tokenPosition)
            }
            numberState = state
            scannedNumberBytes = p - tokenStart
            start = tokenStart
            return false
        }
        guard state == 2 || state == 3 || state == 5 || state == 8 else {
            let what =
                state == 1
                ? "a digit after '-'" : state == 4 ? "a digit after the decimal point" : "a digit in the exponent"
            throw error("malformed number: expected \(what)", at: p < e ? here(p) : tokenPosition)
        }
        if p < e, Self.continuesToken(buffer[p]) {
            throw error("malformed number: unexpected \(describe(buffer[p]))", at: here(p))
        }
        scannedNumberBytes = 0
        pending = .none
        try emitScalar(.number, UnsafeBufferPointer(start: buffer + tokenStart, count: p - tokenStart))
        start = p
        return true
    }

    /// Letters, digits and such cannot follow a number or literal directly.
    private static func continuesToken(_ byte: UInt8) -> Bool {
        !(byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == UInt8(ascii: ",")
            || byte == UInt8(ascii: "]") || byte == UInt8(ascii: "}") || byte == UInt8(ascii: "\"")
            || byte == UInt8(ascii: "[") || byte == UInt8(ascii: "{"))
    }

    // MARK: Literals

    private static let literals: [(text: [UInt8], kind: ContentKind)] = [
        (Array("true".utf8), .boolean), (Array("false".utf8), .boolean), (Array("null".utf8), .null)
    ]

    /// `true`, `false` or `null` at `p`.
    private func literal(at p: Int, final: Bool) throws -> Bool {
        let buffer = storage
        let first = buffer[p]
        let entry = Self.literals[first == UInt8(ascii: "t") ? 0 : first == UInt8(ascii: "f") ? 1 : 2]
        let count = entry.text.count
        let available = end - p
        for i in 0..<min(count, available) where buffer[p + i] != entry.text[i] {
            throw error(
                "unexpected \(describe(buffer[p + i])) (expected \(String(decoding: entry.text, as: UTF8.self)))",
                at: here(p + i))
        }
        if available < count {
            if final {
                throw error("the input ends inside \(String(decoding: entry.text, as: UTF8.self))", at: here(p))
            }
            start = p
            return false
        }
        if available > count, Self.continuesToken(buffer[p + count]) {
            throw error(
                "unexpected \(describe(buffer[p + count])) after \(String(decoding: entry.text, as: UTF8.self))",
                at: here(p + count))
        }
        pending = .none
        let text =
            entry.kind == .null
            ? UnsafeBufferPointer(start: buffer + p, count: 0)
            : UnsafeBufferPointer(start: buffer + p, count: count)
        try emitScalar(entry.kind, text)
        start = p + count
        return true
    }

    // MARK: Errors and positions

    @inline(__always)
    private func here(_ p: Int) -> SourcePosition {
        let offset = base + p
        return SourcePosition(line: line, column: offset - lineStart + 1, byteOffset: offset)
    }

    private func error(_ message: String, at position: SourcePosition, reason: IngestError.Reason? = nil) -> IngestError
    {
        IngestError(.data, message, position: position, reason: reason)
    }

    private func unexpected(at p: Int) -> IngestError {
        error("unexpected \(describe(storage[p])) (expected \(expectation))", at: here(p))
    }

    private var expectation: String {
        switch state {
        case .value: "a value"
        case .valueOrArrayEnd: "a value or ']'"
        case .keyOrObjectEnd: "a key in double quotes or '}'"
        case .key: "a key in double quotes"
        case .colon: "':' after the key"
        case .commaOrEnd: isObject.last == true ? "',' or '}'" : "',' or ']'"
        case .done: "the end of the input"
        }
    }

    private func describe(_ byte: UInt8) -> String {
        if byte >= 0x21, byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x\(hex(UInt32(byte), 2))"
    }

    private func describeEscape(_ byte: UInt8) -> String {
        byte >= 0x21 && byte < 0x7F ? String(Character(Unicode.Scalar(byte))) : "(byte 0x\(hex(UInt32(byte), 2)))"
    }
}

private func hex(_ value: UInt32, _ width: Int) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
}

/// Per byte inside a string: 0 plain ASCII, 1 `"`, 2 `\`, 3 control, 4 non-ASCII.
nonisolated(unsafe) private let stringByteClasses: UnsafePointer<UInt8> = {
    let table = UnsafeMutablePointer<UInt8>.allocate(capacity: 256)
    for byte in 0..<256 {
        table[byte] = byte < 0x20 ? 3 : byte == 0x22 ? 1 : byte == 0x5C ? 2 : byte >= 0x80 ? 4 : 0
    }
    return UnsafePointer(table)
}()

/// The bytes of `word` that are a quote, a backslash, a control character or not
/// ASCII (see ``ByteWord``).
@inline(__always)
private func specialBytes(_ word: UInt64) -> UInt64 {
    ByteWord.below(word, 0x20) | ByteWord.equal(word, 0x22) | ByteWord.equal(word, 0x5C) | ByteWord.nonASCII(word)
}
