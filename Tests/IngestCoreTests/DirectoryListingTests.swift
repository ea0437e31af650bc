import Foundation
import Testing
@testable import IngestCore
@testable import IngestPOSIX
import IngestTestSupport

/// `POSIX.entryNames(in:)`, which the stale-file sweep and `ingest feed DIRECTORY`
/// list directories with: every name, whole, however long, over many `readdir` buffers.
@Suite struct DirectoryListingTests {
    @Test("Every name, the longest a file system allows among them, as FileManager lists them")
    func listsEveryName() throws {
        let directory = try TemporaryDirectory()
        // 3,000 entries fill several of glibc's directory buffers; names of every
        // length up to NAME_MAX put entries of every size at a buffer's end.
        var made: [String] = []
        for index in 0..<3_000 {
            let length = 1 + index % 255
            let stem = "\(index)-"
            let name = stem + String(repeating: "n", count: max(0, length - stem.utf8.count))
            #expect(FileManager.default.createFile(atPath: directory.path(name), contents: nil), "made \(name)")
            made.append(name)
        }
        let names = try #require(POSIX.entryNames(in: directory.url.path))
        #expect(names.contains(".") && names.contains(".."))
        #expect(names.filter { $0 != "." && $0 != ".." }.sorted() == made.sorted())
        #expect(made.contains { $0.utf8.count == 255 })
    }

    @Test("A directory that is not there: nil, and errno says why")
    func missingDirectory() throws {
        let directory = try TemporaryDirectory()
        #expect(POSIX.entryNames(in: directory.path("absent")) == nil)
        #expect(POSIX.lastError.contains("No such file"))
    }
}
