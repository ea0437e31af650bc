import IngestParsers
import IngestTestSupport
import IngestTesting
import Testing

@testable import IngestCore

/// What keeps a mapping's work linear and its memory flat on hostile records: many
/// names repeated in one record, records of a megabyte each.
@Suite("AutomaticDocumentMapping: bounded on large and repetitive records")
struct AutomaticMappingBoundsTests {
    /// Keeps the size of every batch handed over.
    final class BatchSizes: RecordSink {
        var batches: [(records: Int, bytes: Int)] = []
        let collector = RecordCollector()
        var records: [CollectedRecord] { collector.records }
        func write(_ record: IngestRecord) throws { try collector.write(record) }
        func write(_ batch: RecordBatch) throws {
            batches.append((batch.count, batch.byteCount))
            for index in 0..<batch.count { try collector.write(batch.record(at: index)) }
        }
        func renameTable(_ old: String, to new: String) throws {}
    }

    @Test("many names, each repeated in one record, each become their own list, in order")
    func manyRepeatedNames() throws {
        let names = 3000
        var xml = "<r><i>"
        for round in 0..<3 {
            for name in 0..<names { xml += "<n\(name)>\(round)-\(name)</n\(name)>" }
        }
        xml += "</i></r>"
        let sink = BatchSizes()
        let mapping = AutomaticDocumentMapping(sink: sink)
        try ExpatParser().parse(bytes: Array(xml.utf8), into: try HandlerStack(mapping: mapping))
        try mapping.flush()
        let record = try #require(sink.records.first)
        #expect(record.order.count == names)
        for name in [0, 1, names / 2, names - 1] {
            #expect(record.fields["n\(name)"] == .json(#"["0-\#(name)","1-\#(name)","2-\#(name)"]"#, .array))
        }
    }

    @Test("a batch is handed over at a megabyte of values, however few records it holds")
    func batchesBoundedInBytes() throws {
        let value = String(repeating: "x", count: 300_000)
        let xml = "<r>" + String(repeating: "<i><v>\(value)</v></i>", count: 20) + "<i><v>small</v></i></r>"
        let sink = BatchSizes()
        let mapping = AutomaticDocumentMapping(sink: sink)
        try ExpatParser().parse(bytes: Array(xml.utf8), into: try HandlerStack(mapping: mapping))
        try mapping.flush()
        #expect(sink.records.count == 21)
        #expect(sink.batches.count >= 5, "\(sink.batches)")
        // A batch passes the bound by at most the record that took it there.
        #expect(sink.batches.allSatisfy { $0.bytes < AutomaticDocumentMapping.batchBytes + 310_000 }, "\(sink.batches)")
        #expect(sink.batches.dropLast().allSatisfy { $0.records == 4 }, "\(sink.batches)")
    }
}
