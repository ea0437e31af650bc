import Foundation
import IngestCore
import IngestParsers
import IngestTesting

/// The package root, found from this file's path.
public let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()
public let folksURL = packageRoot.appendingPathComponent("Samples/folks.xml")

/// The tests' name for the testing module's sink.
public typealias CollectingSink = RecordCollector

/// Runs `xml` through Expat and the automatic mapping.
public func mapXML(_ xml: String, records: String? = nil, chunkSize: Int = defaultChunkSize) throws -> CollectingSink {
    let sink = CollectingSink()
    let mapping = AutomaticDocumentMapping(recordPath: try records.map(RecordPath.init), sink: sink)
    let stack = try HandlerStack(mapping: mapping)
    try ExpatParser(chunkSize: chunkSize).parse(bytes: Array(xml.utf8), into: stack)
    try mapping.checkMatched()
    return sink
}

/// Records every event as text, for parser tests.
public final class EventLog: ParseEventReceiver {
    public var events: [String] = []
    public var positions: [SourcePosition] = []
    private var pendingText = ""

    public init() {}

    public func startElement(_ name: Name, attributes: Attributes, at position: SourcePosition) throws {
        flush()
        let attrs = attributes.map { " \($0.name.qualified)=\($0.string)" }.joined()
        events.append("<\(name.qualified)\(name.namespaceURI.map { "{\($0)}" } ?? "")\(attrs)>")
        positions.append(position)
    }

    public func text(_ bytes: UnsafeBufferPointer<UInt8>, at position: SourcePosition) throws {
        pendingText += String(decoding: bytes, as: UTF8.self)
    }

    public func endElement(_ name: Name, at position: SourcePosition) throws {
        flush()
        events.append("</\(name.qualified)>")
    }

    private func flush() {
        if !pendingText.isEmpty { events.append(pendingText) }
        pendingText = ""
    }
}

/// A temporary directory removed when the value goes away.
public final class TemporaryDirectory {
    public let url: URL
    public init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("ingest-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(at: url) }
    public func path(_ name: String) -> String { url.appendingPathComponent(name).path }
}
