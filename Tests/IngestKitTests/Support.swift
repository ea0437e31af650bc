import Foundation
@testable import IngestKit

/// The package root, found from this file's path.
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
let folksURL = packageRoot.appendingPathComponent("Samples/folks.xml")

/// A sink that keeps every record, as (table, [(field, value)]).
final class CollectingSink: RecordSink {
    struct Row: Equatable {
        var table: String
        var fields: [String: FieldValue]
        var order: [String]
    }
    var rows: [Row] = []
    var renames: [(String, String)] = []
    var finished = false

    func write(_ record: Record) throws {
        rows.append(Row(table: record.table,
                        fields: Dictionary(record.fields.map { ($0.name.qualified, $0.value) }, uniquingKeysWith: { a, _ in a }),
                        order: record.fields.map(\.name.qualified)))
    }

    func renameTable(_ old: String, to new: String) throws {
        renames.append((old, new))
        for index in rows.indices where rows[index].table == old { rows[index].table = new }
    }

    func finish() throws { finished = true }
}

/// Runs `xml` through Expat and the automatic mapping.
func mapXML(_ xml: String, records: String? = nil, chunkSize: Int = defaultChunkSize) throws -> CollectingSink {
    let sink = CollectingSink()
    let mapping = AutomaticMapping(recordPath: try records.map(RecordPath.init), sink: sink)
    let stack = HandlerStack(root: mapping.makeRootHandler())
    try ExpatParser(chunkSize: chunkSize).parse(bytes: Array(xml.utf8), into: stack)
    try mapping.checkMatched()
    return sink
}

/// Records every event as text, for parser tests.
final class EventLog: ParseEventReceiver {
    var events: [String] = []
    var positions: [SourcePosition] = []
    private var pendingText = ""

    func startElement(_ name: Name, attributes: Attributes, at position: SourcePosition) throws {
        flush()
        let attrs = attributes.map { " \($0.name.qualified)=\($0.string)" }.joined()
        events.append("<\(name.qualified)\(name.namespaceURI.map { "{\($0)}" } ?? "")\(attrs)>")
        positions.append(position)
    }

    func text(_ bytes: UnsafeBufferPointer<UInt8>, at position: SourcePosition) throws {
        pendingText += String(decoding: bytes, as: UTF8.self)
    }

    func endElement(_ name: Name, at position: SourcePosition) throws {
        flush()
        events.append("</\(name.qualified)>")
    }

    private func flush() {
        if !pendingText.isEmpty { events.append(pendingText) }
        pendingText = ""
    }
}

/// A temporary directory removed when the value goes away.
final class TemporaryDirectory {
    let url: URL
    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("ingest-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(at: url) }
    func path(_ name: String) -> String { url.appendingPathComponent(name).path }
}
