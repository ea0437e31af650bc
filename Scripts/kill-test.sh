#!/usr/bin/env bash
# The kill test of issue 15: SIGKILL at KILLS random points of an N-record import,
# for every output and for --append, then checks that nothing was lost.
#
#   Scripts/kill-test.sh [N] [KILLS]        defaults: 500000 records, 20 kills each
#   INGEST=/path/to/ingest Scripts/kill-test.sh
#
# For each output (db, plist, archive, json, ndjson) a first run writes the output
# from Samples/folks.xml and its checksum is kept; then KILLS imports of the big
# people.xml (from ../shared/bench/gen_people.py) with --replace are each killed at a
# random moment of their run. After every kill the output must be byte for byte the
# old one. For --append into folks.db, `pragma integrity_check` must say ok and the
# table must hold exactly the old rows. After each kill the next run (a small import
# into the same output) must succeed and leave no temporary file beside it.
# Prints one line per output and a total; exits 1 if anything was lost.
set -euo pipefail
N=${1:-500000}
KILLS=${2:-20}
root=$(cd "$(dirname "$0")/.." && pwd)
generator=$root/../shared/bench/gen_people.py
[ -f "$generator" ] || { echo "kill-test: needs $generator (../shared beside the repository)" >&2; exit 66; }
if [ -z "${INGEST:-}" ]; then
    (cd "$root" && swift build -c release --scratch-path .build-bench --product ingest >&2)
    INGEST=$root/.build-bench/release/ingest
fi
data=${DATA_ROOT:-$root/Benchmarks/data}/$N
[ -f "$data/people.xml" ] || python3 "$generator" "$N" "$data" >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$root/Samples/folks.xml" "$work/"
cd "$work"

# How long one whole import takes, so the kills spread over it.
start=$(date +%s.%N)
"$INGEST" "$data/people.xml" --out timing.db --quiet
duration=$(echo "$(date +%s.%N) - $start" | bc)
rm -f timing.db
echo "kill-test: $N records, an import takes ${duration}s; $KILLS kills per output" >&2

lost=0 total=0
leftovers() { ls -A | grep -E '\.ingest-[0-9]+-[0-9]+\.tmp$' || true; }
for target in db plist archive json ndjson append; do
    kind=$target; extra=(--replace)
    [ "$target" = append ] && { kind=db; extra=(--append --alter); }
    out=out.$target
    rm -f "$out"
    "$INGEST" folks.xml --to "$kind" --out "$out" --quiet
    before=$(sha256sum "$out" | cut -d' ' -f1)
    ok=0
    for ((i = 1; i <= KILLS; i++)); do
        "$INGEST" "$data/people.xml" --to "$kind" --out "$out" "${extra[@]}" --quiet &
        pid=$!
        sleep "$(echo "scale=3; $duration * $RANDOM / 32768" | bc)"
        kill -KILL "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
        total=$((total + 1))
        if [ "$target" = append ]; then
            check=$(sqlite3 "$out" 'pragma integrity_check' 2>&1)
            rows=$(sqlite3 "$out" 'select count(*) from people' 2>&1)
            # A run that finished before the kill appended its rows: start again from the seed.
            if [ "$check" = ok ] && { [ "$rows" = 3 ] || [ "$rows" = $((N + 3)) ]; }; then
                ok=$((ok + 1))
            else
                echo "kill-test: $target kill $i: integrity '$check', $rows rows" >&2; lost=$((lost + 1))
            fi
            if [ "$rows" != 3 ]; then rm -f "$out"; "$INGEST" folks.xml --to db --out "$out" --quiet; fi
        else
            now=$(sha256sum "$out" | cut -d' ' -f1)
            if [ "$now" = "$before" ]; then
                ok=$((ok + 1))
            elif "$INGEST" "$data/people.xml" --to "$kind" --dry-run --quiet && [ "$(stat -c %s "$out")" -gt 100000 ]; then
                # The run finished before the kill: the whole new output, also fine; back to the seed.
                ok=$((ok + 1))
                "$INGEST" folks.xml --to "$kind" --out "$out" --replace --quiet
            else
                echo "kill-test: $target kill $i: the output changed" >&2; lost=$((lost + 1))
            fi
        fi
        # The next run removes what the killed one left.
        "$INGEST" folks.xml --to "$kind" --out "next.$target" --replace --quiet
        "$INGEST" folks.xml --to "$kind" --out "$out" --dry-run --quiet
        if [ "$target" = append ]; then
            "$INGEST" folks.xml --out "$out" --append --quiet
            sqlite3 "$out" 'delete from people where rowid > 3'
        else
            "$INGEST" folks.xml --to "$kind" --out "$out" --replace --quiet
        fi
        if [ -n "$(leftovers)" ]; then echo "kill-test: $target kill $i: left $(leftovers)" >&2; lost=$((lost + 1)); fi
        before=$(sha256sum "$out" | cut -d' ' -f1)
    done
    echo "$target: $ok of $KILLS kills left the old output intact; no temporary file after the next run"
done
echo "total: $total kills, $lost problems"
[ "$lost" -eq 0 ]
