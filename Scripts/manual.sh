#!/usr/bin/env bash
# The man page, man/ingest.1, generated from the command's own help by
# swift-argument-parser's GenerateManual plugin, so it never says something --help
# does not.
#
#   Scripts/manual.sh           regenerate man/ingest.1 (dated today)
#   Scripts/manual.sh --check   fail if man/ingest.1 is not what the help generates
#                               (CI; the committed page's date is kept)
#   man -l man/ingest.1         read it
set -euo pipefail
cd "$(dirname "$0")/.."

page=man/ingest.1
date=$(date +%Y-%m-%d)
if [ "${1:-}" = --check ]; then
    # The date the committed page carries (".Dd November 23, 2026"), so only the text is compared.
    date=$(date -d "$(sed -n 's/^\.Dd //p' "$page")" +%Y-%m-%d)
fi
swift package --disable-sandbox plugin generate-manual --configuration debug --date "$date" >/dev/null
# The plugin keeps the help's blank lines, which mdoc warns about: a blank line
# between paragraphs is .Pp in mdoc.
generated=.build/plugins/GenerateManual/outputs/ingest/ingest.mdoc
sed 's/^$/.Pp/' .build/plugins/GenerateManual/outputs/ingest/ingest.1 >"$generated.pp"

# The plugin puts each command's EXAMPLES and "EXIT STATUS (sysexits)" paragraphs (its
# help's) into DESCRIPTION and leaves the page's EXIT STATUS empty. A man page has
# sections of its own for both: the help's paragraphs move there, command by command,
# under the list of the sysexits codes the command uses (IngestError.Kind, and 70 for
# what it did not foresee, CommandFailure); SEE ALSO points to the guides.
python3 - "$generated.pp" "$generated" <<'PY'
import sys

lines = open(sys.argv[1], encoding="utf-8").read().split("\n")
names = {None: "ingest", "import": "ingest import", "infer": "ingest schema infer", "feed": "ingest feed"}
moved = {"EXAMPLES": [], "EXIT STATUS (sysexits)": []}
kept, command, i = [], None, 0
while i < len(lines):
    line = lines[i]
    if line.startswith(".It Em "):
        command = line[len(".It Em "):]
    if line in moved:
        block = []
        i += 1
        while i < len(lines) and not lines[i].startswith("."):
            block.append(lines[i][2:] if lines[i].startswith("  ") else lines[i])
            i += 1
        moved[line].append((names.get(command, "ingest " + str(command)), block))
        # The paragraph break before or after the block goes with it.
        if kept and kept[-1] == ".Pp":
            kept.pop()
        elif i < len(lines) and lines[i] == ".Pp":
            i += 1
        continue
    kept.append(line)
    i += 1
for title, blocks in moved.items():
    if not blocks:
        sys.exit(f"manual: the help has no {title} paragraph any more; update Scripts/manual.sh")
while kept[-1] == "":
    kept.pop()
# It ends with mdoc's stock sentence, "exits 0 on success, and >0 if an error occurs".
if kept[-2:] != ['.Sh "EXIT STATUS"', ".Ex -std"]:
    sys.exit("manual: the generated page no longer ends with EXIT STATUS and .Ex -std; update Scripts/manual.sh")
kept.pop()

def literal(blocks):
    out = []
    for name, block in blocks:
        out += [".Ss " + name, ".Bd -literal -offset indent"] + block + [".Ed"]
    return out

exit_status = """.Nm
exits with one of the
.Xr sysexits 3
codes, the same for every subcommand:
.Bl -tag -width 4n
.It 0
Success.
.It 64
.Dv EX_USAGE :
the command line is wrong: an unknown option or a missing value, options that
exclude each other, an option with an output it does not apply to, an invalid
--xpath expression, a --validate or --schema schema that does not compile.
.It 65
.Dv EX_DATAERR :
the input is malformed, over a limit, not valid against the --validate schema,
or does not fit the mapping or an existing table; --records or --xpath matched
nothing; for ingest feed, a source that is not a feed.
.It 66
.Dv EX_NOINPUT :
an input or a schema is missing or unreadable; for ingest feed also an HTTP 404,
410 or other 4xx.
.It 70
.Dv EX_SOFTWARE :
a failure the command did not foresee (a bug; please report it).
.It 73
.Dv EX_CANTCREAT :
the output exists (without --replace or --append) or cannot be created.
.It 74
.Dv EX_IOERR :
reading or writing failed part-way (a full disk).
.It 75
.Dv EX_TEMPFAIL :
try again later: another run held the output's lock longer than --lock-timeout,
or another program held the database's write lock as long; a PostgreSQL server
unreachable, refusing the login or gone mid-import; for ingest feed, only
temporary failures (network, timeout, 5xx, 429).
.El
.Pp
A run that fails leaves an existing output as it was.
Asked to stop by SIGINT, SIGTERM or SIGHUP, it stops reading, rolls back an
append and removes the temporary files it was writing, so that the database on
disk is the old one, then ends as the signal would (status 130, 143 or 129).
.Pp
Each command's help says what its statuses mean for it:""".split("\n")

see_also = """.Sh "SEE ALSO"
.Xr sqlite3 1 ,
.Xr xmllint 1 ,
.Xr sysexits 3
.Pp
The guides in the Documentation folder of ingest's source: Command.md (every
option of an import), Cron.md (running from cron, appending), Errors.md (errors,
exit status and safety), Mappings.md (how XML and JSON become tables, mapping
schemas), Outputs.md (property lists, archives and JSON), PostgreSQL.md,
Encodings.md, TreeAndValidation.md (--xpath, --validate) and Feeds.md.""".split("\n")

page = (kept + exit_status + literal(moved["EXIT STATUS (sysexits)"])
        + [".Sh EXAMPLES"] + literal(moved["EXAMPLES"]) + see_also)
open(sys.argv[2], "w", encoding="utf-8").write("\n".join(page) + "\n")
PY
rm -f "$generated.pp"

if [ "${1:-}" = --check ]; then
    if ! diff -u "$page" "$generated"; then
        echo "manual: $page is out of date with the command's help; run Scripts/manual.sh and commit it" >&2
        exit 1
    fi
    echo "manual: $page matches the command's help"
else
    mkdir -p man
    cp "$generated" "$page"
    echo "manual: wrote $page"
fi
