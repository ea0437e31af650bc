import Foundation
import Testing

/// Flags as users of sqlite-utils, jq and curl type them: a misspelt flag is named as
/// such, `-o` is `--out`, help for nothing is an error, and help says each default once.
@Suite("Flags")
struct FlagTests {
    @Test(
        "A misspelt flag is reported first, with the flag it resembles — not as an input named after its value",
        arguments: [
            ["folks.xml", "--ouput", "new.db"], ["--ouput", "new.db"],
            ["folks.xml", "--ouput", "new.db", "--max-depth", "0"]
        ])
    func misspeltFlag(arguments: [String]) throws {
        let box = try Sandbox()
        try box.copyFolks()

        let result = try box.run(arguments)

        #expect(result.status == 64, "\(result)")
        #expect(result.stderrLines == ["ingest: Unknown option '--ouput'. Did you mean '--out'?"], "\(result)")
        #expect(!box.exists("new.db"))
    }

    @Test("-o is --out, for import, schema infer and feed")
    func shortOut() throws {
        let box = try Sandbox()
        try box.copyFolks()

        let imported = try box.run(["folks.xml", "-o", "people.db"])
        let schema = try box.run(["schema", "infer", "folks.xml", "-o", "folks.schema.json"])
        let feed = try box.run([
            "feed", Locations.packageRoot.appendingPathComponent("Samples/podcast.rss").path,
            "--to", "json", "-o", "feed.json"
        ])

        #expect(imported.status == 0, "\(imported)")
        #expect(try box.rows("people.db", "SELECT count(*) FROM people") == [["3"]])
        #expect(schema.status == 0 && box.exists("folks.schema.json"), "\(schema)")
        #expect(feed.status == 0 && box.exists("feed.json"), "\(feed)")
    }

    @Test(
        "Help for a command that does not exist, and `ingest schema` with no subcommand, exit 64",
        arguments: [
            (["help", "nonexistent"], "ingest: No help topic 'nonexistent': the commands are import, schema, feed."),
            (["help", "schema", "nope"], "ingest: No help topic 'nope': the commands are infer."),
            (["schema"], "ingest: Name a subcommand: ingest schema infer <input> (see ingest help schema).")
        ])
    func helpForNothing(arguments: [String], message: String) throws {
        let result = try Sandbox().run(arguments)
        #expect(result.status == 64, "\(result)")
        #expect(result.stderrLines == [message], "\(result)")
        #expect(result.stdout.isEmpty)
    }

    @Test(
        "Help for what exists still exits 0",
        arguments: [["help"], ["help", "import"], ["help", "schema", "infer"], ["--help"]])
    func helpForSomething(arguments: [String]) throws {
        let result = try Sandbox().run(arguments)
        #expect(result.status == 0, "\(result)")
        #expect(!result.stdout.isEmpty)
    }

    @Test(
        "Each option's help says its default once: no 'Default:' beside argument-parser's '(default:'",
        arguments: [["help", "import"], ["help", "feed"], ["help", "schema", "infer"]])
    func defaultsOnce(arguments: [String]) throws {
        let result = try Sandbox().run(arguments)
        #expect(result.status == 0, "\(result)")
        // Options' help, joined per option (an option starts at a line beginning "  -").
        var options: [String] = []
        for line in String(decoding: result.stdout, as: UTF8.self).split(
            separator: "\n", omittingEmptySubsequences: false)
        {
            if line.hasPrefix("  -") {
                options.append(String(line))
            } else if !options.isEmpty {
                options[options.count - 1] += " " + line
            }
        }
        #expect(!options.isEmpty)
        for option in options {
            #expect(!(option.contains("Default:") && option.contains("(default:")), "\(option)")
            #expect(!(option.contains("(default)") && option.contains("default:")), "\(option)")
        }
        if arguments == ["help", "import"] {
            #expect(
                options.contains {
                    $0.contains("--lock-timeout") && $0.contains("Default: 60.") && !$0.contains("60.0")
                })
        }
    }

    @Test("--help says how to get completion for bash, zsh and fish, and each shell's script is generated")
    func completionInstall() throws {
        let help = String(decoding: try Sandbox().run(["--help"]).stdout, as: UTF8.self)
        #expect(help.contains("Completion: ingest --generate-completion-script bash|zsh|fish > FILE"), "\(help)")
        for place in [
            "~/.local/share/bash-completion/completions/ingest", "_ingest in a folder of\nzsh's $fpath",
            "~/.config/fish/completions/ingest.fish"
        ] {
            #expect(help.contains(place), "\(place) in \(help)")
        }
        #expect(!help.split(separator: "\n").contains { $0.count > 80 }, "no line is wrapped")
        for shell in ["bash", "zsh", "fish"] {
            let script = try Sandbox().run(["--generate-completion-script", shell])
            #expect(script.status == 0 && script.stdout.count > 100, "\(shell): \(script)")
            #expect(
                String(decoding: script.stdout, as: UTF8.self).contains("import is the default subcommand"),
                "\(shell): the script was patched to complete the default subcommand")
        }
    }

    /// What bash's completion offers for `line` (the cursor at its end), as the
    /// generated script's `_ingest` function computes it.
    private func bashCompletions(_ line: String, in box: Sandbox) throws -> [String] {
        let script = try box.run(["--generate-completion-script", "bash"]).stdout
        try script.write(to: URL(fileURLWithPath: box.path("ingest.bash")))
        let driver = #"""
            source ./ingest.bash
            COMP_LINE="$1"; COMP_POINT=${#COMP_LINE}
            read -ra COMP_WORDS <<< "$COMP_LINE"
            [[ "$COMP_LINE" == *" " ]] && COMP_WORDS+=("")
            COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
            COMPREPLY=()
            _ingest ingest "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
            printf '%s\n' "${COMPREPLY[@]}"
            """#
        let result = try box.run(["bash", "-c", driver, "bash", line], executable: URL(fileURLWithPath: "/usr/bin/env"))
        #expect(result.status == 0, "\(result)")
        return String(decoding: result.stdout, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    @Test("bash completes the default subcommand: ingest folks.xml --<TAB> offers import's options")
    func bashCompletesDefaultSubcommand() throws {
        let box = try Sandbox()
        try box.copyFolks()

        #expect(try bashCompletions("ingest folks.xml --ou", in: box) == ["--out"])
        #expect(
            try bashCompletions("ingest folks.xml --to ", in: box) == [
                "db", "postgres", "plist", "archive", "json", "ndjson"
            ])
        #expect(
            Set(try bashCompletions("ingest folks.xml --re", in: box)) == [
                "--replace", "--records", "--rejects", "--report"
            ])
        #expect(try bashCompletions("ingest --ou", in: box) == ["--out"])
        #expect(try bashCompletions("ingest fol", in: box) == ["folks.xml"])
        #expect(try bashCompletions("ingest im", in: box) == ["import"])
        // A named subcommand completes as before.
        #expect(try bashCompletions("ingest import folks.xml --ou", in: box) == ["--out"])
        #expect(Set(try bashCompletions("ingest feed x --t", in: box)) == ["--to", "--timeout"])
    }

    @Test("zsh completes the default subcommand too (typed into an interactive zsh on a pseudo-terminal)")
    func zshCompletesDefaultSubcommand() throws {
        let zsh = ["/usr/bin/zsh", "/bin/zsh", "/usr/local/bin/zsh"].first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
        guard let zsh else {
            print("zsh is not installed: its completion is not exercised here (.ci/run installs it)")
            return
        }
        let box = try Sandbox()
        try box.copyFolks()
        try FileManager.default.createDirectory(atPath: box.path("functions"), withIntermediateDirectories: true)
        try box.run(["--generate-completion-script", "zsh"]).stdout.write(
            to: URL(fileURLWithPath: box.path("functions/_ingest")))
        // zpty runs an interactive zsh, types the line and a tab, and prints the screen.
        let driver = #"""
            zmodload zsh/zpty
            zpty z zsh -f -i
            zpty -w z 'PS1="rea""dy> "; fpath=("$PWD/functions" $fpath); autoload -U compinit; compinit -u'
            screen=""
            # Waits (up to 20 s) until the screen shows $1, reading what zsh writes. The
            # prompt is spelt in two pieces so that the echoed command does not show it.
            await() { for i in {1..200}; do while zpty -r -t z chunk; do screen+=$chunk; done; [[ $screen == *$1* ]] && return; sleep 0.1; done }
            await 'ready> '
            screen=""
            zpty -w -n z "$1"$'\t'
            await "$2"
            zpty -d z
            print -r -- "$screen"
            """#
        for (typed, completed) in [
            ("ingest folks.xml --ou", "ingest folks.xml --out"),
            ("ingest folks.xml --plist-f", "ingest folks.xml --plist-format")
        ] {
            let result = try box.run(
                ["-f", "-c", driver, "zsh", typed, completed], executable: URL(fileURLWithPath: zsh))
            let screen = String(decoding: result.stdout, as: UTF8.self)
            #expect(screen.contains(completed), "\(typed): \(screen.debugDescription) \(result.stderr)")
        }
    }

    @Test("fish completes the default subcommand too")
    func fishCompletesDefaultSubcommand() throws {
        let fish = ["/usr/bin/fish", "/usr/local/bin/fish"].first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let fish else {
            print("fish is not installed: its completion is not exercised here (.ci/run installs it)")
            return
        }
        let box = try Sandbox()
        try box.copyFolks()
        try box.run(["--generate-completion-script", "fish"]).stdout.write(
            to: URL(fileURLWithPath: box.path("ingest.fish")))
        let result = try box.run(
            ["-c", "source ingest.fish; complete -C 'ingest folks.xml --ou'; complete -C 'ingest folks.xml --to '"],
            executable: URL(fileURLWithPath: fish))
        let offered = String(decoding: result.stdout, as: UTF8.self).split(separator: "\n").map {
            String($0.prefix { $0 != "\t" })
        }
        #expect(offered == ["--out", "db", "postgres", "plist", "archive", "json", "ndjson"], "\(result)")
    }
}
