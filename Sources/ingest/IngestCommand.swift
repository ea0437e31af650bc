import ArgumentParser
import IngestKit

/// The `ingest` command: subcommands through argument-parser, `import` the default,
/// so `ingest folks.xml` imports and `ingest help`, `ingest help schema` and
/// `ingest schema --help` all explain.
@main
struct IngestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ingest",
        abstract: "Stream XML or JSON of any size into SQLite, property lists, keyed archives or JSON.",
        usage: """
            ingest <input> ... [--to db|plist|archive|json|ndjson] [--out <path>]
            ingest <subcommand> ...
            """,
        discussion: """
            EXAMPLES
              ingest folks.xml                        writes folks.db (table people)
              ingest folks.xml --to plist             writes folks.plist
              zcat log.jsonl.gz | ingest - --nl --out log.db
              ingest nightly.xml.gz --append --report run.json     (cron)
              ingest schema infer folks.xml           a mapping schema to edit

            All import options: ingest help import (or Documentation/). Exit status: 0 ok,
            64 usage, 65 bad input, 66 missing input, 73 output, 74 I/O, 75 try later.
            Completion: ingest --generate-completion-script bash|zsh|fish > FILE, FILE
            ~/.local/share/bash-completion/completions/ingest, _ingest in a folder of
            zsh's $fpath, or ~/.config/fish/completions/ingest.fish; then a new shell.
            """,
        version: "0.2.0",
        subcommands: [ImportCommand.self, SchemaCommand.self, FeedCommand.self],
        defaultSubcommand: ImportCommand.self
    )

    /// Parses and runs the command; every failure prints one line, `ingest: ` and
    /// the message, and exits with its sysexits status (64 for usage errors).
    static func main() {
        do {
            try checkHelpTopic(Array(CommandLine.arguments.dropFirst()))
            var command = try parseAsRoot()
            try command.run()
        } catch let exit as ExitCode {
            Self.exit(withError: exit)
        } catch {
            let status = exitCode(for: error)
            if status == .success {
                // --help, --version, `ingest help`: what was asked for, on standard output.
                // A completion script is patched to complete the default subcommand.
                print(DefaultSubcommandCompletion.patch(fullMessage(for: error)))
                Self.exit(withError: ExitCode.success)
            }
            let message = (error as? IngestError).map(Diagnostics.describe) ?? message(for: error)
            StandardError.write("ingest: \(message)\n")
            Self.exit(withError: ExitCode((error as? IngestError)?.kind.exitCode ?? status.rawValue))
        }
    }

    /// `ingest help TOPIC…` where the topic names no command is a usage error (64),
    /// as a misspelt command is, instead of the overview and 0.
    static func checkHelpTopic(_ arguments: [String]) throws {
        guard arguments.first == "help" else { return }
        var subcommands = configuration.subcommands
        for name in arguments.dropFirst() where !name.hasPrefix("-") {
            var names: [String] = []
            var next: (any ParsableCommand.Type)?
            for subcommand in subcommands {
                let commandName = subcommand.configuration.commandName ?? ""
                names.append(commandName)
                if commandName == name { next = subcommand }
            }
            guard let next else {
                throw ValidationError("No help topic '\(name)': the commands are \(names.joined(separator: ", ")).")
            }
            subcommands = next.configuration.subcommands
        }
    }
}
