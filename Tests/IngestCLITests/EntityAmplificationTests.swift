import Foundation
import Testing

/// Entity amplification ("billion laughs") is bounded alike in every mode: Expat's
/// rule — past 8 MiB of expanded text, no more than 100 times the document — now
/// also in libxml2's streaming parser, the tree of `--xpath` and XML Schema
/// validation (issue 15, item 9: an entity expanded in attributes ran > 300 s at
/// 678 MB in tree mode; `--validate` took a 280 KB document to 4.8 GB).
///
/// The documents are ~300 KB: thousands of references to one 100 KB entity, which
/// libxml2's own once-per-entity check lets through. Each run is measured by
/// `/usr/bin/time` (peak RSS) under a memory cap and `timeout -s KILL`.
@Suite("Entity amplification, every mode")
struct EntityAmplificationTests {
    /// A padding comment (so libxml2 lets a 100 KB entity be declared), the entity,
    /// and `references` copies of `body`, in which `&f;` refers to it.
    static func document(_ body: String, references: Int) -> String {
        "<!DOCTYPE people [\n<!-- \(String(repeating: "p", count: 20_000)) -->\n<!ENTITY f \"\(String(repeating: "y", count: 100_000))\">\n]>\n<people>\n"
            + String(repeating: body + "\n", count: references) + "</people>\n"
    }

    struct Shape: CustomStringConvertible, Sendable {
        var name: String
        var text: String
        var description: String { name }
    }

    static let shapes = [
        Shape(
            name: "in text",
            text: document("<person><firstName>&f;</firstName><lastName>b</lastName></person>", references: 2_000)),
        Shape(
            name: "in attributes",
            text: document(
                #"<person id="&f;"><firstName>a</firstName><lastName>b</lastName></person>"#, references: 2_000)),
        Shape(
            name: "all in one element",
            text: document("", references: 0).replacingOccurrences(
                of: "<people>\n",
                with: "<people><person><firstName>" + String(repeating: "&f;", count: 60_000)
                    + "</firstName><lastName>b</lastName></person>\n")),
        // No entity: 300 attribute defaults given to each of 30,000 empty elements.
        Shape(
            name: "attribute defaults",
            text: "<!DOCTYPE people [\n"
                + (0..<300).map { #"<!ATTLIST person a\#($0) CDATA "\#($0)">"# + "\n" }.joined()
                + "]>\n<people>\n" + String(repeating: "<person/>\n", count: 30_000) + "</people>\n")
    ]

    static let xsd = Locations.packageRoot.appendingPathComponent("Schemas/folks.xsd").path

    static let modes: [(String, [String])] = [
        ("expat", ["--parser", "expat"]),
        ("libxml2", ["--parser", "libxml2"]),
        ("xpath", ["--xpath", "/people/person"]),
        ("xpath predicate", ["--xpath", "/people/person[@id = 'z' or firstName = 'z']"]),
        ("validate", ["--validate", xsd])
    ]

    /// Every mode and shape; but the validator never expands attribute values nor
    /// adds defaults (and Schemas/folks.xsd declares no attribute).
    static var runs: [(String, [String], Shape)] {
        modes.flatMap { mode in
            shapes.compactMap {
                if mode.0 == "validate" && ["in attributes", "attribute defaults"].contains($0.name) { return nil }
                // XPath sees no defaults (libxml2 adds none to the tree): only records get them.
                if mode.0 == "xpath predicate" && $0.name == "attribute defaults" { return nil }
                return (mode.0, mode.1, $0)
            }
        }
    }

    /// Runs `ingest` with `arguments` under a 3 GB address-space cap and a 60 s
    /// timeout; the result and the peak resident memory in KiB.
    func measured(_ box: Sandbox, _ arguments: [String]) throws -> (RunResult, Int?) {
        let binary = try Locations.requireIngest()
        let quoted = ([binary.path] + arguments).map { "'\($0)'" }.joined(separator: " ")
        let result = try box.run(
            [
                "-c",
                """
                ulimit -v 3000000
                exec /usr/bin/time -f %M -o rss.txt timeout -s KILL 60 \(quoted)
                """
            ], executable: URL(fileURLWithPath: "/bin/bash"))
        let rss = (try? String(contentsOfFile: box.path("rss.txt"), encoding: .utf8))?
            .split(separator: "\n").last.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        return (result, rss)
    }

    @Test("Refused with 65, fast and in bounded memory", arguments: runs)
    func refused(_ mode: String, _ options: [String], _ shape: Shape) throws {
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/time"), "/usr/bin/time measures the memory")
        let box = try Sandbox()
        try box.write("lol.xml", shape.text)
        try box.write("lol.db", "previous")
        let started = Date()

        let (result, rss) = try measured(box, ["lol.xml", "--out", "lol.db", "--replace"] + options)

        let seconds = Date().timeIntervalSince(started)
        #expect(result.status == 65, "\(mode), \(shape): \(result)")
        let refusals = ["billion laughs", "amplification", "entity reference loop"]
        #expect(refusals.contains { result.stderr.contains($0) }, "\(mode), \(shape): \(result)")
        #expect(seconds < 30, "\(mode), \(shape): \(seconds) s")
        let kib = try #require(rss, "no measure of memory: \(result)")
        #expect(kib < 300_000, "\(mode), \(shape): peak RSS \(kib) KiB")
        #expect(try box.contents("lol.db") == Data("previous".utf8))
    }

    @Test(
        "Entities used as documents use them still import, in every mode",
        arguments: [
            ["--parser", "expat"], ["--parser", "libxml2"], ["--xpath", "/people/person"],
            ["--xpath", "/people/person[contains(firstName, 'M')]"], ["--validate", xsd]
        ])
    func ordinaryEntitiesStillWork(_ options: [String]) throws {
        let box = try Sandbox()
        // Schemas/folks.xsd declares no attribute.
        let attribute = options.contains("--validate") ? "" : #" id="&n;-1""#
        try box.write(
            "folks.xml",
            """
            <!DOCTYPE people [<!ENTITY co "Smith &amp; Sons"><!ENTITY n "Matt">]>
            <people><person\(attribute)><firstName>&n;</firstName><lastName>&co;</lastName></person></people>
            """)
        let result = try box.run(["folks.xml", "--to", "ndjson", "--out", "-", "-q"] + options)
        #expect(result.status == 0, "\(result)")
        let record = try JSONSerialization.jsonObject(with: result.stdout) as? [String: Any]
        #expect(record?["firstName"] as? String == "Matt", "\(result)")
        #expect(record?["lastName"] as? String == "Smith & Sons", "\(result)")
        if !attribute.isEmpty { #expect(record?["id"] as? String == "Matt-1", "\(result)") }
    }

    @Test(
        "Attribute defaults a DTD declares are still given, in every streaming and tree mode",
        arguments: [["--parser", "expat"], ["--parser", "libxml2"], ["--xpath", "/people/person"]])
    func ordinaryDefaultsStillWork(_ options: [String]) throws {
        let box = try Sandbox()
        try box.write(
            "folks.xml",
            """
            <!DOCTYPE people [<!ATTLIST person kind CDATA "friend" id CDATA #IMPLIED>]>
            <people><person id="1"><firstName>Matt</firstName></person><person id="2" kind="foe"/></people>
            """)
        let result = try box.run(["folks.xml", "--to", "ndjson", "--out", "-", "-q"] + options)
        #expect(result.status == 0, "\(result)")
        let kinds = String(decoding: result.stdout, as: UTF8.self).split(separator: "\n").map { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["kind"] as? String
        }
        #expect(kinds == ["friend", "foe"], "\(result)")
    }
}
