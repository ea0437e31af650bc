import Testing
@testable import IngestCore

/// `CountingSink` counts a batch as it was handed on, whatever the sink after it does
/// with the batch: a record pipe gives it to the writer's thread, which may change it
/// (`LineShiftingSink` moves its lines) while the parsing thread goes on.
@Suite struct CountingSinkTests {
    /// Empties every batch it is given, as a thread that took the batch over might.
    final class ClearingSink: RecordSink {
        func write(_ record: IngestRecord) throws {}
        func write(_ batch: RecordBatch) throws { batch.clear() }
        func renameTable(_ old: String, to new: String) throws {}
    }

    @Test("A batch is counted as it was passed on, by table, even if the sink after it empties it")
    func countsBeforePassingOn() throws {
        let names = NameTable()
        let batch = RecordBatch()
        for (index, table) in ["people", "people", "posts", "people"].enumerated() {
            batch.append(names.intern("id"), .integer, text: "\(index + 1)")
            batch.endRecord(table: table, position: SourcePosition(line: index + 1, column: 1, byteOffset: index))
        }
        let counter = CountingSink(forwardingTo: ClearingSink())
        try counter.write(batch)
        #expect(batch.count == 0)
        #expect(counter.recordCount == 4)
        #expect(counter.tables.map(\.name) == ["people", "posts"])
        #expect(counter.tables.map(\.records) == [3, 1])
    }
}
