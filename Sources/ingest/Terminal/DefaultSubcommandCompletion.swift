import Foundation

/// Makes the completion scripts argument-parser generates complete the default
/// subcommand: `ingest folks.xml --<TAB>` offers import's options, as `ingest import
/// folks.xml --<TAB>` does.
///
/// argument-parser completes a command line without a subcommand name as the root
/// command's, which takes no input and no option but `--help` and `--version`. Each
/// shell's script is patched where it gives up on a word that names no subcommand:
/// there it hands the line to import's completion function. A script whose shape is
/// not the one expected (another argument-parser version) is left as it is, so
/// completion of the named subcommands keeps working; a test checks the patch took.
enum DefaultSubcommandCompletion {
    /// `script`, as argument-parser generated it for the shell it names, patched.
    static func patch(_ script: String) -> String {
        if script.hasPrefix("#!/bin/bash") { return patchBash(script) }
        if script.hasPrefix("#compdef") { return patchZsh(script) }
        if script.contains("function __ingest_parse_tokens") { return patchFish(script) }
        return script
    }

    /// In `_ingest`, a first word that is no subcommand: the subcommand names are
    /// offered for the first word, and import's completion runs on the whole line.
    private static func patchBash(_ script: String) -> String {
        script.replacingFirst(
            """
                *)
                    # Offer subcommand completions
                    COMPREPLY+=($(compgen -W 'import schema feed help' -- "${cur}"))
                    ;;
            """,
            with: """
                    *)
                        # Offer subcommand completions
                        [[ "${COMP_CWORD}" -eq 1 ]] && COMPREPLY+=($(compgen -W 'import schema feed help' -- "${cur}"))
                        # import is the default subcommand: complete its inputs and options
                        unparsed_words=("${COMP_WORDS[@]:1:${COMP_CWORD}}")
                        _ingest_import
                        ;;
                """)
    }

    /// In `_ingest`, the first word completes as a subcommand name or as import's
    /// first word; later words after a first word that is no subcommand, as
    /// import's.
    private static func patchZsh(_ script: String) -> String {
        script
            .replacingFirst(
                """
                        _describe -V subcommand subcommands && ret=0
                        ;;
                """,
                with: """
                            _describe -V subcommand subcommands && ret=0
                            # import is the default subcommand: complete its inputs and options
                            _ingest_import && ret=0
                            ;;
                    """
            )
            .replacingFirst(
                """
                            "_ingest_${words[1]}" && ret=0
                            ;;
                        esac
                """,
                with: """
                                "_ingest_${words[1]}" && ret=0
                                ;;
                            *)
                                # import is the default subcommand
                                _ingest_import && ret=0
                                ;;
                            esac
                    """)
    }

    /// fish: import's completions are offered, under the same conditions, to a line
    /// that names no subcommand.
    private static func patchFish(_ script: String) -> String {
        let importLines = script.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { $0.hasPrefix("complete -c 'ingest'") && $0.contains("\"ingest import\"") }
        guard !importLines.isEmpty else { return script }
        let defaults = importLines.map { $0.replacingOccurrences(of: "\"ingest import\"", with: "\"ingest\"") }
        return script + "\n# import is the default subcommand: its completions, for a line that names none\n"
            + defaults.joined(separator: "\n") + "\n"
    }
}

extension String {
    /// This text with the first `target` replaced, or unchanged if it has none.
    fileprivate func replacingFirst(_ target: String, with replacement: String) -> String {
        guard let range = range(of: target) else { return self }
        return replacingCharacters(in: range, with: replacement)
    }
}
