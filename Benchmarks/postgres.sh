#!/usr/bin/env bash
# Benchmarks/postgres.sh — the PostgreSQL output (issue 17) beside its floors, in ONE run,
# against a private server this script starts and stops.
#
#   bash Benchmarks/postgres.sh [N]      N people records (default 500000)
#
# Measures, each under GNU time (wall seconds, peak RSS):
#   - xmllint --stream --noout people.xml: the XML parse floor;
#   - psql \copy of people.csv (the same rows) into a table: the load floor;
#   - people.xml through IngestKit's Importer (Expat, automatic mapping, parsing on a
#     second thread) into no output (the --dry-run floor), then into PostgresOutput,
#     --replace: checked to hold N rows;
#   - 4 such importers appending into one table at once: checked to hold exactly 4 x N;
#   - text vs binary COPY of N generated rows of the same shape (ingest-postgres-bench
#     formats), and the plain-thread bridge (ingest-postgres-bench bridge).
#
# Environment: PG_BINDIR (default: the newest /usr/lib/postgresql/*/bin), DATA_ROOT
# (default Benchmarks/data, shared with run.sh), BENCH=/path/to/ingest-postgres-bench.
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

if [ -z "${BENCH:-}" ]; then
    echo "== building ingest-postgres-bench (release)" >&2
    swift build -c release --product ingest-postgres-bench --scratch-path "$ROOT/.build-bench" >&2
    BENCH="$ROOT/.build-bench/release/ingest-postgres-bench"
fi

# ------------------------------------------------------------------ server --
SERVER=$(mktemp -d /tmp/ingest-pg-bench-XXXXXX)
as_server=()
if [ "$(id -u)" -eq 0 ]; then
    id ingest-pgtest >/dev/null 2>&1 || useradd --system --user-group --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin ingest-pgtest
    chown ingest-pgtest: "$SERVER"
    as_server=(runuser -u ingest-pgtest --)
fi
stop_server() {
    "${as_server[@]}" "$PG_BINDIR/pg_ctl" -D "$SERVER/data" -w stop -m fast >/dev/null 2>&1 || true
    rm -rf "$SERVER"
}
trap stop_server EXIT
"${as_server[@]}" "$PG_BINDIR/initdb" -D "$SERVER/data" -U ingest -A trust -E UTF8 --no-locale >/dev/null
"${as_server[@]}" "$PG_BINDIR/pg_ctl" -D "$SERVER/data" -l "$SERVER/server.log" -w -o "-k $SERVER -c listen_addresses=''" start >/dev/null
psql() { "$PG_BINDIR/psql" -X -q -v ON_ERROR_STOP=1 -h "$SERVER" -U ingest "$@"; }
psql -d postgres -c "CREATE DATABASE bench"
URI="postgresql:///bench?host=$SERVER&user=ingest"
count() { psql -d bench -A -t -c "SELECT count(*) FROM $1"; }

# ---------------------------------------------------------------- measures --
declare -A SECS=() RSS=()
measure() {  # measure NAME COMMAND...: wall seconds and peak RSS (MB) into SECS/RSS
    local name=$1; shift
    local report; report=$(mktemp)
    /usr/bin/time -f '%e %M' -o "$report" "$@" >"$report.out" 2>&1 || { cat "$report.out" >&2; echo "!! $name failed" >&2; exit 1; }
    read -r secs kb <"$report"
    SECS[$name]=$secs; RSS[$name]=$(awk "BEGIN { printf \"%.1f\", $kb / 1024 }")
    sed 's/^/   /' "$report.out" >&2
    rm -f "$report" "$report.out"
    printf '%-22s %8s s %8s MB\n' "$name" "${SECS[$name]}" "${RSS[$name]}"
}

echo "N = $N, people.xml = $(stat -c %s "$DATA/people.xml") bytes, server $("$PG_BINDIR/postgres" --version)"
measure xmllint-stream xmllint --stream --noout "$DATA/people.xml"

psql -d bench -c 'CREATE TABLE people_csv (id bigint, active int, "firstName" text, "lastName" text, email text, born text, score double precision, bio text, tags text)'
measure psql-copy "$PG_BINDIR/psql" -X -q -h "$SERVER" -U ingest -d bench -c "\\copy people_csv from '$DATA/people.csv' csv header"
[ "$(count people_csv)" = "$N" ] || { echo "!! psql \\copy loaded $(count people_csv) rows" >&2; exit 1; }

measure ingest-dry-run "$BENCH" import "$URI" "$DATA/people.xml" dry
measure ingest-replace "$BENCH" import "$URI" "$DATA/people.xml" replace
[ "$(count people)" = "$N" ] || { echo "!! the import left $(count people) rows" >&2; exit 1; }
psql -d bench -c "DROP TABLE people"
measure ingest-4-appenders "$BENCH" import "$URI" "$DATA/people.xml" append 4
[ "$(count people)" = "$((4 * N))" ] || { echo "!! 4 importers left $(count people) rows, not $((4 * N))" >&2; exit 1; }
echo "4 concurrent importers: $(count people) rows = 4 x $N"

echo "== text vs binary COPY" >&2
"$BENCH" formats "$URI" "$N"
echo "== the bridge" >&2
"$BENCH" bridge "$URI" 200000

floor=$(awk "BEGIN { printf \"%.2f\", ${SECS[xmllint-stream]} + ${SECS[psql-copy]} }")
ratio=$(awk "BEGIN { printf \"%.2f\", ${SECS[ingest-replace]} / $floor }")
echo "ingest people.xml into PostgreSQL / (xmllint --stream + psql \\copy) = ${SECS[ingest-replace]} / $floor = ${ratio}x; peak RSS ${RSS[ingest-replace]} MB (targets: <= 1.5x, <= 64 MB)"
echo "ingest people.xml into PostgreSQL / the same import into no output = ${SECS[ingest-replace]} / ${SECS[ingest-dry-run]} = $(awk "BEGIN { printf \"%.2f\", ${SECS[ingest-replace]} / ${SECS[ingest-dry-run]} }")x"
