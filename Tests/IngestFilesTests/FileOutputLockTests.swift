import Foundation
import Testing
@testable import IngestFiles
@testable import IngestCore
import IngestTestSupport

/// Two runs on one file output: the lock beside it, creation that never
/// overwrites, the temporary files of killed runs.
@Suite struct FileOutputLockTests {
    let factory = RecordFactory()

    @Test("While one run holds the lock, another open fails .temporary after its timeout; after the commit it proceeds",
          arguments: [FileOutput.Format.json, .jsonLines, .propertyList(.binary), .keyedArchive(.xml)])
    func secondOpenWaits(format: FileOutput.Format) throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("out")
        let first = FileOutput(path: path, format: format, replace: true)
        try first.open()
        let second = FileOutput(path: path, format: format, replace: true)
        second.lockTimeout = 0.2
        let error = #expect(throws: IngestError.self) { try second.open() }
        #expect(error?.kind == .temporary)
        #expect(error?.reason == .outputBusy(waitedSeconds: 0.2))

        try first.write { try $0.write(factory.record("t", [("a", .text("first"))])) }
        try first.commit()
        try second.writeAndCommit { try $0.write(factory.record("t", [("a", .text("second"))])) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == ["out"])
    }

    @Test("Without replace, a file another program created meanwhile is never overwritten")
    func createNeverOverwrites() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("out.json")
        let output = FileOutput(path: path, format: .json)
        try output.open()
        try touch(path, "theirs")
        try output.write { try $0.write(factory.record("t", [("a", .text("mine"))])) }
        let error = #expect(throws: IngestError.self) { try output.commit() }
        output.discard()
        #expect(error?.kind == .output)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "theirs")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == ["out.json"])
    }

    @Test("A leftover temporary file under this process's own pid and next name is kept, and another name is taken")
    func leftoverUnderOwnPIDIsSteppedOver() throws {
        let directory = try TemporaryDirectory()
        let leftover = ".out.json.ingest-\(getpid())-\(TemporaryFiles.nextSerial() + 1).tmp"
        try touch(directory.path(leftover), "an earlier process's")
        let output = FileOutput(path: directory.path("out.json"), format: .json)
        try output.writeAndCommit { try $0.write(factory.record("t", [("a", .text("x"))])) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted() == [leftover, "out.json"].sorted())
        #expect(try String(contentsOfFile: directory.path(leftover), encoding: .utf8) == "an earlier process's")
    }

    @Test("open() removes the temporary files (outputs and spools) of dead processes beside its target")
    func removesStaleTemporaryFiles() throws {
        let directory = try TemporaryDirectory()
        let dead = try deadProcessID()
        let stale = [".out.plist.ingest-\(dead)-1.tmp", ".out.plist.ingest-\(dead)-2.tmp"]
        let kept = [".out.plist.ingest-\(getpid())-1.tmp", ".out.db.ingest-\(dead)-1.tmp"]
        for name in stale + kept { try touch(directory.path(name)) }
        let output = FileOutput(path: directory.path("out.plist"), format: .propertyList(.xml))
        try output.writeAndCommit { try $0.write(factory.record("t", [("a", .text("x"))])) }
        #expect(output.removedTemporaryFiles == stale.map(directory.path).sorted())
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted() == (kept + ["out.plist"]).sorted())
    }
}
