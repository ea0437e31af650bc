#!/usr/bin/env bash
# Benchmarks/FeedFleet/run.sh — issue 25's benchmark: `ingest feed --opml subs.opml
# --jobs 16` on 2,000 feeds served by a loopback server, first run, second run and a
# third run with --due, beside a Python reference (feedparser, urllib, a 16-thread
# pool, sqlite3) doing the same conditional GETs; then every feed's row checked.
#
#   bash Benchmarks/FeedFleet/run.sh
#
# Environment:
#   INGEST=/path/to/ingest   use this binary instead of building the installed one
#                            (Scripts/build-release.sh)
#   FEEDS=2000 HOSTS=64      the fleet: feeds, and loopback addresses serving them
#   JOBS=16                  --jobs of ingest, threads of the reference
#   SLOW=5                   seconds the slow feeds take to answer
#   SKIP_PEER=1              do not run the reference
#
# The reference needs feedparser (pip install feedparser); without it the ratio
# is not computed. server.py (standard library only) listens on 127.0.0.1 and
# 127.0.1.1-127.0.1.HOSTS, answers only loopback clients and stops by itself after
# 15 minutes, or when this script ends. The OPML file and the server's truth go to
# Benchmarks/data/fleet/, the archives and timings to Benchmarks/work/fleet/ (both
# gitignored). Timings: GNU time, `%e %M %U %S` (wall s, peak RSS KB, user, sys).
#
# Targets (issue 25), on a 2-core machine: the second run at most 0.2x the
# reference's second run (wall), peak RSS at most 64 MB, every feed's row right
# (status, failures, item count, next fetch), nothing duplicated; the --due run
# fetches only the feeds whose max-age has passed.
set -euo pipefail

FEEDS="${FEEDS:-2000}"
HOSTS="${HOSTS:-64}"
JOBS="${JOBS:-16}"
SLOW="${SLOW:-5}"
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
HERE="$ROOT/Benchmarks/FeedFleet"
DATA="$ROOT/Benchmarks/data/fleet"
WORK="$ROOT/Benchmarks/work/fleet"
TARGET_RATIO=0.2
TARGET_RSS_MB=64

command -v /usr/bin/time >/dev/null || { echo "GNU time is needed: apt-get install time" >&2; exit 1; }
command -v sqlite3 >/dev/null || { echo "sqlite3 is needed: apt-get install sqlite3" >&2; exit 1; }
command -v curl >/dev/null || { echo "curl is needed: apt-get install curl" >&2; exit 1; }
mkdir -p "$DATA" "$WORK"
rm -f "$WORK"/*.db "$WORK"/*.time "$WORK"/*.out "$WORK"/*.err "$WORK"/*.json "$WORK"/hits.txt

if [[ -z "${INGEST:-}" ]]; then
    INGEST="$(bash "$ROOT/Scripts/build-release.sh")"
fi
[[ -x "$INGEST" ]] || { echo "INGEST=$INGEST is not an executable file" >&2; exit 1; }

# ------------------------------------------------------------------ server --
rm -f "$DATA/subs.opml" "$DATA/truth.tsv"
python3 "$HERE/server.py" "$DATA" --feeds "$FEEDS" --hosts "$HOSTS" --slow "$SLOW" --limit 900 \
    >"$WORK/server.out" 2>"$WORK/server.err" &
SERVER=$!
trap 'kill "$SERVER" 2>/dev/null || true' EXIT
for _ in $(seq 300); do
    grep -q '^ready ' "$WORK/server.out" 2>/dev/null && break
    kill -0 "$SERVER" 2>/dev/null || { cat "$WORK/server.err" >&2; exit 1; }
    sleep 0.5
done
grep -q '^ready ' "$WORK/server.out" || { echo "server.py did not start" >&2; exit 1; }
CONTROL=$(awk '/^ready /{print $2}' "$WORK/server.out")
echo "server: $(sed 's/^ready //' "$WORK/server.out")"
round() { curl -fsS "$CONTROL/_round/$1" >/dev/null; }

# --------------------------------------------------------------- measuring --
declare -A SECS=() RSS=() USER=() SYS=() RC=()
ORDER=()
# measure NAME COMMAND...: once, under GNU time; a non-zero exit is kept, not fatal
# (ingest exits 75 or 66 when some feeds failed, as a fleet's always do).
measure() {
    local name="$1"; shift
    local rc=0
    ORDER+=("$name")
    /usr/bin/time -f '%e %M %U %S' -o "$WORK/$name.time" "$@" >"$WORK/$name.out" 2>"$WORK/$name.err" || rc=$?
    read -r SECS[$name] RSS[$name] USER[$name] SYS[$name] < <(tail -n 1 "$WORK/$name.time")
    RC[$name]=$rc
    printf '%-16s %7s s %7.1f MB peak %6s s user %5s s sys  exit %s\n' "$name" "${SECS[$name]}" \
        "$(awk "BEGIN{print ${RSS[$name]} / 1024}")" "${USER[$name]}" "${SYS[$name]}" "$rc"
}

OPML="$DATA/subs.opml"
DB="$WORK/ingest.db"
round 1
measure ingest-first "$INGEST" feed --opml "$OPML" --jobs "$JOBS" --out "$DB" --report "$WORK/ingest-first.json" -q
round 2
SECOND_START=$(date +%s)
measure ingest-second "$INGEST" feed --opml "$OPML" --jobs "$JOBS" --out "$DB" --report "$WORK/ingest-second.json" -q
SECOND_END=$(date +%s)
cp "$DB" "$WORK/ingest-after-second.db"
sleep 3   # the "hot" feeds' max-age=1 has passed; every other feed is inside its max-age, <ttl> or backoff
round 3
measure ingest-due "$INGEST" feed --opml "$OPML" --jobs "$JOBS" --out "$DB" --due --report "$WORK/ingest-due.json" -v
curl -fsS "$CONTROL/_hits" >"$WORK/hits.txt"

PEER=0
if [[ "${SKIP_PEER:-0}" == 1 ]]; then
    echo "reference: skipped (SKIP_PEER=1)"
elif ! python3 -c 'import feedparser' 2>/dev/null; then
    echo "reference: feedparser is not importable by python3 (pip install feedparser); skipped"
else
    PEER=1
    round 1
    measure reference-first python3 "$HERE/reference.py" "$OPML" "$WORK/reference.db" --jobs "$JOBS"
    round 2
    measure reference-second python3 "$HERE/reference.py" "$OPML" "$WORK/reference.db" --jobs "$JOBS"
fi
kill "$SERVER" 2>/dev/null || true

# ---------------------------------------------------------------- checking --
# The server's truth beside the archive after the second run; each check prints the
# feeds that are wrong (none when it passes).
CHECK="$WORK/check.db"
rm -f "$CHECK"
sqlite3 "$CHECK" <<SQL
CREATE TABLE truth (feed INTEGER, url TEXT, category TEXT, items INTEGER, hint TEXT, retry_after INTEGER);
.mode tabs
.import --skip 1 $DATA/truth.tsv truth
CREATE TABLE hits (round INTEGER, feed INTEGER, status INTEGER);
.mode list
.separator " "
.import $WORK/hits.txt hits
SQL

declare -a CHECKS=()
declare -A VERDICT=() DETAIL=()
# check NAME DESCRIPTION SQL: passes when SQL (over truth t, the archive a, hits)
# returns no rows; else the count and the first few rows are shown.
check() {
    local name="$1" description="$2" sql="$3" out
    CHECKS+=("$name")
    out=$(sqlite3 -separator ' ' "$CHECK" "ATTACH '$WORK/ingest-after-second.db' AS a; $sql" 2>&1) || true
    DETAIL[$name]="$description"
    if [[ -z "$out" ]]; then
        VERDICT[$name]=PASS
    else
        VERDICT[$name]="FAIL ($(wc -l <<<"$out") wrong, e.g. $(head -3 <<<"$out" | tr '\n' ';'))"
    fi
}

# Per feed: the row after the second run, and its items.
ROW="SELECT t.feed, t.category, t.items, t.hint, t.retry_after, f.url, f.source, f.last_status, f.failures,
  f.last_error, unixepoch(f.next_fetch) AS next_at, unixepoch(f.next_fetch) - unixepoch(f.last_fetched) AS wait,
  (SELECT count(*) FROM a.items i WHERE i.feed_id = f.id) AS stored
  FROM truth t LEFT JOIN a.feeds f ON f.source = t.url"

check rows "one row per feed, none else" \
    "SELECT t.feed FROM truth t WHERE (SELECT count(*) FROM a.feeds f WHERE f.source = t.url) != 1
     UNION ALL SELECT 'total ' || (SELECT count(*) FROM a.feeds) WHERE (SELECT count(*) FROM a.feeds) != (SELECT count(*) FROM truth)"
check not-modified "stable, 301, 302, slow: last_status 304, no failure" \
    "SELECT feed, category, last_status, failures FROM ($ROW) WHERE category IN ('stable', '301', '302', 'slow')
     AND NOT (last_status = 304 AND failures = 0 AND last_error IS NULL)"
check changed "changed: last_status 200, no failure" \
    "SELECT feed, last_status, failures FROM ($ROW) WHERE category = 'changed'
     AND NOT (last_status = 200 AND failures = 0 AND last_error IS NULL)"
check failures "404, 410, 500, 503: that status, 2 failures in a row, the error kept" \
    "SELECT feed, category, last_status, failures FROM ($ROW) WHERE category IN ('404', '410', '500', '503')
     AND NOT (last_status = CAST(category AS INTEGER) AND failures = 2 AND last_error IS NOT NULL)"
check loop "redirect loop: 2 failures, the error kept" \
    "SELECT feed, last_status, failures, last_error FROM ($ROW) WHERE category = 'loop'
     AND NOT (failures = 2 AND last_error IS NOT NULL)"
check moved "301 moved to /moved/ID, 302 and the others where they were" \
    "SELECT feed, category, url FROM ($ROW) WHERE (category = '301' AND url NOT LIKE '%/moved/' || feed)
     OR (category != '301' AND url != source)"
check items "items stored equal the server's (new ones added, none lost)" \
    "SELECT feed, category, items, stored FROM ($ROW) WHERE stored != items"
check duplicates "no item twice (feed + guid)" \
    "SELECT feed_id, guid, count(*) FROM a.items GROUP BY feed_id, guid HAVING count(*) > 1"
# After a success: max-age=1 gives 1 s, max-age=1800 30 min, <ttl>120 2 h, max-age=1
# with <ttl>60 an hour (the longest), nothing an hour. After 2 failures 30 min; a 503's
# Retry-After 7200 s after the response came, during the second run. Allowed: 2 s
# either way.
check next-fetch "next_fetch - last_fetched as the headers, <ttl>, backoff and Retry-After say" \
    "SELECT feed, category, hint, wait FROM ($ROW) WHERE category = '503' AND NOT next_at
       BETWEEN $SECOND_START + retry_after AND $SECOND_END + retry_after + 2
     UNION ALL SELECT feed, category, hint, wait FROM ($ROW) WHERE category != '503' AND abs(wait - CASE
       WHEN category IN ('404', '410', '500', 'loop') THEN 1800
       WHEN hint = 'hot' THEN 1 WHEN hint = 'maxage' THEN 1800 WHEN hint = 'ttl' THEN 7200
       ELSE 3600 END) > 2"
check due "--due fetched exactly the feeds past their max-age, each once" \
    "SELECT 'not fetched', feed FROM truth WHERE hint = 'hot'
       AND feed NOT IN (SELECT feed FROM hits WHERE round = 3)
     UNION ALL SELECT 'fetched, not due', feed FROM hits WHERE round = 3
       AND feed NOT IN (SELECT feed FROM truth WHERE hint = 'hot')
     UNION ALL SELECT 'fetched twice', h.feed FROM hits h JOIN truth t USING (feed) WHERE h.round = 3
       AND t.category != '302' GROUP BY h.feed HAVING count(*) > 1"

# -------------------------------------------------------------------- table --
mb() { awk "BEGIN{printf \"%.1f\", $1 / 1024}"; }
echo
echo "$(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); $FEEDS feeds on $HOSTS hosts, --jobs $JOBS, slow feeds $SLOW s"
echo
echo "| run | wall | peak RSS | user | sys | exit |"
echo "| --- | ---: | ---: | ---: | ---: | ---: |"
for name in "${ORDER[@]}"; do
    echo "| $name | ${SECS[$name]} s | $(mb "${RSS[$name]}") MB | ${USER[$name]} s | ${SYS[$name]} s | ${RC[$name]} |"
done
echo
due_fetched=$(sqlite3 "$CHECK" "SELECT count(DISTINCT feed) FROM hits WHERE round = 3")
due_expected=$(sqlite3 "$CHECK" "SELECT count(*) FROM truth WHERE hint = 'hot'")
echo "--due: $due_fetched feeds fetched, $due_expected due; ingest said: $(grep -i 'due\|skipped' "$WORK/ingest-due.err" | tail -1)"
if ((PEER)); then
    echo "reference first run:  $(cat "$WORK/reference-first.out")"
    echo "reference second run: $(cat "$WORK/reference-second.out")"
fi
echo
status=0
verdict() { if awk "BEGIN{exit !($1)}"; then echo PASS; else echo FAIL; fi; }
echo "| target | figure | verdict |"
echo "| --- | --- | --- |"
if ((PEER)); then
    ratio=$(awk "BEGIN{printf \"%.3f\", ${SECS[ingest-second]} / ${SECS[reference-second]}}")
    v=$(verdict "$ratio <= $TARGET_RATIO"); [[ $v == PASS ]] || status=1
    echo "| second run <= ${TARGET_RATIO}x the reference's | ${SECS[ingest-second]} / ${SECS[reference-second]} s = ${ratio}x | $v |"
    # Each slow feed holds one of the --jobs fetches for SLOW seconds, on every run:
    # no client of that many connections can take less than ceil(slow / jobs) waves.
    slow=$(sqlite3 "$CHECK" "SELECT count(*) FROM truth WHERE category = 'slow'")
    floor=$(awk "BEGIN{w = int(($slow + $JOBS - 1) / $JOBS); print w * $SLOW}")
    echo "| (the floor: $slow slow feeds of $SLOW s on $JOBS fetches at once) | at least $floor s for any client; ${TARGET_RATIO}x is $(awk "BEGIN{printf \"%.2f\", ${SECS[reference-second]} * $TARGET_RATIO}") s | |"
    ratio1=$(awk "BEGIN{printf \"%.3f\", ${SECS[ingest-first]} / ${SECS[reference-first]}}")
    echo "| (first run, no target) | ${SECS[ingest-first]} / ${SECS[reference-first]} s = ${ratio1}x | |"
fi
peak=0
for name in ingest-first ingest-second ingest-due; do ((RSS[$name] > peak)) && peak=${RSS[$name]}; done
v=$(verdict "$(mb $peak) <= $TARGET_RSS_MB"); [[ $v == PASS ]] || status=1
echo "| peak RSS <= $TARGET_RSS_MB MB (all three runs) | $(mb $peak) MB | $v |"
for name in "${CHECKS[@]}"; do
    [[ "${VERDICT[$name]}" == PASS ]] || status=1
    echo "| ${DETAIL[$name]} | $name | ${VERDICT[$name]} |"
done
exit $status
