/// A parser that reads an input in chunks and emits the one event model
/// (``ParseEventReceiver``) as it goes, so memory stays flat whatever the input size.
///
/// `ExpatParser`, `LibXML2Parser` and ``JSONParser`` read any ``ByteSource``. When
/// the bytes are pushed at you instead — from a socket, a decompressor, a callback —
/// make the parser's ``PushParser`` and feed it.
public protocol StreamingParser {
    /// How many bytes are read (or handed to the push parser) at a time.
    var chunkSize: Int { get }

    /// Parses all of `input`, sending events to `receiver`. `progress` is called after
    /// each chunk with the number of input bytes consumed so far.
    func parse(
        _ input: any ByteSource, into receiver: any ParseEventReceiver,
        progress: ((Int) -> Void)?) throws

    /// A push parser with this parser's settings, sending events to `receiver`;
    /// errors name the input `displayName`.
    func makePushParser(receiver: any ParseEventReceiver, displayName: String) throws -> any PushParser
}

extension StreamingParser {
    /// Parses a complete document held in memory, in pieces of ``chunkSize`` bytes
    /// (for tests and small inputs).
    public func parse(
        bytes: some Collection<UInt8>, into receiver: any ParseEventReceiver,
        displayName: String = "<memory>"
    ) throws {
        let parser = try makePushParser(receiver: receiver, displayName: displayName)
        let bytes = Array(bytes)
        try bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let count = min(chunkSize, raw.count - offset)
                try parser.feed(UnsafeRawBufferPointer(rebasing: raw[offset..<offset + count]))
                offset += count
            }
        }
        try parser.finish()
    }
}

/// A parser fed bytes as they arrive, Expat's shape: create it, ``feed(_:)`` pieces
/// of the document split anywhere (inside a tag, a token or a UTF-8 sequence), then
/// ``finish()``.
///
/// ```swift
/// let stack = HandlerStack(root: PeopleHandler())
/// let parser = try ExpatParser().makePushParser(receiver: stack, displayName: "folks.xml")
/// for try await chunk in socket.chunks { try chunk.withUnsafeBytes { try parser.feed($0) } }
/// try parser.finish()
/// ```
///
/// The first error stops the parse: it is thrown from the call that met it, with the
/// input's name and the position, and every later call throws it again.
public protocol PushParser: AnyObject {
    /// Parses the next piece of the document.
    func feed(_ bytes: UnsafeRawBufferPointer) throws

    /// The document has ended: parses what is left and checks that it is complete.
    func finish() throws
}

extension PushParser {
    /// Parses the next piece of the document.
    public func feed(_ bytes: some Sequence<UInt8>) throws {
        let array = Array(bytes)
        try array.withUnsafeBytes { try feed($0) }
    }
}

/// How many bytes parsers read at a time.
public let defaultChunkSize = 256 << 10
