import IngestCore
import Testing
@testable import IngestPostgres

/// A row past what PostgreSQL reads in one line of COPY is the input's error (65),
/// never a trap growing the buffer it is encoded into. Pure code: no server.
@Suite struct CopyRowLengthTests {
    @Test("the limit is PostgreSQL's MaxAllocSize, 1 GB less a byte")
    func postgresLimit() {
        #expect(CopyRowLength().limit == 1_073_741_823)
    }

    @Test("a row up to the limit passes")
    func withinLimit() throws {
        let length = CopyRowLength()
        try length.check(rowBytes: 0, adding: 1_073_741_823, field: "f", table: "t", position: nil)
        try length.check(rowBytes: 1_000_000_000, adding: 73_741_823, field: "f", table: "t", position: nil)
    }

    @Test(
        "a field that takes the row past the limit: .data naming the field, the table, the size and the limit",
        arguments: [
            (0, 1_073_741_824, "1073741824"), (1_000_000_000, 100_000_000, "1100000000"), (0, 5 << 30, "5368709120"),
            (10, Int.max, "more than \(Int.max)")
        ])
    func pastLimit(rowBytes: Int, fieldBytes: Int, size: String) throws {
        let position = SourcePosition(line: 2, column: 1, byteOffset: 10)
        let error = #expect(throws: IngestError.self) {
            try CopyRowLength().check(
                rowBytes: rowBytes, adding: fieldBytes, field: "body", table: "pages", position: position)
        }
        #expect(error?.kind == .data)
        #expect(error?.position == position)
        #expect(
            error?.message
                == "field body makes the row for table pages \(size) bytes, more than PostgreSQL's limit of 1073741823 bytes for one row"
        )
    }
}
