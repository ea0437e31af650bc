import IngestCore
import IngestParsers

/// The people of a `folks.xml`-shaped document, read from a file (or standard input,
/// `-`) in chunks by Expat: Neuburg's
/// `[[NSXMLParser alloc] initWithContentsOfURL:url]`, `setDelegate:` and `parse`.
public func readPeople(fromFile path: String) throws -> [Person] {
    let people = PeopleParser()
    try ExpatParser().parse(InputFile(path: path), into: HandlerStack(root: people))
    return people.people
}

/// The people of a document whose bytes arrive in pieces — from a socket, a
/// decompressor, a callback — pushed into Expat as they come. A piece may end
/// anywhere: inside a tag, a name or a UTF-8 sequence.
public func readPeople(
    pushing pieces: some Sequence<some Collection<UInt8>>,
    displayName: String = "<pushed>"
) throws -> [Person] {
    let people = PeopleParser()
    let parser = ExpatParser().makePushParser(receiver: HandlerStack(root: people), displayName: displayName)
    for piece in pieces {
        try parser.feed(piece)
    }
    try parser.finish()
    return people.people
}

/// `bytes` cut into pieces of `size` bytes (the last one may be shorter).
public func pieces(of bytes: [UInt8], size: Int) -> [ArraySlice<UInt8>] {
    precondition(size > 0, "a piece holds at least one byte")
    return stride(from: 0, to: bytes.count, by: size).map { bytes[$0..<min($0 + size, bytes.count)] }
}
