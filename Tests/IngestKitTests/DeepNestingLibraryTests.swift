import Foundation
import Testing
import IngestKit
import IngestTestSupport

/// The library reads a record nested as deep as it accepts
/// (`ParseLimits.maxSupportedDepth`): `run` into a real output and `records(…)`
/// from a thread with a small stack, since they parse on threads of their own and
/// write nested values without recursion; `Importer.read`, which parses on the
/// calling thread, within the 8 MiB of a main thread (issue 15, item 8).
@Suite struct DeepNestingLibraryTests {
    static let cap = ParseLimits.maxSupportedDepth

    /// `<r><a><id>1</id>` and XML elements down to `depth`, each an object holding a
    /// list (two JSON levels per XML level), then a second record.
    static func xml(depth: Int) -> String {
        let n = depth - 3
        return "<r><a><id>1</id>" + String(repeating: #"<x k="1">"#, count: n) + "v"
            + String(repeating: "<x/></x>", count: n)
            + "</a><a><id>2</id></a></r>"
    }

    /// A top-level array of two records, the first with arrays down to `depth`.
    static func json(depth: Int) -> String {
        let n = depth - 3
        return #"[{"id":1,"x":"# + String(repeating: "[", count: n) + "1" + String(repeating: "]", count: n)
            + #"},{"id":2}]"#
    }

    /// Runs `body` on a new thread with `stack` bytes of stack (by default 256 KiB,
    /// what a small thread is) and waits for it.
    func onThread(stack: Int = 256 << 10, _ body: @escaping @Sendable () throws -> Void) throws {
        final class Outcome: @unchecked Sendable { var error: (any Error)? }
        let outcome = Outcome()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            do { try body() } catch { outcome.error = error }
            done.signal()
        }
        thread.stackSize = stack
        thread.start()
        done.wait()
        if let error = outcome.error { throw error }
    }

    enum Kind: String, CaseIterable, Sendable { case sqlite, plistXML, plistBinary, archive, json, ndjson }

    func output(_ kind: Kind, in directory: TemporaryDirectory) -> any Output {
        let path = directory.path("out.\(kind.rawValue)")
        return switch kind {
        case .sqlite: SQLiteOutput(path: path, mode: .create)
        case .plistXML: FileOutput(path: path, format: .propertyList(.xml))
        case .plistBinary: FileOutput(path: path, format: .propertyList(.binary))
        case .archive: FileOutput(path: path, format: .keyedArchive(.binary, className: nil, classNames: [:]))
        case .json: FileOutput(path: path, format: .json)
        case .ndjson: FileOutput(path: path, format: .jsonLines)
        }
    }

    static let inputs: [(String, XMLParserKind)] = [("deep.xml", .expat), ("deep.xml", .libxml2), ("deep.json", .expat)]

    @Test("Importer.run from a 256 KiB thread, every output, at the cap", arguments: inputs, Kind.allCases)
    func runFromASmallThread(_ input: (String, XMLParserKind), _ kind: Kind) throws {
        let directory = try TemporaryDirectory()
        let text = input.0.hasSuffix(".json") ? Self.json(depth: Self.cap) : Self.xml(depth: Self.cap)
        try Data(text.utf8).write(to: URL(fileURLWithPath: directory.path(input.0)))
        let importer = Importer(options: .init(limits: ParseLimits(maxDepth: Self.cap), xmlParser: input.1))
        let output = UncheckedSendable(self.output(kind, in: directory))
        let path = directory.path(input.0)
        final class Box: @unchecked Sendable { var summary: ImportSummary? }
        let box = Box()
        try onThread { box.summary = try importer.run([InputFile(path: path)], into: output.value) }
        #expect(box.summary?.recordCount == 2)
        let size =
            (try FileManager.default.attributesOfItem(atPath: directory.path("out.\(kind.rawValue)"))[.size] as? Int)
            ?? 0
        #expect(size > 1000)
    }

    @Test(
        "Importer.read on a thread with a main thread's 8 MiB, the deepest shape: the record whole",
        arguments: [XMLParserKind.expat, .libxml2])
    func readWithinAMainThreadsStack(_ parser: XMLParserKind) throws {
        let directory = try TemporaryDirectory()
        try Data(Self.xml(depth: Self.cap).utf8).write(to: URL(fileURLWithPath: directory.path("deep.xml")))
        let importer = Importer(options: .init(limits: ParseLimits(maxDepth: Self.cap), xmlParser: parser))
        let sink = CollectingSink()
        let path = directory.path("deep.xml")
        let box = UncheckedSendable(sink)
        try onThread(stack: 8 << 20) { try importer.read(InputFile(path: path), into: box.value, progress: nil) }
        #expect(sink.records.count == 2)
        guard case .json(let text, .object) = sink.records.first?["x"] else {
            Issue.record("x is not a JSON object")
            return
        }
        // Two JSON levels per XML level below the record's field.
        #expect(text.hasPrefix(String(repeating: #"{"@k":"1","x":["#, count: 3)))
        #expect(
            text.utf8.count == (Self.cap - 4) * #"{"@k":"1","x":[,""]}"#.utf8.count
                + ##"{"@k":"1","x":"","#text":"v"}"##.utf8.count)
    }

    /// A recursive model: how deep the arrays go (a number is 0 deep).
    struct Depth: Decodable, Sendable {
        var levels: Int
        init(from decoder: any Decoder) throws {
            if (try? decoder.singleValueContainer().decode(Int.self)) != nil {
                levels = 0
            } else {
                var list = try decoder.unkeyedContainer()
                levels = 1 + (try list.decode(Depth.self)).levels
            }
        }
    }

    struct Record: Decodable, Sendable {
        var id: Int
        var x: Depth?
    }

    @Test("records(_:at:from:) decodes a recursive model at the cap")
    func decodesARecursiveModel() async throws {
        let directory = try TemporaryDirectory()
        let url = URL(fileURLWithPath: directory.path("deep.json"))
        try Data(Self.json(depth: Self.cap).utf8).write(to: url)
        var decoded: [Record] = []
        for try await record in records(
            Record.self, at: "item", from: url, options: .init(limits: ParseLimits(maxDepth: Self.cap)))
        {
            decoded.append(record)
        }
        #expect(decoded.map(\.id) == [1, 2])
        #expect(decoded.first?.x?.levels == Self.cap - 3)
    }
}

/// Hands a non-Sendable value to the test's own thread.
private struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
