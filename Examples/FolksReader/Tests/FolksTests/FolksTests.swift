import Folks
import IngestCore
import IngestParsers
import Testing

/// The repository's Samples/folks.xml: Neuburg's three people, byte for byte.
let samplePath: String = {
    var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(5)  // Examples/FolksReader/Tests/FolksTests/FolksTests.swift
    return (parts + ["Samples", "folks.xml"]).joined(separator: "/")
}()

let seedPeople = [
    Person(firstName: "Matt", lastName: "Neuburg"),
    Person(firstName: "Snidely", lastName: "Whiplash"),
    Person(firstName: "Dudley", lastName: "Doright")
]

@Suite struct FolksReaderTests {
    @Test func readsTheSeedsThreePeopleFromTheFile() throws {
        #expect(try readPeople(fromFile: samplePath) == seedPeople)
    }

    @Test(arguments: [1, 2, 3, 7, 16, 64, 1 << 20])
    func pushedInPiecesOfAnySizeGivesTheSamePeople(size: Int) throws {
        let bytes = try fileBytes(samplePath)
        #expect(try readPeople(pushing: pieces(of: bytes, size: size)) == seedPeople)
    }

    @Test func theSameHandlersReadTheDocumentThroughLibXML2() throws {
        let people = PeopleParser()
        try LibXML2Parser().parse(InputFile(path: samplePath), into: HandlerStack(root: people))
        #expect(people.people == seedPeople)
    }

    @Test func unknownElementsAreSkippedWithEverythingInsideThem() throws {
        let xml = """
            <people>
              <note><person><firstName>Not</firstName></person></note>
              <person nick="M"><firstName>Matt</firstName><age>55</age>
                <lastName>Neu<!-- a comment -->burg</lastName></person>
            </people>
            """
        #expect(try readPeople(pushing: [Array(xml.utf8)]) == [Person(firstName: "Matt", lastName: "Neuburg")])
    }

    @Test func textIsAccumulatedAcrossPiecesEntitiesAndCDATA() throws {
        let xml =
            "<people><person><firstName>Zoë &amp; <![CDATA[<Ann>]]></firstName><lastName>Ōtsuka</lastName></person></people>"
        // One byte at a time: the text arrives in many pieces, and "ë" and "Ō" are split.
        let people = try readPeople(pushing: pieces(of: Array(xml.utf8), size: 1))
        #expect(people == [Person(firstName: "Zoë & <Ann>", lastName: "Ōtsuka")])
    }

    @Test func aPersonWithoutNamesAndAnEmptyListAreKept() throws {
        #expect(try readPeople(pushing: [Array("<people><person/></people>".utf8)]) == [Person()])
        #expect(try readPeople(pushing: [Array("<people/>".utf8)]) == [])
    }

    @Test func malformedInputIsAnErrorWithItsPosition() throws {
        let xml = "<people>\n<person><firstName>Matt</lastName></person>\n</people>"
        let error = try #require(throws: IngestError.self) {
            try readPeople(pushing: pieces(of: Array(xml.utf8), size: 5), displayName: "bad.xml")
        }
        #expect(error.kind == .data)
        #expect(error.file == "bad.xml")
        #expect(error.position?.line == 2)
        #expect(error.description.hasPrefix("bad.xml:2:"))
    }

    @Test func anEmptyDocumentIsAnError() throws {
        #expect(throws: IngestError.self) { try readPeople(pushing: [[UInt8]]()) }
    }

    @Test func aMissingFileIsAnInputError() throws {
        let error = try #require(throws: IngestError.self) { try readPeople(fromFile: "/nonexistent/folks.xml") }
        #expect(error.kind == .input)
    }

    @Test func piecesCoverTheBytesInOrder() {
        let bytes = Array(0..<10 as Range<UInt8>)
        #expect(pieces(of: bytes, size: 4).map(Array.init) == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]])
        #expect(pieces(of: [], size: 4).isEmpty)
    }
}

/// The bytes of `path`, read through `InputFile`.
func fileBytes(_ path: String) throws -> [UInt8] {
    let input = try InputFile(path: path)
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
        let count = try buffer.withUnsafeMutableBytes { try input.read(into: $0) }
        if count == 0 { return bytes }
        bytes += buffer[..<count]
    }
}
