import Foundation
import Testing
@testable import IngestCore
@testable import IngestParsers
import IngestTesting
import IngestTestSupport

/// `RecordReader.run(_:into:inputsAtOnce:)`: several inputs parsed at once, written
/// in input order; and the pipe's spill that lets an input wait in flat memory.
@Suite struct ParallelImportTests {
    /// An output that collects every record on the writing thread, and can refuse one.
    final class CollectingOutput: Output {
        let collector = RecordCollector()
        var refused: String?
        var committed = false
        var displayName: String { "collector" }
        func open() {}
        func write(_ body: (any RecordSink) throws -> Void) throws {
            try body(RefusingSink(collector: collector, refused: refused))
        }
        func commit() { committed = true }
        func discard() {}
    }

    /// Passes records on, but throws at the one whose `name` is `refused`.
    final class RefusingSink: RecordSink {
        let collector: RecordCollector
        let refused: String?
        init(collector: RecordCollector, refused: String?) {
            self.collector = collector
            self.refused = refused
        }
        func write(_ record: IngestRecord) throws {
            if case .text(let name) = record["name"], name == refused {
                throw IngestError(.data, "refused \(name)", position: record.position)
            }
            try collector.write(record)
        }
        func renameTable(_ old: String, to new: String) throws { try collector.renameTable(old, to: new) }
    }

    /// Inputs of different sizes and formats in `directory`: XML and JSON, one with a
    /// field the others lack, one much larger than a pipe holds.
    static func inputs(in directory: TemporaryDirectory) throws -> [String] {
        var paths: [String] = []
        for (index, count) in [3, 20_000, 1, 7_000, 250, 12_000].enumerated() {
            let path: String
            if index % 2 == 0 {
                path = directory.path("part\(index).xml")
                let items = (0..<count).map { "<item id=\"\($0)\"><name>x\(index)-\($0)</name></item>" }
                try Data("<items>\n\(items.joined(separator: "\n"))\n</items>\n".utf8).write(
                    to: URL(fileURLWithPath: path))
            } else {
                path = directory.path("part\(index).json")
                let extra = index == 3 ? #", "extra": 1.5"# : ""
                let items = (0..<count).map { #"{"name": "x\#(index)-\#($0)", "n": \#($0)\#(extra)}"# }
                try Data(#"{"items": [\#(items.joined(separator: ",\n"))]}"#.utf8).write(to: URL(fileURLWithPath: path))
            }
            paths.append(path)
        }
        return paths
    }

    static func run(_ paths: [String], inputsAtOnce: Int, refusing refused: String? = nil) throws -> (
        CollectingOutput, ImportSummary
    ) {
        let output = CollectingOutput()
        output.refused = refused
        let importer = Importer(options: .init(recordPath: nil))
        let summary = try importer.run(
            try paths.map { try InputFile(path: $0) }, into: output, inputsAtOnce: inputsAtOnce)
        return (output, summary)
    }

    @Test("parsed three at once, the records are those of one at a time, in the same order")
    func sameRecordsInTheSameOrder() throws {
        let directory = try TemporaryDirectory()
        let paths = try Self.inputs(in: directory)
        let (one, oneSummary) = try Self.run(paths, inputsAtOnce: 1)
        let (three, threeSummary) = try Self.run(paths, inputsAtOnce: 3)
        #expect(one.collector.records.count == 39_254)
        #expect(three.collector.records == one.collector.records)
        #expect(three.collector.records.map(\.position) == one.collector.records.map(\.position))
        #expect(threeSummary.recordCount == oneSummary.recordCount)
        #expect(threeSummary.tables == oneSummary.tables)
        #expect(threeSummary.inputs == oneSummary.inputs)
        #expect(threeSummary.inputs.map(\.name) == paths)
        #expect(three.committed)
    }

    @Test("an input that is not well-formed fails the import, named, whatever its place")
    func aBrokenInputFailsTheImport() throws {
        let directory = try TemporaryDirectory()
        var paths = try Self.inputs(in: directory)
        let broken = directory.path("broken.xml")
        try Data("<items>\n<item><name>a</name></item>\n<item><name>b</nam></item>\n".utf8)
            .write(to: URL(fileURLWithPath: broken))
        paths.insert(broken, at: 2)
        for jobs in [1, 2, 4] {
            let error = #expect(throws: IngestError.self) { try Self.run(paths, inputsAtOnce: jobs) }
            #expect(error?.file == broken)
            #expect(error?.position?.line == 3)
        }
    }

    @Test("a record the output refuses stops the import, naming the input it came from")
    func theOutputsFailureNamesItsInput() throws {
        let directory = try TemporaryDirectory()
        let paths = try Self.inputs(in: directory)
        let error = #expect(throws: IngestError.self) {
            try Self.run(paths, inputsAtOnce: 3, refusing: "x3-6000")
        }
        #expect(error?.message == "refused x3-6000")
        #expect(error?.file == paths[3])
    }

    @Test("a pipe that may spill lets its producer run to the end before anything is drained, in order")
    func aSpillingPipeKeepsOrder() throws {
        let pipe = RecordPipe(batchSize: 10, depth: 1, spillLimit: 1 << 30, spillName: "test")
        let name = Name(id: 0, qualified: "n", local: "n", namespaceURI: nil)
        let table = "t"
        // 5,000 records in batches of 10: all but one batch go to the spill.
        for index in 0..<5000 {
            try pipe.write(
                IngestRecord(
                    table: table, fields: [.init(name: name, value: .text("v\(index)"))],
                    position: SourcePosition(line: index + 1, column: 1, byteOffset: index)))
        }
        try pipe.renameTable("t", to: "u")
        try pipe.finish()
        let collector = RecordCollector()
        try pipe.drain(into: collector)
        #expect(collector.records.count == 5000)
        #expect(collector.records.map { $0["n"] } == (0..<5000).map { .text("v\($0)") })
        #expect(collector.records.map(\.position.line) == Array(1...5000))
        #expect(collector.renames.map(\.new) == ["u"])
    }

    @Test("a batch taken apart and rebuilt from its raw parts holds the same records")
    func batchPartsRoundTrip() throws {
        let batch = RecordBatch()
        let names = ["a", "b"].enumerated().map { Name(id: $0, qualified: $1, local: $1, namespaceURI: nil) }
        for index in 0..<300 {
            batch.append(names[0], .inferred, text: "\(index)")
            batch.append(names[1], index % 2 == 0 ? .true : .null)
            batch.endRecord(
                table: index % 3 == 0 ? "x" : "y", position: SourcePosition(line: index, column: 2, byteOffset: 9))
        }
        var copies: [[UInt8]] = []
        let parts = batch.withParts { parts, bytes, fields, entries in
            copies = [Array(bytes), Array(fields), Array(entries)]
            return parts
        }
        let rebuilt = RecordBatch(parts: parts) { region, memory in
            let copy = copies[region == .bytes ? 0 : region == .fields ? 1 : 2]
            #expect(copy.count == memory.count)
            copy.withUnsafeBytes { memory.copyMemory(from: $0) }
        }
        #expect(rebuilt.count == batch.count)
        func described(_ batch: RecordBatch) -> [String] {
            (0..<batch.count).map { index in
                let record = batch.record(at: index)
                return "\(record.table) \(record.position) "
                    + record.fields.map { "\($0.name.qualified)=\($0.value) \($0.origin)" }.joined(separator: ",")
            }
        }
        #expect(described(rebuilt) == described(batch))
        #expect(
            described(rebuilt)[3]
                == "x 3:2 a=\(FieldValue.number(.init(text: "3", kind: .integer))) element,b=null element")
    }
}
