import Foundation
import Testing
@testable import IngestCore
@testable import IngestParsers
import IngestTesting
import IngestTestSupport

/// One big JSON Lines file read in parts on several threads (`FilePiece`,
/// `Importer.parts(of:atMost:)`): the same records, in the same order, at the same
/// lines as read whole — also when a value spans the line end a part was to stop at.
@Suite struct JSONLinesPartsTests {
    typealias CollectingOutput = ParallelImportTests.CollectingOutput

    /// `lines` written to `name` in `directory`, one after another.
    static func file(_ name: String, in directory: TemporaryDirectory, _ lines: [String]) throws -> String {
        let path = directory.path(name)
        try Data(lines.joined().utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// A JSON Lines file of `count` records, a few with a field the others lack.
    static func records(_ count: Int) -> [String] {
        (0..<count).map { index in
            let extra = index % 997 == 5 ? #", "extra": [1, {"x": \#(index)}]"# : ""
            return #"{"name": "r\#(index)", "n": \#(index)\#(extra)}"# + "\n"
        }
    }

    /// The importer whose parts are at least `minimumPartSize` bytes.
    static func importer(minimumPartSize: Int = 1024) -> Importer {
        var options = Importer.Options(format: .jsonLines)
        options.minimumPartSize = minimumPartSize
        return Importer(options: options)
    }

    static func run(
        _ path: String, inputsAtOnce: Int, importer: Importer = importer(), refusing refused: String? = nil
    ) throws -> (CollectingOutput, ImportSummary) {
        let output = CollectingOutput()
        output.refused = refused
        let summary = try importer.run([InputFile(path: path)], into: output, inputsAtOnce: inputsAtOnce)
        return (output, summary)
    }

    /// Reads `path` whole and in 2, 3 and 8 parts (3, 4 and 9 at once, one thread
    /// writing); every way gives the same.
    static func expectSameAsWhole(_ path: String, records expected: Int) throws {
        let (whole, wholeSummary) = try run(path, inputsAtOnce: 1)
        #expect(whole.collector.records.count == expected)
        for jobs in [3, 4, 9] {
            #expect(try importer().parts(of: InputFile(path: path), atMost: jobs - 1)?.count ?? 0 >= 2)
            let (parts, summary) = try run(path, inputsAtOnce: jobs)
            #expect(parts.collector.records == whole.collector.records, "\(jobs) at once")
            #expect(parts.collector.records.map(\.position) == whole.collector.records.map(\.position))
            #expect(summary.inputs == wholeSummary.inputs)
            #expect(summary.recordCount == expected)
            #expect(parts.committed)
        }
    }

    @Test("a file is split just after line ends, at lines that may start a value")
    func partsStartAtLines() throws {
        let directory = try TemporaryDirectory()
        let lines = Self.records(2000)
        let path = try Self.file("a.ndjson", in: directory, lines)
        let parts = try #require(try Self.importer().parts(of: InputFile(path: path), atMost: 4))
        #expect(parts.count == 4)
        let bytes = Array(lines.joined().utf8)
        let starts = parts.map { $0.piece!.start }
        #expect(starts[0] == 0)
        for (index, start) in starts.enumerated().dropFirst() {
            #expect(bytes[start - 1] == 0x0A && bytes[start] == UInt8(ascii: "{"))
            #expect(abs(start - bytes.count / 4 * index) < 100)
            #expect(parts[index - 1].piece!.endsNear == start)
        }
        #expect(parts.last!.piece!.endsNear == nil)
    }

    @Test(
        "read whole: a file too small for two parts, one thread, JSON that is not JSON Lines, a record path, one line"
    )
    func whatIsReadWhole() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.file("a.ndjson", in: directory, Self.records(2000))
        #expect(try Self.importer(minimumPartSize: 1 << 20).parts(of: InputFile(path: path), atMost: 4) == nil)
        #expect(try Self.importer().parts(of: InputFile(path: path), atMost: 1) == nil)
        var options = Importer.Options(format: .json)
        options.minimumPartSize = 1024
        #expect(try Importer(options: options).parts(of: InputFile(path: path), atMost: 4) == nil)
        options = Importer.Options(recordPath: try RecordPath("item/extra"), format: .jsonLines)
        options.minimumPartSize = 1024
        #expect(try Importer(options: options).parts(of: InputFile(path: path), atMost: 4) == nil)
        // One line, nowhere to split.
        let line = try Self.file(
            "one.ndjson", in: directory, [#"{"a": ""# + String(repeating: "x", count: 9000) + "\"}\n"])
        #expect(try Self.importer().parts(of: InputFile(path: line), atMost: 4) == nil)
    }

    @Test("read in parts, a JSON Lines file gives the records, order, positions and summary it gives read whole")
    func sameAsWhole() throws {
        let directory = try TemporaryDirectory()
        try Self.expectSameAsWhole(try Self.file("a.ndjson", in: directory, Self.records(5000)), records: 5000)
    }

    @Test("values that span lines (pretty-printed, one far longer than a part) are read as whole, parts read again")
    func valuesSpanningPartEnds() throws {
        let directory = try TemporaryDirectory()
        var lines: [String] = []
        for index in 0..<600 {
            lines.append("{\n  \"name\": \"p\(index)\",\n  \"n\": [\n    \(index)\n  ]\n}\n")
            if index == 100 {
                // One value of 30 KiB over many lines whose every line starts a value:
                // it spans several parts' ends.
                lines.append("[\n" + (0..<3000).map { "\"\($0)\"" }.joined(separator: ",\n") + "\n]\n")
            }
        }
        try Self.expectSameAsWhole(try Self.file("pretty.ndjson", in: directory, lines), records: 601)
        // A malformed value just past the long one: the part read again meets it.
        lines[102] = "{\n  \"name\": tru\n}\n"
        let bad = try Self.file("bad.ndjson", in: directory, lines)
        let whole = #expect(throws: IngestError.self) { try Self.run(bad, inputsAtOnce: 1) }
        #expect(whole?.position?.line ?? 0 > 3608)
        for jobs in [3, 4, 9] {
            let error = #expect(throws: IngestError.self) { try Self.run(bad, inputsAtOnce: jobs) }
            #expect(error?.message == whole?.message)
            #expect(error?.position == whole?.position, "\(jobs) at once")
        }
    }

    @Test("a byte order mark at the start, and the file among other inputs, read as whole")
    func byteOrderMarkAndOtherInputs() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.file("bom.ndjson", in: directory, ["\u{FEFF}"] + Self.records(5000))
        try Self.expectSameAsWhole(path, records: 5000)
        // Beside a file too small to split and an XML input: 9 threads, 8 beside the
        // writer's, 2 for each of three inputs.
        let small = try Self.file("small.ndjson", in: directory, Self.records(3))
        let xml = directory.path("people.xml")
        try Data("<people>\n<person><name>x</name></person>\n</people>\n".utf8).write(to: URL(fileURLWithPath: xml))
        let inputs = [small, path, xml]
        #expect(try Self.importer().parts(of: InputFile(path: path), atMost: 2)?.count == 2)
        func run(_ jobs: Int) throws -> (CollectingOutput, ImportSummary) {
            let output = CollectingOutput()
            var options = Importer.Options()
            options.minimumPartSize = 1024
            let summary = try Importer(options: options).run(
                inputs.map { try InputFile(path: $0) }, into: output, inputsAtOnce: jobs)
            return (output, summary)
        }
        let (one, oneSummary) = try run(1)
        let (nine, nineSummary) = try run(9)
        #expect(one.collector.records.count == 5004)
        #expect(nine.collector.records == one.collector.records)
        #expect(nine.collector.records.map(\.position) == one.collector.records.map(\.position))
        #expect(nineSummary.inputs == oneSummary.inputs)
        #expect(nineSummary.tables == oneSummary.tables)
    }

    @Test("blank lines, CRLF line ends, scalars and a last line without its line end read as whole")
    func oddLines() throws {
        let directory = try TemporaryDirectory()
        var lines: [String] = []
        for index in 0..<3000 {
            switch index % 5 {
            case 0: lines.append("\(index)\r\n")
            case 1: lines.append("\n\n\"s\(index)\"\n")
            case 2: lines.append(#"{"name": "r\#(index)"}"# + "   \n")
            case 3: lines.append("true\nnull\n")
            default: lines.append(#"[\#(index), "x"]"# + "\n")
            }
        }
        lines.append(#"{"last": 1}"#)
        try Self.expectSameAsWhole(try Self.file("odd.ndjson", in: directory, lines), records: 3601)
    }

    @Test("a malformed line in a later part fails the import at the file's own line and column")
    func anErrorNamesTheFilesLine() throws {
        let directory = try TemporaryDirectory()
        var lines = Self.records(5000)
        lines[4321] = #"{"name": "r4321", "n": tru}"# + "\n"
        let path = try Self.file("bad.ndjson", in: directory, lines)
        let whole = #expect(throws: IngestError.self) { try Self.run(path, inputsAtOnce: 1) }
        #expect(whole?.position?.line == 4322)
        #expect(whole?.position?.byteOffset ?? 0 > lines[..<4321].joined().utf8.count)
        for jobs in [3, 5] {
            let error = #expect(throws: IngestError.self) { try Self.run(path, inputsAtOnce: jobs) }
            #expect(error?.file == path)
            #expect(error?.message == whole?.message)
            #expect(error?.position == whole?.position, "\(jobs) at once")
        }
    }

    @Test("a record the output refuses in a later part is named at its line in the file")
    func theOutputsFailureNamesTheFilesLine() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.file("a.ndjson", in: directory, Self.records(5000))
        for jobs in [1, 4] {
            let error = #expect(throws: IngestError.self) { try Self.run(path, inputsAtOnce: jobs, refusing: "r3999") }
            #expect(error?.message == "refused r3999")
            #expect(error?.file == path)
            #expect(error?.position?.line == 4000, "\(jobs) at once")
        }
    }

    @Test("a part's parser stops at the first line end past its end outside any value, and counts from its start")
    func aPartsParserStopsAtALineEnd() throws {
        let directory = try TemporaryDirectory()
        let text = "{\"a\": 1}\n{\"b\":\n [2]}\n{\"c\": 3}\n{\"d\": 4}\n"
        let path = try Self.file("p.ndjson", in: directory, [text])
        // From the second value, to stop at the first line end at or past offset 12
        // (inside the second value, whose line ends at 20).
        let piece = FilePiece(start: 9, endsNear: 12)
        let collector = RecordCollector()
        try Self.importer().read(InputFile(piece: piece, of: InputFile(path: path)), into: collector)
        #expect(collector.records.map(\.order) == [["b"]])
        #expect(piece.end == 21)
        #expect(piece.lineEnds == 2)
        #expect(collector.records.first?.position.byteOffset == 9)
    }
}
