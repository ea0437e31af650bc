import Foundation
import IngestCore
import IngestFeeds
import Testing

/// Writes a file piece by piece, so a test makes a large input without holding it.
private func writeFile(_ path: String, _ pieces: (FileHandle) throws -> Void) throws {
    guard FileManager.default.createFile(atPath: path, contents: nil) else { throw CocoaError(.fileWriteUnknown) }
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    defer { try? handle.close() }
    try pieces(handle)
}

@Suite("ingest feed: one huge token, and many items to JSON, in bounded memory")
struct FeedBoundsCLITests {
    @Test("an attribute value over 64 MiB in a feed file stops the read at the limit: exit 65, naming it")
    func hugeAttribute() throws {
        let box = try Sandbox()
        try writeFile(box.path("huge.rss")) { file in
            try file.write(contentsOf: Data(#"<?xml version="1.0"?><rss version="2.0"><channel><title>T</title><item><enclosure url=""#.utf8))
            let block = Data(repeating: UInt8(ascii: "x"), count: 1 << 20)
            for _ in 0..<80 { try file.write(contentsOf: block) }
            try file.write(contentsOf: Data(#""/></item></channel></rss>"#.utf8))
        }
        let started = Date()
        let result = try box.run(["feed", "huge.rss", "--to", "ndjson", "--out", "-"])
        #expect(result.status == 65, "\(result)")
        #expect(result.stderr.contains("more than \(ParseLimits.default.maxTextBytes) bytes without a complete tag or text"),
                "\(result)")
        // A backstop only: the read stops once the limit is passed, in one pass.
        #expect(Date().timeIntervalSince(started) < 120)
    }
}
