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
sed 's/^$/.Pp/' .build/plugins/GenerateManual/outputs/ingest/ingest.1 >"$generated"

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
