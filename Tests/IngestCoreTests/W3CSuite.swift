import Foundation
@testable import IngestCore
import IngestTesting
import IngestTestSupport

/// The W3C XML conformance suite (xmlts20130923.zip in `../shared/testdata`, beside
/// the repository), unzipped into a temporary directory, and its catalog.
final class W3CSuite {
    /// One `<TEST>` of a catalog.
    struct Case {
        var id: String
        var type: String
        var file: URL
        /// `EDITION="5"`: the case is what it says only under XML 1.0's 5th edition,
        /// whose name characters Expat does not take (libxml2 does).
        var fifthEditionOnly: Bool
        /// `EDITION="1 2 3 4"`: not what it says under the 5th edition (names).
        var beforeFifthEditionOnly: Bool
        var description: String { "\(id) (\(type), \(file.lastPathComponent))" }
    }

    static let zip = packageRoot.deletingLastPathComponent()
        .appendingPathComponent("shared/testdata/xmlts20130923.zip")
    static var isPresent: Bool { FileManager.default.fileExists(atPath: zip.path) }
    static let absentMessage =
        "the W3C XML suite is not at ../shared/testdata/xmlts20130923.zip beside the repository; skipped"

    let directory = try! TemporaryDirectory()
    /// Every standalone XML 1.0 case: `ENTITIES="none"`, for namespace-aware
    /// processors, types valid, invalid and not-wf, of any edition.
    private(set) var cases: [Case] = []
    /// How many `<TEST>`s the catalogs hold in all.
    private(set) var total = 0

    init() throws {
        let unzip = Process()
        unzip.executableURL = URL(fileURLWithPath: "/usr/bin/unzip")
        unzip.arguments = ["-q", W3CSuite.zip.path, "-d", directory.url.path]
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/unzip") else {
            throw IngestError(.input, "/usr/bin/unzip is missing: apt-get install unzip (.ci/run installs it)")
        }
        try unzip.run()
        unzip.waitUntilExit()
        guard unzip.terminationStatus == 0 else {
            throw IngestError(.input, "unzip \(W3CSuite.zip.path) exited \(unzip.terminationStatus)")
        }
        try readCatalogs()
    }

    /// The catalogs are the external entities xmlconf.xml declares.
    private func readCatalogs() throws {
        let root = directory.url.appendingPathComponent("xmlconf")
        let master = try String(contentsOf: root.appendingPathComponent("xmlconf.xml"), encoding: .utf8)
        let catalogs = matches(#"<!ENTITY\s+\S+\s+SYSTEM\s+"([^"]+\.xml)""#, in: master).map { $0[1] }
        for catalog in catalogs {
            let url = root.appendingPathComponent(catalog)
            let text = String(decoding: try Data(contentsOf: url), as: UTF8.self)
            for test in matches(#"<TEST\b([^>]*)>"#, in: text) {
                total += 1
                var attributes: [String: String] = [:]
                for attribute in matches(#"([A-Z]+)\s*=\s*"([^"]*)""#, in: test[1]) {
                    attributes[attribute[1]] = attribute[2]
                }
                guard attributes["ENTITIES"] == "none",
                    let type = attributes["TYPE"], ["valid", "invalid", "not-wf"].contains(type),
                    attributes["VERSION"] != "1.1",
                    !(attributes["RECOMMENDATION"] ?? "").contains("1.1"),
                    attributes["NAMESPACE"] != "no",
                    let id = attributes["ID"], let uri = attributes["URI"]
                else { continue }
                let file = url.deletingLastPathComponent().appendingPathComponent(uri)
                let editions = attributes["EDITION"]
                cases.append(
                    Case(
                        id: id, type: type, file: file,
                        fifthEditionOnly: editions.map { !$0.contains("4") } ?? false,
                        beforeFifthEditionOnly: editions.map { !$0.contains("5") } ?? false))
            }
        }
    }

    private func matches(_ pattern: String, in text: String) -> [[String]] {
        let regex = try! NSRegularExpression(pattern: pattern)
        let string = text as NSString
        return regex.matches(in: text, range: NSRange(location: 0, length: string.length)).map { match in
            (0..<match.numberOfRanges).map { string.substring(with: match.range(at: $0)) }
        }
    }
}

/// What a parser made of one document: its events and records, or its error.
enum ParseOutcome: Equatable, CustomStringConvertible {
    case accepted(events: [String], rows: [CollectedRecord], mappingError: String?)
    case rejected(String)

    var isRejected: Bool { if case .rejected = self { true } else { false } }

    var description: String {
        switch self {
        case .accepted(let events, let rows, let mappingError):
            "accepted: \(events.prefix(12)) rows \(rows.count)\(mappingError.map { ", mapping: \($0)" } ?? "")"
        case .rejected(let message): "rejected: \(message)"
        }
    }

    /// Parses `bytes` twice with `parser`: once into an ``EventLog``, once through the
    /// automatic mapping into a ``CollectingSink``.
    static func of(_ parser: any StreamingParserForBytes, _ bytes: [UInt8]) -> ParseOutcome {
        let log = EventLog()
        do {
            try parser.parse(bytes: bytes, into: log)
        } catch {
            return .rejected("\(error)")
        }
        let sink = CollectingSink()
        var mappingError: String?
        do {
            let mapping = AutomaticDocumentMapping(recordPath: nil, sink: sink)
            try parser.parse(bytes: bytes, into: HandlerStack(root: try mapping.makeRootHandler()))
            try mapping.checkMatched()
        } catch {
            mappingError = (error as? IngestError)?.message ?? "\(error)"
        }
        return .accepted(events: log.events, rows: sink.records, mappingError: mappingError)
    }
}
