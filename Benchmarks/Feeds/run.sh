#!/usr/bin/env bash
# Benchmarks/Feeds/run.sh — `ingest feed` on a generated RSS feed, beside Python's
# feedparser on the same file, and the same feed through IngestFeeds' streaming
# API (ingest-feed-bench).
#
#   bash Benchmarks/Feeds/run.sh [N]        N items (default 100000, about 114 MB)
#
# Environment:
#   INGEST=/path/to/ingest           use this binary instead of building one
#   FEED_BENCH=/path/to/ingest-feed-bench   likewise for the streaming reader
#   REPEAT=3                         keep the fastest of three runs of each
#   SKIP_PEER=1                      do not run feedparser (it takes minutes)
#
# feedparser is used only if python3 can import it; it is never installed here.
#
# Measured under GNU time (`/usr/bin/time -f '%e %M %U %S'`): wall seconds, peak
# RSS, CPU seconds. The feed is generated once into Benchmarks/data/feeds/
# (gitignored) by generate-feed.py; databases go to Benchmarks/work/ (gitignored).
#
# Targets (issue 12): `ingest feed` into SQLite in at most 0.1x feedparser's time
# on the same file, peak RSS at most 64 MB.
set -euo pipefail

N="${1:-100000}"
REPEAT="${REPEAT:-1}"
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
DATA="$ROOT/Benchmarks/data/feeds"
WORK="$ROOT/Benchmarks/work/feeds"
FEED="$DATA/feed-$N.rss"
TARGET_RATIO=0.1
TARGET_RSS_MB=64

mkdir -p "$DATA" "$WORK"
command -v /usr/bin/time >/dev/null || { echo "GNU time is needed: apt-get install time" >&2; exit 1; }

if [[ -z "${INGEST:-}" || -z "${FEED_BENCH:-}" ]]; then
    (cd "$ROOT" && swift build -c release --product ingest >&2 && swift build -c release --product ingest-feed-bench >&2)
    BIN="$(cd "$ROOT" && swift build -c release --show-bin-path)"
    INGEST="${INGEST:-$BIN/ingest}"
    FEED_BENCH="${FEED_BENCH:-$BIN/ingest-feed-bench}"
fi
[[ -f "$FEED" ]] || python3 "$ROOT/Benchmarks/Feeds/generate-feed.py" "$N" "$FEED"
BYTES=$(stat -c %s "$FEED")

# measure NAME COMMAND...: runs it REPEAT times; keeps the fastest wall time and
# the highest peak RSS; the command's output goes to $WORK/NAME.out.
declare -A SECS=() RSS=() CPU=()
measure() {
    local name="$1"; shift
    local best="" rss=0 cpu=""
    for _ in $(seq "$REPEAT"); do
        [[ "$name" == ingest-first ]] && rm -f "$WORK/feeds.db"
        [[ "$name" == feedparser ]] && rm -f "$WORK/peer.db"
        /usr/bin/time -f '%e %M %U %S' -o "$WORK/$name.time" "$@" > "$WORK/$name.out" 2>&1
        read -r secs kb user sys < "$WORK/$name.time"
        if [[ -z "$best" ]] || awk "BEGIN{exit !($secs < $best)}"; then
            best=$secs
            cpu=$(awk "BEGIN{printf \"%.2f\", $user + $sys}")
        fi
        (( kb > rss )) && rss=$kb
    done
    SECS[$name]=$best; RSS[$name]=$rss; CPU[$name]=$cpu
    printf '%-22s %8s s  %8.1f MB/s  %7.1f MB peak  %7s s CPU\n' "$name" "$best" \
        "$(awk "BEGIN{print $BYTES / $best / 1e6}")" "$(awk "BEGIN{print $rss / 1024}")" "$cpu"
}

echo "feed: $FEED ($N items, $BYTES bytes)"
measure ingest-first "$INGEST" feed "$FEED" --out "$WORK/feeds.db"
measure ingest-rerun "$INGEST" feed "$FEED" --out "$WORK/feeds.db" -v
measure stream-callback "$FEED_BENCH" "$FEED" callback
measure stream-async "$FEED_BENCH" "$FEED" async
if [[ "${SKIP_PEER:-0}" == 1 ]]; then
    echo "feedparser: skipped (SKIP_PEER=1)"
elif ! python3 -c 'import feedparser' 2>/dev/null; then
    # Not installed here: the comparison is left out rather than fetched from the network.
    echo "feedparser: not importable by python3 (pip install feedparser), comparison skipped"
else
    measure feedparser python3 "$ROOT/Benchmarks/Feeds/feedparser_peer.py" "$FEED" "$WORK/peer.db"
fi

echo
echo "ingest first run: $(tail -1 "$WORK/ingest-first.out")"
echo "ingest re-run:    $(tail -1 "$WORK/ingest-rerun.out")"
echo "stream callback:  $(cat "$WORK/stream-callback.out")"
echo "stream async:     $(cat "$WORK/stream-async.out")"
rows=$(sqlite3 "$WORK/feeds.db" 'SELECT count(*) FROM items' 2>/dev/null || echo "?")
echo "items stored: $rows (expected $N)"
status=0
[[ "$rows" == "$N" ]] || status=1
if [[ -n "${SECS[feedparser]:-}" ]]; then
    echo "feedparser: $(cat "$WORK/feedparser.out") items"
    ratio=$(awk "BEGIN{printf \"%.3f\", ${SECS[ingest-first]} / ${SECS[feedparser]}}")
    rss_mb=$(awk "BEGIN{printf \"%.1f\", ${RSS[ingest-first]} / 1024}")
    verdict="meets target"
    if awk "BEGIN{exit !($ratio > $TARGET_RATIO || $rss_mb > $TARGET_RSS_MB)}"; then verdict="MISSES target"; status=1; fi
    echo "ingest feed / feedparser = ${SECS[ingest-first]} / ${SECS[feedparser]} = ${ratio}x; peak RSS $rss_mb MB  -> $verdict (<= ${TARGET_RATIO}x, <= $TARGET_RSS_MB MB)"
fi
exit $status
