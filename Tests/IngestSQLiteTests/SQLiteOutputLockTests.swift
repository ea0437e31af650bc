import Foundation
import GRDB
import Testing
@testable import IngestSQLite
@testable import IngestCore
@testable import IngestParsers
import IngestTestSupport

/// Two runs on one database: the lock beside it, creation that never overwrites,
/// the temporary files of killed runs.
@Suite struct SQLiteOutputLockTests {
    let names = NameTable()

    func person(_ name: String) -> IngestRecord {
        IngestRecord(table: "people", fields: [.init(name: names.intern("name"), value: .text(name))])
    }

    func names(in path: String) throws -> [String] {
        try DatabaseQueue(path: path).read { try String.fetchAll($0, sql: "SELECT name FROM people ORDER BY rowid") }
    }

    @Test("While one output holds the lock, a second open waits for it, then fails .temporary naming the lock file")
    func secondOpenTimesOut() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("out.db")
        let first = SQLiteOutput(path: path, mode: .replace)
        try first.open()
        #expect(FileManager.default.fileExists(atPath: directory.path(".out.db.ingest.lock")))

        let second = SQLiteOutput(path: path, mode: .append)
        second.lockTimeout = 0.3
        let started = Date()
        let error = #expect(throws: IngestError.self) { try second.open() }
        #expect(Date().timeIntervalSince(started) >= 0.3)
        #expect(error?.kind == .temporary)
        #expect(error?.reason == .outputBusy(waitedSeconds: 0.3))
        #expect(error?.message.contains(".out.db.ingest.lock") == true, "\(String(describing: error))")

        try first.write { try $0.write(person("first")) }
        try first.commit()
        #expect(
            !FileManager.default.fileExists(atPath: directory.path(".out.db.ingest.lock")),
            "the lock file goes with the lock")
        try second.writeAndCommit { try $0.write(person("second")) }
        #expect(try names(in: path) == ["first", "second"])
    }

    @Test("A waiting open proceeds as soon as the holder commits, and sees what it committed")
    func waiterProceedsAfterCommit() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("new.db")
        let first = SQLiteOutput(path: path, mode: .append)
        try first.open()
        let released = DispatchSemaphore(value: 0)
        let holder = UncheckedBox((first, person("first")))
        DispatchQueue.global().async {
            let (first, record) = holder.value
            usleep(300_000)
            try? first.write { try $0.write(record) }
            try? first.commit()
            released.signal()
        }
        // The database does not exist yet: without the lock both would create it and one would be lost.
        let second = SQLiteOutput(path: path, mode: .append)
        try second.writeAndCommit { try $0.write(person("second")) }
        released.wait()
        #expect(try names(in: path) == ["first", "second"])
    }

    @Test("Appends from many threads into a database that does not exist yet lose no row")
    func concurrentCreatorsLoseNothing() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("many.db")
        let failures = Failures()
        DispatchQueue.concurrentPerform(iterations: 8) { index in
            let names = NameTable()
            do {
                try SQLiteOutput(path: path, mode: .append).writeAndCommit { sink in
                    for row in 0..<50 {
                        try sink.write(
                            IngestRecord(
                                table: "people",
                                fields: [.init(name: names.intern("name"), value: .text("\(index)-\(row)"))]))
                    }
                }
            } catch {
                failures.add(error)
            }
        }
        #expect(failures.all.isEmpty, "\(failures.all)")
        #expect(try Set(names(in: path)).count == 400)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == ["many.db"])
    }

    @Test("A new database is never renamed over a file another program created meanwhile")
    func createNeverOverwrites() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("out.db")
        let output = SQLiteOutput(path: path, mode: .create)
        try output.open()
        try touch(path, "someone else's")
        try output.write { try $0.write(person("mine")) }
        let error = #expect(throws: IngestError.self) { try output.commit() }
        output.discard()
        #expect(error?.kind == .output)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "someone else's")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == ["out.db"])
    }

    @Test("open() removes the temporary files of dead processes beside its target, and only those")
    func removesStaleTemporaryFiles() throws {
        let directory = try TemporaryDirectory()
        let dead = try deadProcessID()
        let stale = [".out.db.ingest-\(dead)-1.tmp", ".out.db.ingest-\(dead)-27.tmp"]
        let kept = [
            ".out.db.ingest-\(getpid())-999.tmp",  // a live process (this one)
            ".other.db.ingest-\(dead)-1.tmp",  // another output's
            ".out.db.ingest-\(dead)-1.tmp.keep",  // not the pattern
            ".out.db.ingest-\(dead)-x.tmp",
            "out.db.ingest-\(dead)-1.tmp",
            ".out.db.ingest-\(dead).tmp"
        ]
        for name in stale + kept { try touch(directory.path(name), "x") }

        let output = SQLiteOutput(path: directory.path("out.db"), mode: .create)
        try output.writeAndCommit { try $0.write(person("p")) }

        #expect(output.removedTemporaryFiles == stale.map { directory.path($0) }.sorted())
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted()
                == (kept + ["out.db"]).sorted())
    }

    @Test(
        "An append waits for another connection's write transaction, and fails .temporary when it outlasts the timeout")
    func appendWaitsForWriter() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("shared.db")
        try SQLiteOutput(path: path, mode: .create).writeAndCommit { try $0.write(person("old")) }

        // Another program (not ingest, so not holding the lock file) writes for a while.
        let other = try DatabaseQueue(path: path)
        let holding = DispatchSemaphore(value: 0), done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            try? other.inDatabase { db in
                try db.execute(sql: "BEGIN IMMEDIATE; INSERT INTO people(name) VALUES ('other')")
                holding.signal()
                usleep(600_000)
                try db.execute(sql: "COMMIT")
            }
            done.signal()
        }
        holding.wait()
        let impatient = SQLiteOutput(path: path, mode: .append)
        impatient.lockTimeout = 0.1
        let error = #expect(throws: IngestError.self) {
            try impatient.writeAndCommit { try $0.write(person("impatient")) }
        }
        #expect(error?.kind == .temporary, "\(String(describing: error))")
        #expect(error?.reason == .outputBusy(waitedSeconds: 0.1))

        let patient = SQLiteOutput(path: path, mode: .append)
        patient.lockTimeout = 10
        try patient.writeAndCommit { try $0.write(person("patient")) }
        done.wait()
        #expect(try names(in: path) == ["old", "other", "patient"])
    }
}

/// Errors collected from several threads.
final class Failures: @unchecked Sendable {
    private let lock = NSLock()
    private var errors: [any Error] = []
    func add(_ error: any Error) {
        lock.lock()
        errors.append(error)
        lock.unlock()
    }
    var all: [any Error] {
        lock.lock()
        defer { lock.unlock() }
        return errors
    }
}
