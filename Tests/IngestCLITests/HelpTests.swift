import Foundation
import Testing

/// The help forms argument-parser gives the subcommands, the size of the first screen
/// and the width of every page (issue 16).
@Suite("Help")
struct HelpTests {
    /// Every help page there is, as a user asks for it.
    static let pages: [[String]] = [
        ["--help"], ["help"], ["help", "import"], ["import", "--help"],
        ["help", "schema"], ["schema", "--help"], ["help", "schema", "infer"], ["schema", "infer", "--help"],
        ["help", "feed"], ["feed", "--help"]
    ]

    func page(_ arguments: [String]) throws -> String {
        let result = try Sandbox().run(arguments, environment: ["COLUMNS": "80"])
        #expect(result.status == 0, "ingest \(arguments.joined(separator: " ")): \(result)")
        return String(decoding: result.stdout, as: UTF8.self) + result.stderr
    }

    @Test("Every help page exits 0 and fits 80 columns", arguments: pages)
    func fitsEightyColumns(arguments: [String]) throws {
        let text = try page(arguments)
        #expect(text.contains("USAGE:"), "ingest \(arguments.joined(separator: " ")) shows no usage")
        let long = text.split(separator: "\n").filter { $0.count > 80 }
        #expect(
            long.isEmpty,
            "lines over 80 columns in ingest \(arguments.joined(separator: " ")):\n\(long.joined(separator: "\n"))")
    }

    @Test("`ingest help` is `ingest --help`, never a file named help")
    func helpSubcommand() throws {
        let box = try Sandbox()
        let help = try box.run(["help"])
        let flag = try box.run(["--help"])

        #expect(help.status == 0, "\(help)")
        #expect(help.stdout == flag.stdout)
        #expect(!help.stderr.contains("help: No such file"))
    }

    @Test("The first screen: at most 30 lines, with examples, the subcommands and the exit codes")
    func firstScreen() throws {
        let text = try page(["--help"])
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)

        #expect(lines.count <= 30, "ingest --help is \(lines.count) lines")
        #expect(text.contains("EXAMPLES"))
        #expect(text.contains("import (default)"))
        #expect(text.contains("schema"))
        #expect(text.contains("64 usage"))
        #expect(text.contains("ingest help import"))
    }

    @Test("`ingest help import` groups the options in sections")
    func importSections() throws {
        let text = try page(["help", "import"])
        for section in ["INPUT:", "MAPPING:", "OUTPUT:", "PARSERS AND VALIDATION:", "SAFETY LIMITS:", "MESSAGES:"] {
            #expect(text.contains("\n\(section)\n"), "no \(section) section")
        }
    }

    @Test("`ingest help schema` and `ingest schema --help` name the infer subcommand")
    func schemaHelp() throws {
        for arguments in [["help", "schema"], ["schema", "--help"]] {
            #expect(try page(arguments).contains("infer"), "ingest \(arguments.joined(separator: " "))")
        }
    }
}
