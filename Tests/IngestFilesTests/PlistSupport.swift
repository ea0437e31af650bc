import Foundation
@testable import IngestFiles
@testable import IngestCore
@testable import IngestParsers
import IngestTesting
import IngestTestSupport

/// Builds records and runs them through file sinks, for the plist, archive and JSON tests.
struct RecordFactory {
    let names = NameTable()

    func record(_ table: String, _ fields: [(String, FieldValue)]) -> IngestRecord {
        IngestRecord(
            table: table, fields: fields.map { IngestRecord.Field(name: names.intern($0.0), value: $0.1) })
    }

    /// A value as the XML mapping would classify `text`.
    func inferred(_ text: String) -> FieldValue {
        var text = text
        return text.withUTF8 { FieldValue.inferring($0) }
    }
}

/// Writes `records` (with `renames` applied after the record of the given index)
/// to a fresh file output of `format`, and returns the file's bytes.
func writeFile(
    _ records: [IngestRecord], in directory: TemporaryDirectory, name: String = "out",
    renames: [Int: (String, String)] = [:], format: FileOutput.Format
) throws -> Data {
    let path = directory.path(name)
    try FileOutput(path: path, format: format, replace: true).writeAndCommit { sink in
        for (index, record) in records.enumerated() {
            try sink.write(record)
            if let (old, new) = renames[index] { try sink.renameTable(old, to: new) }
        }
    }
    return try Data(contentsOf: URL(fileURLWithPath: path))
}

/// Maps Samples/`name` with the automatic mapping into a new file at `path`.
func importSample(_ name: String, records: String? = nil, to path: String, format: FileOutput.Format) throws {
    let importer = Importer(options: .init(recordPath: try records.map(RecordPath.init)))
    try importer.run(
        [InputFile(path: packageRoot.appendingPathComponent("Samples/\(name)").path)],
        into: FileOutput(path: path, format: format))
}

/// Foundation's reading of a property list.
func readPlist(_ data: Data) throws -> Any {
    try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
}

/// The trailer fields of a `bplist00` file.
struct BinaryPlistTrailer {
    var offsetSize: Int, refSize: Int, objectCount: UInt64, topObject: UInt64, offsetTableOffset: UInt64

    init(_ data: Data) {
        let trailer = Array(data.suffix(32))
        func number(_ range: Range<Int>) -> UInt64 { trailer[range].reduce(0) { $0 << 8 | UInt64($1) } }
        offsetSize = Int(trailer[6])
        refSize = Int(trailer[7])
        objectCount = number(8..<16)
        topObject = number(16..<24)
        offsetTableOffset = number(24..<32)
    }
}

extension Data {
    /// How many times `bytes` occurs.
    func occurrences(of bytes: [UInt8]) -> Int {
        var count = 0
        var start = startIndex
        while let found = range(of: Data(bytes), in: start..<endIndex) {
            count += 1
            start = found.upperBound
        }
        return count
    }
}

/// The instant an ISO 8601 text names, computed by Foundation (not by ingest).
func isoDate(_ text: String) -> Date {
    let formatter = ISO8601DateFormatter()
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.formatOptions = text.count == 10 ? [.withFullDate] : [.withInternetDateTime]
    return formatter.date(from: text)!
}
