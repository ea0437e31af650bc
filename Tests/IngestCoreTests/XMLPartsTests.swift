import Foundation
import Testing
@testable import IngestCore
@testable import IngestParsers
import IngestTesting
import IngestTestSupport

/// One big XML file read in parts on several threads, split between records
/// (`FilePiece.XMLContext`, `Importer.parts(of:threads:threadsBesideWriter:)`): the
/// same records, tables, order and positions as read whole — also when a line that
/// looks like a record's start is inside a comment, a CDATA section or a record.
@Suite struct XMLPartsTests {
    typealias CollectingOutput = ParallelImportTests.CollectingOutput

    static func file(_ name: String, in directory: TemporaryDirectory, _ text: String) throws -> String {
        let path = directory.path(name)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// `count` person records, one per few lines, under `<people>` in namespace `p`.
    static func people(_ count: Int, _ extra: (Int) -> String = { _ in "" }) -> String {
        var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!-- people -->\n"
        text += "<people xmlns:p=\"urn:p\"\n        p:source=\"test\">\n"
        for index in 0..<count {
            text += "  <person id=\"\(index)\" p:n=\"\(index % 3)\">\n    <name>r\(index)</name>\n"
            text += "    <score>\(index % 5 == 0 ? "\(index).5" : "\(index)")</score>\n  </person>\n"
            text += extra(index)
        }
        return text + "</people>\n"
    }

    static func importer(recordPath: String? = nil, minimumPartSize: Int = 1024) throws -> Importer {
        var options = Importer.Options(recordPath: try recordPath.map(RecordPath.init))
        options.minimumPartSize = minimumPartSize
        return Importer(options: options)
    }

    static func run(_ path: String, inputsAtOnce: Int, importer: Importer) throws -> (CollectingOutput, ImportSummary) {
        let output = CollectingOutput()
        let summary = try importer.run([InputFile(path: path)], into: output, inputsAtOnce: inputsAtOnce)
        return (output, summary)
    }

    /// Reads `path` whole, then 2, 3 and 6 at once: the same records, positions,
    /// renames and summary.
    static func expectSameAsWhole(_ path: String, records expected: Int, recordPath: String? = nil) throws {
        let importer = try importer(recordPath: recordPath)
        #expect(try importer.parts(of: InputFile(path: path), threads: 3, threadsBesideWriter: nil)?.count == 3)
        let (whole, wholeSummary) = try run(path, inputsAtOnce: 1, importer: importer)
        #expect(whole.collector.records.count == expected)
        for jobs in [2, 3, 6] {
            let (parts, summary) = try run(path, inputsAtOnce: jobs, importer: importer)
            #expect(parts.collector.records == whole.collector.records, "\(jobs) at once")
            #expect(parts.collector.records.map(\.position) == whole.collector.records.map(\.position))
            #expect(parts.collector.renames.map(\.new) == whole.collector.renames.map(\.new))
            #expect(summary.inputs == wholeSummary.inputs)
            #expect(summary.tables == wholeSummary.tables)
            #expect(parts.committed)
        }
    }

    @Test("a file is split at lines that start with a record, each part after its ancestors' start tags")
    func partsStartAtRecords() throws {
        let directory = try TemporaryDirectory()
        let text = Self.people(3000)
        let path = try Self.file("people.xml", in: directory, text)
        let parts = try #require(
            try Self.importer().parts(of: InputFile(path: path), threads: 5, threadsBesideWriter: 4))
        #expect(parts.count == 4)
        let bytes = Array(text.utf8)
        #expect(parts[0].piece?.start == 0)
        #expect(parts[0].piece?.xml == FilePiece.XMLContext(recordDepth: 2, prefix: []))
        for (index, part) in parts.enumerated().dropFirst() {
            let start = try #require(part.piece?.start)
            #expect(bytes[start - 1] == 0x0A && Array(bytes[start..<start + 9]) == Array("  <person".utf8))
            #expect(abs(start - bytes.count / 4 * index) < 200)
            #expect(parts[index - 1].piece?.endsNear == start)
            #expect(part.piece?.xml?.prefix == Array("<people xmlns:p=\"urn:p\"         p:source=\"test\">\n".utf8))
        }
        #expect(parts.last?.piece?.endsNear == nil)
    }

    @Test("read whole: too small, one thread, libxml2, a DTD, another encoding; records under another parent")
    func whatIsReadWhole() throws {
        let directory = try TemporaryDirectory()
        let text = Self.people(3000)
        let path = try Self.file("people.xml", in: directory, text)
        func parts(_ path: String, _ importer: Importer, threads: Int = 4) throws -> [InputFile]? {
            try importer.parts(of: InputFile(path: path), threads: threads, threadsBesideWriter: nil)
        }
        #expect(try parts(path, Self.importer(minimumPartSize: 1 << 20)) == nil)
        #expect(try parts(path, Self.importer(), threads: 1) == nil)
        var options = Importer.Options(xmlParser: .libxml2)
        options.minimumPartSize = 1024
        #expect(try parts(path, Importer(options: options)) == nil)
        let doctype = text.replacingOccurrences(of: "<!-- people -->", with: "<!DOCTYPE people [<!ENTITY e \"x\">]>")
        #expect(try parts(Self.file("dtd.xml", in: directory, doctype), Self.importer()) == nil)
        let latin = text.replacingOccurrences(of: "UTF-8", with: "ISO-8859-1")
        #expect(try parts(Self.file("latin.xml", in: directory, latin), Self.importer()) == nil)
        // The first <person> is under an element beside the records' parent: parts
        // begin under it, but no line past it is under the same ancestors alone, so
        // the first part reads the whole file.
        let nested =
            "<r>\n<meta><person/></meta>\n" + String(repeating: "<x>\n  <person/>\n</x>\n", count: 500) + "</r>\n"
        let nestedPath = try Self.file("nested.xml", in: directory, nested)
        let byPath = try Self.importer(recordPath: "r/x/person")
        #expect(try parts(nestedPath, byPath)?.count == 4)
        let (one, _) = try Self.run(nestedPath, inputsAtOnce: 1, importer: byPath)
        let (three, _) = try Self.run(nestedPath, inputsAtOnce: 3, importer: byPath)
        #expect(one.collector.records.count == 500)
        #expect(three.collector.records == one.collector.records)
        #expect(three.collector.records.map(\.position) == one.collector.records.map(\.position))
    }

    @Test("read in parts, an XML file gives the records, order, positions and summary it gives read whole")
    func sameAsWhole() throws {
        let directory = try TemporaryDirectory()
        try Self.expectSameAsWhole(try Self.file("people.xml", in: directory, Self.people(4000)), records: 4000)
        try Self.expectSameAsWhole(
            try Self.file("path.xml", in: directory, Self.people(4000)), records: 4000, recordPath: "people/person")
    }

    @Test("lines that look like records inside comments, CDATA, records and deeper elements are not part ends")
    func lookalikeLines() throws {
        let directory = try TemporaryDirectory()
        let text = Self.people(4000) { index in
            switch index % 400 {
            case 37: "<!--\n  <person id=\"c\">\n-->\n"
            case 38: "  <person><note><![CDATA[\n  <person id=\"d\">\n]]></note></person>\n"
            case 39: "  <person>\n  <person>nested</person>\n  </person>\n"
            case 40: "  <person\n     id=\"x\"\n  >text</person>\n"
            default: ""
            }
        }
        try Self.expectSameAsWhole(try Self.file("lookalikes.xml", in: directory, text), records: 4030)
        // One comment far longer than a part, its every line a lookalike.
        let long = Self.people(3000) { index in
            index == 200 ? "<!--\n" + String(repeating: "  <person id=\"c\">\n", count: 8000) + "-->\n" : ""
        }
        try Self.expectSameAsWhole(try Self.file("long.xml", in: directory, long), records: 3000)
    }

    @Test("a collection that turns impure, and a second kind of record, are read as whole")
    func impureCollection() throws {
        let directory = try TemporaryDirectory()
        let text = Self.people(4000) { index in
            index == 2500 ? "  <robot id=\"r\"><name>k</name></robot>\n" : index == 3500 ? "stray text\n" : ""
        }
        let path = try Self.file("impure.xml", in: directory, text)
        try Self.expectSameAsWhole(path, records: 4001)
        let (whole, _) = try Self.run(path, inputsAtOnce: 1, importer: Self.importer())
        #expect(Set(whole.collector.records.map(\.table)) == ["person", "robot"])
    }

    @Test("a malformed tag in a later part fails the import at the file's own line and column")
    func anErrorNamesTheFilesLine() throws {
        let directory = try TemporaryDirectory()
        let text = Self.people(4000) { $0 == 3210 ? "  <person><name>x</nam></person>\n" : "" }
        let path = try Self.file("bad.xml", in: directory, text)
        let whole = #expect(throws: IngestError.self) { try Self.run(path, inputsAtOnce: 1, importer: Self.importer()) }
        #expect(whole?.position?.line == 4 + 3211 * 4 + 1)
        for jobs in [2, 3, 5] {
            let error = #expect(throws: IngestError.self) {
                try Self.run(path, inputsAtOnce: jobs, importer: Self.importer())
            }
            #expect(error?.file == path)
            #expect(error?.message == whole?.message)
            #expect(error?.position?.line == whole?.position?.line, "\(jobs) at once")
            #expect(error?.position?.column == whole?.position?.column, "\(jobs) at once")
        }
    }

    @Test(
        "a part's parser reads its prefix, stops before the first record line past its end, and counts from its start")
    func aPartsParserStopsBeforeARecord() throws {
        let directory = try TemporaryDirectory()
        let text = "<a>\n  <r>1</r>\n  <r>2</r>\n  <r>3</r>\n</a>\n"
        let path = try Self.file("p.xml", in: directory, text)
        // From the second record, to stop at the first record line at or past offset 18
        // (inside the second record; the third's line starts at 26).
        let piece = FilePiece(start: 15, endsNear: 18, xml: .init(recordDepth: 2, prefix: Array("<a>\n".utf8)))
        let collector = RecordCollector()
        try Self.importer().read(InputFile(piece: piece, of: InputFile(path: path)), into: collector)
        #expect(collector.records.count == 1)
        let whole = RecordCollector()
        try Self.importer().read(InputFile(path: path), into: whole)
        #expect(collector.records.first == whole.records[1])
        #expect(piece.end == 26)
        #expect(piece.lineEnds == 1)
        #expect(collector.records.first?.position == SourcePosition(line: 2, column: 3, byteOffset: 17))
    }
}
