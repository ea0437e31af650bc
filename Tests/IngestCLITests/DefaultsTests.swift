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
        #expect(text.contains("EXIT STATUS"))
        #expect(try box.listing().isEmpty, "--help writes nothing")
    }
}

@Suite("Summary and progress on standard error")
struct SummaryTests {
    @Test("Not quiet: exactly one summary line, starting with the record count")
    func summaryLine() throws {
        let box = try Sandbox()
        try box.copyFolks()

        let result = try box.run(["folks.xml"])

        #expect(result.status == 0, "\(result)")
        #expect(result.stderrLines.count == 1, "\(result)")
        let summaries = result.stderrLines.filter { $0.hasPrefix("ingest: 3 records") }
        #expect(summaries.count == 1, "\(result)")
        #expect(summaries.first?.contains("people") == true, "the summary names the table: \(result)")
        #expect(result.stdout.isEmpty)
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

    @Test("-q is --quiet")
    func shortQuiet() throws {
        let box = try Sandbox()
        try box.copyFolks()

        let result = try box.run(["-q", "folks.xml"])

        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.isEmpty, "\(result)")
        #expect(try box.tables("folks.db") == ["people"])
    }

    @Test("No progress bar when standard error is not a terminal")
    func noProgressBarOffTerminal() throws {
        let box = try Sandbox()
        // Big enough for several parser chunks, so a progress bar would have had a chance to draw.
        var xml = "<people>\n"
        for index in 0..<20_000 {
            xml += "  <person><firstName>F\(index)</firstName><lastName>L\(index)</lastName></person>\n"
        }
        xml += "</people>\n"
        try box.write("many.xml", xml)

        let result = try box.run(["many.xml"])

        #expect(result.status == 0, "\(result)")
        #expect(!result.stderr.contains("\r"), "\(result)")
        #expect(!result.stderr.contains("\u{1B}"), "\(result)")
        #expect(result.stderrLines.count == 1, "\(result)")
        #expect(result.stderr.hasPrefix("ingest: 20000 records"), "\(result)")
    }
}
