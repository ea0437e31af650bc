import Foundation
import Testing
import IngestCore
import IngestParsers
@testable import IngestSchema
import IngestTesting
import IngestTestSupport

/// A mapping schema over one big JSON Lines file read in parts: a part that holds
/// none of the schema's records does not fail the file; a file none of whose parts
/// holds one fails as it would read whole.
@Suite struct SchemaLinesPartsTests {
    /// An output that collects every record on the writing thread.
    final class CollectingOutput: Output {
        let collector = RecordCollector()
        var displayName: String { "collector" }
        func open() {}
        func write(_ body: (any RecordSink) throws -> Void) throws { try body(collector) }
        func commit() {}
        func discard() {}
    }

    static let schema = """
        {"entities": [{"name": "order", "records": "item/orders/item", "table": "orders",
          "fields": [{"name": "sku"}, {"name": "count", "type": "integer"}]}]}
        """

    /// 3,000 lines; with `orders`, the last ten carry two orders each.
    static func file(in directory: TemporaryDirectory, orders: Bool) throws -> String {
        let path = directory.path("lines.ndjson")
        let lines = (0..<3000).map { index in
            orders && index >= 2990
                ? #"{"id": \#(index), "orders": [{"sku": "a\#(index)", "count": 1}, {"sku": "b", "count": 2}]}"#
                : #"{"id": \#(index), "name": "nobody orders"}"#
        }
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    static func run(_ path: String, inputsAtOnce: Int) throws -> [CollectedRecord] {
        let schema = try CompiledSchema(
            JSONDecoder().decode(MappingSchema.self, from: Data(Self.schema.utf8)), file: "s.json", output: .database)
        var options = Importer.Options(mapping: SchemaRecordMapping(schema: schema), format: .jsonLines)
        options.minimumPartSize = 1024
        let importer = Importer(options: options)
        #expect(try importer.parts(of: InputFile(path: path), atMost: 4)?.count == 4)
        let output = CollectingOutput()
        try importer.run([InputFile(path: path)], into: output, inputsAtOnce: inputsAtOnce)
        return output.collector.records
    }

    @Test("records only in the last part: read in parts, the same records as read whole")
    func recordsInOnePart() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.file(in: directory, orders: true)
        let whole = try Self.run(path, inputsAtOnce: 1)
        #expect(whole.count == 20)
        #expect(try Self.run(path, inputsAtOnce: 5) == whole)
    }

    @Test("the records' parent only in a later part, empty: the message of the file read whole")
    func emptyParentInALaterPart() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.file(in: directory, orders: false)
        var text = try String(contentsOfFile: path, encoding: .utf8)
        text += #"{"id": 3000, "orders": []}"# + "\n"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let whole = #expect(throws: IngestError.self) { try Self.run(path, inputsAtOnce: 1) }
        #expect(whole?.message.contains("holds none") == true, "\(String(describing: whole))")
        let parts = #expect(throws: IngestError.self) { try Self.run(path, inputsAtOnce: 5) }
        #expect(parts?.message == whole?.message)
    }

    @Test("no part holds a record: the file fails as it does read whole")
    func noRecordInAnyPart() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.file(in: directory, orders: false)
        let whole = #expect(throws: IngestError.self) { try Self.run(path, inputsAtOnce: 1) }
        #expect(whole?.reason?.code == .schemaRecordsMatchedNothing)
        let parts = #expect(throws: IngestError.self) { try Self.run(path, inputsAtOnce: 5) }
        #expect(parts?.message == whole?.message)
        #expect(parts?.file == path)
    }
}
