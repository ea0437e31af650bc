import Testing
@testable import IngestCore
@testable import IngestParsers
import IngestTesting
import IngestTestSupport

/// `AutomaticDocumentMapping(table:)`: every record goes to one table (`--table`).
@Suite struct TableNameTests {
    static func map(_ xml: String, table: String) throws -> CollectingSink {
        let sink = CollectingSink()
        let mapping = AutomaticDocumentMapping(sink: sink, table: table)
        try ExpatParser().parse(bytes: Array(xml.utf8), into: try HandlerStack(mapping: mapping))
        try mapping.checkMatched()
        return sink
    }

    @Test func everyRecordGoesToTheNamedTable() throws {
        let sink = try Self.map(try String(contentsOfFile: folksURL.path, encoding: .utf8), table: "folk")
        #expect(sink.records.map(\.table) == ["folk", "folk", "folk"])
        #expect(sink.renames.isEmpty)
    }

    @Test func aCollectionThatLosesPurityKeepsTheName() throws {
        let sink = try Self.map("<root><row a=\"1\"/>text<row a=\"2\"/></root>", table: "rows")
        #expect(sink.records.map(\.table) == ["rows", "rows"])
        #expect(sink.renames.isEmpty)
    }

    @Test func recordsOfASecondKindAreAnError() throws {
        let error = try #require(throws: IngestError.self) {
            try Self.map("<root><row a=\"1\"/><meta>x</meta></root>", table: "rows")
        }
        #expect(error.kind == .data)
        #expect(
            error.message
                == "--table rows takes records of one kind, but <meta> records follow <row> records: choose the records with --records"
        )
    }
}
