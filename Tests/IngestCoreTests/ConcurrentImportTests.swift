import Foundation
import Testing
@testable import IngestCore
@testable import IngestParsers
import IngestTesting
import IngestTestSupport

/// `Importer.runConcurrently`: parsing on a second thread, the sink on this one.
@Suite struct ConcurrentImportTests {
    /// Takes records until the one named `refused`, which it refuses at its position.
    final class RefusingSink: RecordSink {
        let refused: String
        var written: [String] = []
        init(refusing refused: String) { self.refused = refused }

        func write(_ record: IngestRecord) throws {
            guard case .text(let name) = record["name"] else { return }
            guard name != refused else {
                throw IngestError(.data, "refused \(refused)", position: record.position)
            }
            written.append(name)
        }

        func renameTable(_ old: String, to new: String) throws {}
        func finish() throws {}
    }

    @Test func recordsArriveInOrder() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("input.xml")
        let items = (0..<5000).map { "<item><name>n\($0)</name></item>" }.joined(separator: "\n")
        try Data("<items>\n\(items)\n</items>\n".utf8).write(to: URL(fileURLWithPath: path))
        let sink = RefusingSink(refusing: "none")
        try Importer().readConcurrently(InputFile(path: path), into: sink)
        #expect(sink.written.count == 5000)
        #expect(sink.written == (0..<5000).map { "n\($0)" })
    }

    @Test func aSinkErrorNamesTheInputLikeAParseErrorDoes() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("input.xml")
        try Data("<items>\n  <item><name>a</name></item>\n  <item><name>b</name></item>\n</items>\n".utf8)
            .write(to: URL(fileURLWithPath: path))
        let error = #expect(throws: IngestError.self) {
            try Importer().readConcurrently(InputFile(path: path), into: RefusingSink(refusing: "b"))
        }
        #expect(error?.message == "refused b")
        #expect(error?.file == path)
        #expect(error?.position?.line == 3)
        #expect(error?.description.hasPrefix("\(path):3:") == true, "\(String(describing: error))")
    }
}
