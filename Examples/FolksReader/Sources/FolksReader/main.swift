import Folks
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// folks-reader [FILE]: the people of FILE (default: the repository's
// Samples/folks.xml), read twice — streamed from the file, then pushed in 16-byte
// pieces as if they came from a network — with Neuburg's delegate-swapping parsers.

/// Samples/folks.xml of the repository this example sits in (Examples/FolksReader).
let samplePath: String = {
    var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(5)  // Examples/FolksReader/Sources/FolksReader/main.swift
    return (parts + ["Samples", "folks.xml"]).joined(separator: "/")
}()

let path = CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : samplePath

do {
    let people = try readPeople(fromFile: path)
    print("\(people.count) people in \(path):")
    for person in people { print("  \(person)") }

    let bytes = try readBytes(path)
    let pushed = try readPeople(pushing: pieces(of: bytes, size: 16), displayName: path)
    print(
        "pushed in \((bytes.count + 15) / 16) pieces of 16 bytes: \(pushed == people ? "the same \(pushed.count) people" : "\(pushed)")"
    )
} catch {
    // IngestError prints as `file:line:column: message`.
    print("folks-reader: \(error)")
    exit(1)
}
