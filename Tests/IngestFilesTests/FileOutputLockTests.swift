import Foundation
import Testing
@testable import IngestFiles
@testable import IngestCore
@testable import IngestPOSIX
import IngestTestSupport

/// Two runs on one file output: the lock beside it, creation that never
/// overwrites, the temporary files of killed runs.
@Suite struct FileOutputLockTests {
    let factory = RecordFactory()

    @Test(
        "While one run holds the lock, another open fails .temporary after its timeout; after the commit it proceeds",
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
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted()
                == [leftover, "out.json"].sorted())
        #expect(try String(contentsOfFile: directory.path(leftover), encoding: .utf8) == "an earlier process's")
    }

    @Test(
        "200 outputs open at once from many tasks: each temporary file has its own name and is registered for signal cleanup until it ends"
    )
    func manyOutputsAtOnce() async throws {
        let directory = try TemporaryDirectory()
        let count = 200
        let paths = try await withThrowingTaskGroup(of: (String, Bool, Bool).self) { group in
            for index in 0..<count {
                let target = directory.path("out-\(index).json")
                group.addTask {
                    let file = try AtomicFile(target: target)
                    let registered = TemporaryFiles.isRegistered(file.temporaryPath)
                    // Give the other tasks time to open theirs while this one is open.
                    try await Task.sleep(for: .milliseconds(20))
                    if index.isMultiple(of: 2) { try file.commit() } else { file.discard() }
                    return (file.temporaryPath, registered, TemporaryFiles.isRegistered(file.temporaryPath))
                }
            }
            var results: [(String, Bool, Bool)] = []
            for try await result in group { results.append(result) }
            return results
        }
        #expect(Set(paths.map(\.0)).count == count)
        let registeredWhileOpen = paths.filter { $0.1 }.count
        let registeredAfter = paths.filter { $0.2 }.count
        #expect(registeredWhileOpen == count, "every temporary file registered while open")
        #expect(registeredAfter == 0, "none left registered after commit or discard")
        let left = try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
        #expect(left.count == count / 2 && left.allSatisfy { $0.hasPrefix("out-") })
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
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted()
                == (kept + ["out.plist"]).sorted())
    }
}
