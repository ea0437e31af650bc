#!/usr/bin/env bash
# Fuzzes ingest's readers into every output with libFuzzer for MINUTES minutes in all,
# split evenly across the readers: expat, libxml2, json, ndjson, xpath, and feed (the
# feed reader into an archive, as a file and as standard input) — or those named
# after MINUTES. See RELIABILITY.md for what is checked and what was found.
#
#   Fuzz/run.sh 30                  # 6 minutes each
#   Fuzz/run.sh 5 libxml2 expat     # 2.5 minutes each
#
# Builds Fuzz/ (a package of its own) with -sanitize=fuzzer, seeds a working corpus
# per reader in Fuzz/.corpus/READER from Samples/ and Fuzz/seeds/, and keeps what
# libFuzzer finds in Fuzz/.artifacts/ (crash-*, timeout-*, oom-*). Neither directory
# is committed. A summary per reader is printed at the end; the exit status is 1 when
# anything was found.
set -euo pipefail

minutes=${1:?usage: Fuzz/run.sh MINUTES [READER...]}
shift
readers=("$@")
[ ${#readers[@]} -gt 0 ] || readers=(expat libxml2 json ndjson xpath feed)

here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
cd "$here"

echo "building the fuzz target (release, -sanitize=fuzzer)…" >&2
swift build -c release -Xswiftc -sanitize=fuzzer >&2
binary=$(swift build -c release -Xswiftc -sanitize=fuzzer --show-bin-path)/ingest-fuzz

seconds=$(( minutes * 60 / ${#readers[@]} ))
# The harness writes an input and an output per run, each output built atomically
# (synced, renamed): on tmpfs that costs nothing, twenty times the runs per second.
[ -d /dev/shm ] && [ -w /dev/shm ] && export TMPDIR=/dev/shm
mkdir -p .artifacts
found=0
for reader in "${readers[@]}"; do
    case $reader in
        expat|libxml2|xpath|feed) kind=xml ;;
        json) kind=json ;;
        ndjson) kind=ndjson ;;
        *) echo "unknown reader $reader (expat, libxml2, json, ndjson, xpath, feed)" >&2; exit 64 ;;
    esac
    corpus=.corpus/$reader
    mkdir -p "$corpus"
    cp -n seeds/$kind/* "$corpus"/ 2>/dev/null || true
    case $kind in
        xml) cp -n "$root"/Samples/*.xml "$root"/Samples/*.rss "$root"/Tests/Fixtures/*.xml "$corpus"/ 2>/dev/null || true ;;
        json) cp -n "$root"/Samples/*.json "$corpus"/ 2>/dev/null || true ;;
    esac
    if [ "$reader" = feed ]; then
        # Feeds of every format: the samples and, beside the clone, gofeed's corpus.
        cp -n "$root"/Samples/*.atom "$root"/Samples/feed.json "$corpus"/ 2>/dev/null || true
        for format in atom rss json; do
            for file in "$root"/../shared/testdata/gofeed/parser/$format/*; do
                case $format:$file in atom:*.xml|rss:*.xml|json:*.json) ;; *) continue ;; esac
                cp -n "$file" "$corpus/gofeed-$format-$(basename "$file")" 2>/dev/null || true
            done
        done
    fi
    dict=$([ $kind = xml ] && echo xml.dict || echo json.dict)
    log=.artifacts/$reader.log
    echo "fuzzing $reader for $seconds s (log: Fuzz/$log)…" >&2
    # Swift's own crash reporter would take the signals libFuzzer needs to save a crash.
    # Fork mode: a finding is saved and the campaign goes on, so one known problem
    # does not hide the others.
    set +e
    SWIFT_BACKTRACE=enable=no INGEST_FUZZ_TARGET=$reader "$binary" "$corpus" \
        -fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
        -dict="$dict" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
        -artifact_prefix=.artifacts/"$reader"- > "$log" 2>&1
    set -e
    runs=$(grep -oE '^#[0-9]+' "$log" | tail -1 | tr -d '#')
    units=$(ls "$corpus" | wc -l)
    # Each finding replayed alone, for its message; the same message counts once.
    findings=$(for artifact in .artifacts/"$reader"-*; do
        [ -f "$artifact" ] || continue
        SWIFT_BACKTRACE=enable=no INGEST_FUZZ_TARGET=$reader timeout 60 "$binary" "$artifact" 2>&1 \
            | grep -m1 -oE 'ingest-fuzz finding.*|ERROR: libFuzzer: [a-z-]+|Fatal error: .*' \
            | sed -E 's#/tmp/+ingest-fuzz-[A-Za-z0-9]+/##g' || echo "no longer reproduces: $artifact"
    done | sort | uniq -c)
    if [ -n "$findings" ]; then
        found=1
        echo "$reader: ${runs:-?} runs; corpus $units inputs; FINDINGS:" >&2
        echo "$findings" >&2
    else
        echo "$reader: ${runs:-?} runs; corpus $units inputs; no finding" >&2
    fi
done
exit $found
