import Foundation
import Testing

/// The seed's Person, as an app declares it to read `ingest --to archive` output.
final class CLIPerson: NSObject, NSSecureCoding {
    static var supportsSecureCoding: Bool { true }
    let firstName: String
    let lastName: String

    func encode(with coder: NSCoder) {
        coder.encode(firstName, forKey: "firstName")
        coder.encode(lastName, forKey: "lastName")
    }

    init?(coder: NSCoder) {
        guard let first = coder.decodeObject(of: NSString.self, forKey: "firstName"),
            let last = coder.decodeObject(of: NSString.self, forKey: "lastName")
        else { return nil }
        firstName = first as String
        lastName = last as String
    }
}

/// The people of folks.xml as a property list reads them.
let folksPlist: [[String: String]] = folks.map { ["firstName": $0[0]!, "lastName": $0[1]!] }

func plist(_ data: Data) throws -> Any {
    try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
}

func unarchivePeople(_ data: Data, className: String = "Person") throws -> [CLIPerson]? {
    let unarchiver = try NSKeyedUnarchiver(forReadingFrom: data)
    unarchiver.decodingFailurePolicy = .setErrorAndReturn
    unarchiver.setClass(CLIPerson.self, forClassName: className)
    defer { unarchiver.finishDecoding() }
    return unarchiver.decodeObject(of: [NSArray.self, CLIPerson.self], forKey: NSKeyedArchiveRootObjectKey)
        as? [CLIPerson]
}

@Suite("Property list, archive and JSON outputs")
struct PlistCLITests {
    @Test("--to plist writes folks.plist, an XML plist of the three people in order")
    func xmlPlist() throws {
        let box = try Sandbox()
        try box.copyFolks()

        let result = try box.run(["-v", "folks.xml", "--to", "plist"])

        #expect(result.status == 0, "\(result)")
        #expect(try box.listing() == ["folks.plist", "folks.xml"])
        let data = try box.contents("folks.plist")
        #expect(data.starts(with: Array(#"<?xml version="1.0" encoding="UTF-8"?>"#.utf8)))
        #expect(
            data.contains(
                #"<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">"#
            ))
        #expect(try plist(data) as? [[String: String]] == folksPlist)
        #expect(result.stderr.contains("3 records in 1 table (people) to folks.plist"), "\(result)")
    }

    @Test("--plist-format binary writes bplist00 with the same content")
    func binaryPlist() throws {
        let box = try Sandbox()
        try box.copyFolks()

        let result = try box.run(["folks.xml", "--to", "plist", "--plist-format", "binary", "-q"])

        #expect(result.status == 0, "\(result)")
        let data = try box.contents("folks.plist")
        #expect(data.starts(with: Array("bplist00".utf8)))
        #expect(try plist(data) as? [[String: String]] == folksPlist)
    }

    @Test(
        "--to archive writes folks.archive; NSKeyedUnarchiver decodes three Person objects in order",
        arguments: [[], ["--plist-format", "binary"], ["--plist-format", "xml"]])
    func archive(format: [String]) throws {
        let box = try Sandbox()
        try box.copyFolks()

        let result = try box.run(["folks.xml", "--to", "archive", "-q"] + format)

        #expect(result.status == 0, "\(result)")
        #expect(try box.listing() == ["folks.archive", "folks.xml"])
        let data = try box.contents("folks.archive")
        #expect(
            data.starts(with: Array((format.last == "xml" ? "<?xml" : "bplist00").utf8)), "binary unless asked for XML")
        let people = try #require(try unarchivePeople(data))
        #expect(people.map { [$0.firstName, $0.lastName] } == folks)
    }

    @Test("--class names the archived objects")
    func archiveClassOverride() throws {
        let box = try Sandbox()
        try box.copyFolks()

        let result = try box.run(["folks.xml", "--to", "archive", "--class", "Human", "-q"])

        #expect(result.status == 0, "\(result)")
        let archive = try #require(try plist(box.contents("folks.archive")) as? [String: Any])
        let objects = try #require(archive["$objects"] as? [Any])
        let classNames = objects.compactMap { ($0 as? [String: Any])?["$classname"] as? String }
        #expect(classNames.sorted() == ["Human", "NSArray"])
        #expect(
            try unarchivePeople(box.contents("folks.archive"), className: "Human")?.map(\.firstName) == [
                "Matt", "Snidely", "Dudley"
            ])
    }

    @Test("--to json and --to ndjson write folks.json and folks.ndjson")
    func json() throws {
        let box = try Sandbox()
        try box.copyFolks()

        #expect(try box.run(["folks.xml", "--to", "json", "-q"]).status == 0)
        #expect(try box.run(["folks.xml", "--to", "ndjson", "-q"]).status == 0)

        #expect(try JSONSerialization.jsonObject(with: box.contents("folks.json")) as? [[String: String]] == folksPlist)
        let lines = String(decoding: try box.contents("folks.ndjson"), as: UTF8.self).split(separator: "\n")
        #expect(
            try lines.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: String] } == folksPlist)
    }

    @Test(
        "An existing output is refused with 73 and kept; --replace rebuilds it",
        arguments: ["plist", "archive", "json", "ndjson"])
    func existingOutput(kind: String) throws {
        let box = try Sandbox()
        try box.copyFolks()
        try box.write("folks.\(kind)", "old contents")

        let refused = try box.run(["folks.xml", "--to", kind])
        #expect(refused.status == 73, "\(refused)")
        #expect(refused.stderr.contains("--replace"), "\(refused)")
        #expect(try box.contents("folks.\(kind)") == Data("old contents".utf8))

        let replaced = try box.run(["folks.xml", "--to", kind, "--replace", "-q"])
        #expect(replaced.status == 0, "\(replaced)")
        #expect(try box.contents("folks.\(kind)") != Data("old contents".utf8))
        #expect(try box.temporaryLeftovers() == [])
    }

    @Test(
        "Options that do not fit the output are usage errors (64), and nothing is written",
        arguments: [
            ["--to", "plist", "--append"], ["--to", "json", "--append"], ["--to", "plist", "--class", "X"],
            ["--to", "json", "--plist-format", "xml"], ["--to", "db", "--plist-format", "binary"],
            ["--to", "plist", "--plist-format", "json"], ["--to", "yaml"]
        ])
    func usageErrors(arguments: [String]) throws {
        let box = try Sandbox()
        try box.copyFolks()

        let result = try box.run(["folks.xml"] + arguments)

        #expect(result.status == 64, "\(result)")
        #expect(try box.listing() == ["folks.xml"])
    }

    @Test(
        "A malformed input with --replace exits 65 and leaves the old output byte for byte, no temporary files",
        arguments: [
            ["--to", "plist"], ["--to", "plist", "--plist-format", "binary"], ["--to", "archive"],
            ["--to", "archive", "--plist-format", "xml"], ["--to", "json"], ["--to", "ndjson"]
        ])
    func failedRunKeepsOldOutput(arguments: [String]) throws {
        let box = try Sandbox()
        try box.copyFolks()
        // Records first, so spools were written before the error.
        try box.write(
            "half.xml",
            "<people>\n<person><firstName>A</firstName></person>\n<thing><x>1</x></thing>\n<person><firstName>C</lastName>\n"
        )
        let first = try box.run(["folks.xml", "--out", "out", "-q"] + arguments)
        try #require(first.status == 0, "\(first)")
        let before = try box.contents("out")

        let result = try box.run(["half.xml", "--out", "out", "--replace"] + arguments)

        #expect(result.status == 65, "\(result)")
        #expect(result.stderr.contains("half.xml:4:"), "\(result)")
        #expect(try box.contents("out") == before)
        #expect(try box.temporaryLeftovers() == [])
        #expect(try box.listing() == ["folks.xml", "half.xml", "out"])
    }

    @Test("A malformed input with no existing output leaves no file at all")
    func failedRunLeavesNothing() throws {
        let box = try Sandbox()
        try box.write("bad.xml", malformedXML)

        for kind in ["plist", "archive", "json", "ndjson"] {
            let result = try box.run(["bad.xml", "--to", kind])
            #expect(result.status == 65, "\(result)")
        }
        #expect(try box.listing() == ["bad.xml"])
    }

    @Test("An output directory that does not exist exits 73")
    func uncreatableOutput() throws {
        let box = try Sandbox()
        try box.copyFolks()

        let result = try box.run(["folks.xml", "--to", "plist", "--out", "missing/dir/out.plist"])

        #expect(result.status == 73, "\(result)")
    }

    @Test(
        "--out - writes the output to standard output and leaves no file",
        arguments: [
            ["--to", "plist"], ["--to", "plist", "--plist-format", "binary"], ["--to", "archive"], ["--to", "json"],
            ["--to", "ndjson"]
        ])
    func standardOutput(arguments: [String]) throws {
        let box = try Sandbox()
        try box.copyFolks()

        let result = try box.run(["folks.xml", "--out", "-"] + arguments)

        #expect(result.status == 0, "\(result)")
        #expect(try box.listing() == ["folks.xml"])
        switch arguments[1] {
        case "plist": #expect(try plist(result.stdout) as? [[String: String]] == folksPlist)
        case "archive": #expect(try unarchivePeople(result.stdout)?.map { [$0.firstName, $0.lastName] } == folks)
        case "json": #expect(try JSONSerialization.jsonObject(with: result.stdout) as? [[String: String]] == folksPlist)
        default: #expect(String(decoding: result.stdout, as: UTF8.self).split(separator: "\n").count == 3)
        }
    }

    @Test("Standard input to a plist, and several inputs into one output")
    func standardInputAndSeveralInputs() throws {
        let box = try Sandbox()
        try box.copyFolks()
        try box.copyFolks(to: "more.xml")

        let fromStdin = try box.run(
            ["-", "--to", "plist", "--out", "in.plist", "-q"], stdin: try Data(contentsOf: Locations.folksXML))
        let both = try box.run([
            "folks.xml", "more.xml", "--to", "plist", "--plist-format", "binary", "--out", "both.plist", "-q"
        ])

        #expect(fromStdin.status == 0, "\(fromStdin)")
        #expect(try plist(box.contents("in.plist")) as? [[String: String]] == folksPlist)
        #expect(both.status == 0, "\(both)")
        #expect(try plist(box.contents("both.plist")) as? [[String: String]] == folksPlist + folksPlist)
    }

    @Test("The samples load: catalog.xml (nesting) and feed.rss (namespaces, CDATA) in every format")
    func samples() throws {
        let box = try Sandbox()
        let samples = Locations.packageRoot.appendingPathComponent("Samples")
        for sample in ["catalog.xml", "feed.rss"] {
            try box.write(sample, try Data(contentsOf: samples.appendingPathComponent(sample)))
        }
        let feed = ["feed.rss", "--records", "rss/channel/item"]
        for (input, count) in [(["catalog.xml"], 3), (feed, 2)] {
            for format in ["xml", "binary"] {
                let result = try box.run(
                    input + ["--to", "plist", "--plist-format", format, "--out", "out.plist", "--replace", "-q"])
                #expect(result.status == 0, "\(result)")
                let records = try #require(try plist(box.contents("out.plist")) as? [[String: Any]])
                #expect(records.count == count)
            }
            let result = try box.run(input + ["--to", "archive", "--out", "out.archive", "--replace", "-q"])
            #expect(result.status == 0, "\(result)")
            let archive = try #require(try plist(box.contents("out.archive")) as? [String: Any])
            #expect(archive["$archiver"] as? String == "NSKeyedArchiver")
        }
        let feedPlist = try #require(try plist(box.contents("out.plist")) as? [[String: Any]])
        #expect(feedPlist[1]["title"] as? String == "Zoë & Łukasz join")
        #expect(feedPlist[0]["dc:creator"] as? String == "Smith & Sons")
        #expect((feedPlist[0]["guid"] as? [String: String])?["#text"] == "note-1")
    }

    @Test("ingest help import explains the outputs")
    func help() throws {
        let result = try Sandbox().run(["help", "import"])
        let text = String(decoding: result.stdout, as: UTF8.self)
        for word in ["--plist-format", "--class", "plist", "archive", "ndjson", "people -> Person"] {
            #expect(text.contains(word), "\(word)")
        }
    }
}
