#!/usr/bin/env bash
# Benchmarks/postgres.sh — the PostgreSQL output (issue 17) beside its floors, in ONE run,
# through the real `ingest` binary, against a private server this script starts and stops.
#
#   bash Benchmarks/postgres.sh [N]      N people records (default 500000)
#
# Measures, each under GNU time (wall seconds, user+system CPU seconds, peak RSS):
#   - xmllint --stream --noout people.xml: the XML parse floor;
#   - psql \copy of people.csv (the same rows) into a table: the load floor;
#   - ingest people.xml --dry-run: the parse and mapping alone, into no output;
#   - ingest people.xml --out people.db: the SQLite output, for reference;
#   - ingest people.xml --to postgres --db URI --replace: checked to hold N rows;
#   - 4 `ingest --to postgres --append` processes into one table at once: checked to
#     hold exactly 4 x N rows (peak RSS: the largest of the four);
#   - text vs binary COPY of N generated rows of the same shape and the plain-thread
#     bridge (ingest-postgres-bench formats, bridge), unless SKIP_BENCH is set.
#
# Environment: PG_BINDIR (default: the newest /usr/lib/postgresql/*/bin), DATA_ROOT
# (default Benchmarks/data, shared with run.sh), INGEST=/path/to/ingest (release) and
# BENCH=/path/to/ingest-postgres-bench (built into .build-bench when unset).
# As root the server runs as the user ingest-pgtest (created if missing), as the tests do.
set -euo pipefail

N="${1:-500000}"
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
DATA_ROOT="${DATA_ROOT:-$ROOT/Benchmarks/data}"
DATA="$DATA_ROOT/$N"
PG_BINDIR="${PG_BINDIR:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)}"
[ -x "$PG_BINDIR/initdb" ] || { echo "postgres.sh: no initdb in '$PG_BINDIR'; install postgresql or set PG_BINDIR" >&2; exit 1; }

if [ ! -f "$DATA/people.xml" ]; then
    echo "== generating $N records into $DATA" >&2
    python3 "$ROOT/../shared/bench/gen_people.py" "$N" "$DATA" >/dev/null
fi

if [ -z "${INGEST:-}" ] || { [ -z "${BENCH:-}" ] && [ -z "${SKIP_BENCH:-}" ]; }; then
    echo "== building ingest and ingest-postgres-bench (release)" >&2
    swift build -c release --product ingest --scratch-path "$ROOT/.build-bench" >&2
    [ -n "${SKIP_BENCH:-}" ] || swift build -c release --product ingest-postgres-bench --scratch-path "$ROOT/.build-bench" >&2
fi
INGEST="${INGEST:-$ROOT/.build-bench/release/ingest}"
BENCH="${BENCH:-$ROOT/.build-bench/release/ingest-postgres-bench}"

# ------------------------------------------------------------------ server --
SERVER=$(mktemp -d /tmp/ingest-pg-bench-XXXXXX)
WORK=$(mktemp -d /tmp/ingest-pg-bench-work-XXXXXX)
as_server=()
if [ "$(id -u)" -eq 0 ]; then
    id ingest-pgtest >/dev/null 2>&1 || useradd --system --user-group --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin ingest-pgtest
    chown ingest-pgtest: "$SERVER"
    as_server=(runuser -u ingest-pgtest --)
fi
stop_server() {
    "${as_server[@]}" "$PG_BINDIR/pg_ctl" -D "$SERVER/data" -w stop -m fast >/dev/null 2>&1 || true
    rm -rf "$SERVER" "$WORK"
}
trap stop_server EXIT
"${as_server[@]}" "$PG_BINDIR/initdb" -D "$SERVER/data" -U ingest -A trust -E UTF8 --no-locale >/dev/null
"${as_server[@]}" "$PG_BINDIR/pg_ctl" -D "$SERVER/data" -l "$SERVER/server.log" -w -o "-k $SERVER -c listen_addresses=''" start >/dev/null
psql() { "$PG_BINDIR/psql" -X -q -v ON_ERROR_STOP=1 -h "$SERVER" -U ingest "$@"; }
psql -d postgres -c "CREATE DATABASE bench"
URI="postgresql:///bench?host=$SERVER&user=ingest"
count() { psql -d bench -A -t -c "SELECT count(*) FROM $1"; }

# ---------------------------------------------------------------- measures --
declare -A SECS=() CPU=() RSS=()
measure() {  # measure NAME COMMAND...: wall seconds, CPU seconds and peak RSS (MB)
    local name=$1; shift
    local report; report=$(mktemp)
    /usr/bin/time -f '%e %U %S %M' -o "$report" "$@" >"$report.out" 2>&1 || { cat "$report.out" >&2; echo "!! $name failed" >&2; exit 1; }
    read -r secs user system kb <"$report"
    SECS[$name]=$secs; CPU[$name]=$(awk "BEGIN { printf \"%.2f\", $user + $system }"); RSS[$name]=$(awk "BEGIN { printf \"%.1f\", $kb / 1024 }")
    sed 's/^/   /' "$report.out" >&2
    rm -f "$report" "$report.out"
    printf '%-22s %8s s wall %8s s cpu %8s MB   (load %s)\n' "$name" "${SECS[$name]}" "${CPU[$name]}" "${RSS[$name]}" "$(cut -d' ' -f1-3 /proc/loadavg)"
}

echo "N = $N, people.xml = $(stat -c %s "$DATA/people.xml") bytes, server $("$PG_BINDIR/postgres" --version), $(nproc) cores"
echo "load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
measure xmllint-stream xmllint --stream --noout "$DATA/people.xml"

psql -d bench -c 'CREATE TABLE people_csv (id bigint, active int, "firstName" text, "lastName" text, email text, born text, score double precision, bio text, tags text)'
measure psql-copy "$PG_BINDIR/psql" -X -q -h "$SERVER" -U ingest -d bench -c "\\copy people_csv from '$DATA/people.csv' csv header"
[ "$(count people_csv)" = "$N" ] || { echo "!! psql \\copy loaded $(count people_csv) rows" >&2; exit 1; }

measure ingest-dry-run "$INGEST" "$DATA/people.xml" --dry-run -q
measure ingest-sqlite "$INGEST" "$DATA/people.xml" --out "$WORK/people.db" -q
measure ingest-postgres "$INGEST" "$DATA/people.xml" --to postgres --db "$URI" --replace -q
[ "$(count people)" = "$N" ] || { echo "!! the import left $(count people) rows" >&2; exit 1; }
psql -d bench -c "DROP TABLE people"
measure ingest-4-appenders bash -c '
    for i in 1 2 3 4; do "$0" "$1" --to postgres --db "$2" --append -q & done
    status=0; for job in $(jobs -p); do wait "$job" || status=1; done; exit $status' "$INGEST" "$DATA/people.xml" "$URI"
[ "$(count people)" = "$((4 * N))" ] || { echo "!! 4 importers left $(count people) rows, not $((4 * N))" >&2; exit 1; }
echo "4 concurrent importers: $(count people) rows = 4 x $N; $(psql -d bench -A -t -c 'SELECT count(*) FROM (SELECT email FROM people GROUP BY 1 HAVING count(*) <> 4) AS odd') emails not exactly 4 times"

if [ -z "${SKIP_BENCH:-}" ]; then
    echo "== text vs binary COPY" >&2
    "$BENCH" formats "$URI" "$N"
    echo "== the bridge" >&2
    "$BENCH" bridge "$URI" 200000
fi

echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
floor=$(awk "BEGIN { printf \"%.2f\", ${SECS[xmllint-stream]} + ${SECS[psql-copy]} }")
ratio=$(awk "BEGIN { printf \"%.2f\", ${SECS[ingest-postgres]} / $floor }")
echo "ingest into PostgreSQL / (xmllint --stream + psql \\copy) = ${SECS[ingest-postgres]} / $floor = ${ratio}x; peak RSS ${RSS[ingest-postgres]} MB (targets: <= 1.5x, <= 64 MB)"
echo "ingest into PostgreSQL / ingest --dry-run = ${SECS[ingest-postgres]} / ${SECS[ingest-dry-run]} = $(awk "BEGIN { printf \"%.2f\", ${SECS[ingest-postgres]} / ${SECS[ingest-dry-run]} }")x; into SQLite: ${SECS[ingest-sqlite]} s"
