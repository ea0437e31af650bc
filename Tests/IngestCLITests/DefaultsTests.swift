import Foundation
import Testing

@Suite("Default output name")
struct DefaultsTests {
    @Test("An input in the current directory gives <stem>.db there, with the people in order")
    func defaultOutputInCurrentDirectory() throws {
        let box = try Sandbox()
        let input = try box.copyFolks()

        let result = try box.run([input])

        #expect(result.status == 0, "\(result)")
        #expect(box.exists("folks.db"))
        #expect(try box.tables("folks.db") == ["people"])
        #expect(try box.columns("folks.db", table: "people") == ["firstName", "lastName"])
        #expect(try box.rows("folks.db", "SELECT * FROM people") == folks)
    }

    @Test("An input in a subdirectory still gives folks.db in the current directory")
    func defaultOutputFromSubdirectoryInput() throws {
        let box = try Sandbox()
        try box.copyFolks(to: "sub/dir/folks.xml")

        let result = try box.run(["sub/dir/folks.xml"])

        #expect(result.status == 0, "\(result)")
        #expect(box.exists("folks.db"))
        #expect(!box.exists("sub/dir/folks.db"), "the output goes in the current directory, not beside the input")
        #expect(try box.listing("sub/dir") == ["folks.xml"])
        #expect(try box.rows("folks.db", "SELECT firstName, lastName FROM people") == folks)
    }

    @Test("An input given by absolute path elsewhere gives folks.db in the current directory")
    func defaultOutputFromAbsolutePathElsewhere() throws {
        let box = try Sandbox()
        let elsewhere = try Sandbox()
        let input = try elsewhere.copyFolks(to: "data/folks.xml")

        let result = try box.run([input])

        #expect(result.status == 0, "\(result)")
        #expect(try box.listing() == ["folks.db"])
        #expect(try elsewhere.listing("data") == ["folks.xml"])
    }

    @Test("--help exits 0 and shows the examples")
    func help() throws {
        let box = try Sandbox()
        let result = try box.run(["--help"])
        let text = String(decoding: result.stdout, as: UTF8.self) + result.stderr

        #expect(result.status == 0, "\(result)")
        #expect(text.contains("EXAMPLES"))
        #expect(text.contains("Exit status"))
        #expect(try box.listing().isEmpty, "--help writes nothing")
    }
}

@Suite("Summary and progress on standard error")
struct SummaryTests {
    @Test("Off a terminal a successful run prints nothing (cron mails nothing)")
    func silentOffTerminal() throws {
        let box = try Sandbox()
        try box.copyFolks()

        let result = try box.run(["folks.xml"])

        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.isEmpty, "\(result)")
        #expect(result.stdout.isEmpty)
        #expect(try box.rows("folks.db", "SELECT firstName, lastName FROM people") == folks)
    }

    @Test("--verbose: what is done, then exactly one summary line with the record count, in MiB")
    func verboseSummary() throws {
        let box = try Sandbox()
        try box.copyFolks()

        let result = try box.run(["folks.xml", "--verbose"])

        #expect(result.status == 0, "\(result)")
        #expect(result.stderrLines.first == "ingest: reading folks.xml", "\(result)")
        let summaries = result.stderrLines.filter {
            $0.hasPrefix("ingest: 3 records in 1 table (people) to folks.db; ")
        }
        #expect(summaries.count == 1, "\(result)")
        #expect(summaries.first?.contains(" B in ") == true, "a 364-byte input counts in bytes: \(result)")
        #expect(!result.stderr.contains("MB"), "sizes are binary units: \(result)")
        #expect(!result.stderr.contains("T0"), "no log timestamps: \(result)")
    }

    @Test("An error always prints, also off a terminal")
    func errorsPrint() throws {
        let box = try Sandbox()
        try box.write("bad.xml", "<people><person></people>")

        let result = try box.run(["bad.xml"])

        #expect(result.status == 65, "\(result)")
        #expect(result.stderrLines.count == 1, "\(result)")
        #expect(result.stderr.hasPrefix("ingest: bad.xml:1:"), "\(result)")
    }

    @Test("--quiet: nothing on standard error, and the output is still written")
    func quiet() throws {
        let box = try Sandbox()
        try box.copyFolks()

        let result = try box.run(["folks.xml", "--quiet"])

        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.isEmpty, "\(result)")
        #expect(result.stdout.isEmpty)
        #expect(try box.rows("folks.db", "SELECT firstName, lastName FROM people") == folks)
    }

    @Test("-q is --quiet; -q with -v is a usage error")
    func shortQuiet() throws {
        let box = try Sandbox()
        try box.copyFolks()

        let result = try box.run(["-q", "folks.xml"])

        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.isEmpty, "\(result)")
        #expect(try box.tables("folks.db") == ["people"])

        let both = try box.run(["-q", "-v", "folks.xml", "--out", "other.db"])
        #expect(both.status == 64, "\(both)")
        #expect(both.stderr.hasPrefix("ingest: --quiet and --verbose"), "\(both)")
        #expect(!(try box.listing().contains("other.db")))
    }

    @Test("No progress bar when standard error is not a terminal, even with --verbose")
    func noProgressBarOffTerminal() throws {
        let box = try Sandbox()
        try box.write("many.xml", Self.manyPeople(20_000))

        let result = try box.run(["many.xml", "-v"])

        #expect(result.status == 0, "\(result)")
        #expect(!result.stderr.contains("\r"), "\(result)")
        #expect(!result.stderr.contains("\u{1B}"), "\(result)")
        #expect(result.summary?.hasPrefix("ingest: 20000 records") == true, "\(result)")
    }

    @Test(
        "On a terminal: progress redrawn in place within the width, erased, then the summary",
        arguments: [60, 200])
    func progressFitsTheTerminal(columns: Int) throws {
        let box = try Sandbox()
        try box.write("many-people-with-a-rather-long-file-name-to-shorten.xml", Self.manyPeople(300_000))

        let run = try box.runOnTerminal(["many-people-with-a-rather-long-file-name-to-shorten.xml"], columns: columns)

        #expect(run.status == 0, "\(run.text)")
        let lines = run.lines
        #expect(lines.contains { $0.contains("%") }, "a bar with a percentage was drawn: \(run.text.debugDescription)")
        for line in run.progressLines {
            #expect(line.count < columns, "\(line.count) characters in \(columns) columns: \(line)")
        }
        #expect(run.text.contains("\r\u{1B}[K"), "the bar is erased")
        #expect(lines.last?.hasPrefix("ingest: 300000 records in 1 table (people)") == true, "\(lines.suffix(2))")
    }

    @Test("On a terminal, standard input gets a byte counter with a rate", arguments: [60, 200])
    func pipeProgress(columns: Int) throws {
        let box = try Sandbox()
        try box.write("many.xml", Self.manyPeople(300_000))

        let run = try box.runOnTerminal(["-", "--out", "many.db"], columns: columns, stdinFile: "many.xml")

        #expect(run.status == 0, "\(run.text)")
        let lines = run.lines
        #expect(lines.contains { $0.contains("/s") && $0.contains("records") }, "\(run.text.debugDescription)")
        #expect(!lines.contains { $0.contains("%") }, "no percentage without a size")
        for line in run.progressLines {
            #expect(line.count < columns, "\(line.count) characters in \(columns) columns: \(line)")
        }
    }

    static func manyPeople(_ count: Int) -> String {
        var xml = "<people>\n"
        for index in 0..<count {
            xml += "  <person><firstName>F\(index)</firstName><lastName>L\(index)</lastName></person>\n"
        }
        return xml + "</people>\n"
    }
}
