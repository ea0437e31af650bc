#!/usr/bin/env bash
# The kill test at full size: SIGKILL at POINTS random moments (default 20) of a
# RECORDS-record import (default 500 000, from ../shared/bench/gen_people.py) for
# every output (db, plist, archive, json, ndjson) with --replace, and for --append.
#
# After each kill: a replaced output must be the old one byte for byte (or, for a
# run killed after its commit, the complete new one); an appended database must
# pass `pragma integrity_check` and hold exactly the old rows (or the complete
# append). Then the next run on the same output must succeed, name every temporary
# file the killed run left (--verbose) and leave nothing but the output behind.
#
#   Scripts/kill-test.sh [RECORDS] [POINTS]
#   INGEST=/path/to/ingest Scripts/kill-test.sh      test this binary instead of building
#                                                    the installed one (build-release.sh)
#
# `swift test` runs the same with 2 000 records (Tests/IngestCLITests/KillTests.swift).
# Exits 1 if any check failed. Needs python3 and ../shared beside the clone.
set -euo pipefail
cd "$(dirname "$0")/.."
records=${1:-500000}
points=${2:-20}
generator=../shared/bench/gen_people.py
if [ ! -f "$generator" ] || ! command -v python3 >/dev/null; then
  echo "kill-test: $generator (beside the clone) or python3 is missing: skipped"; exit 0
fi
binary=${INGEST:-$(bash Scripts/build-release.sh)}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 "$generator" "$records" "$work/data" >/dev/null
python3 "$generator" 50 "$work/small" >/dev/null

python3 - "$binary" "$work" "$records" "$points" <<'PY'
import os, random, shutil, signal, sqlite3, subprocess, sys, time

binary, work, records, points = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
cases = [("db", False), ("plist", False), ("archive", False), ("json", False), ("ndjson", False), ("db", True)]
failures = []

def rows(path):
    db = sqlite3.connect(path)  # read-write: a hot journal is rolled back here
    try:
        result = []
        for (table,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").fetchall():
            result += [(table,) + row for row in db.execute(f'SELECT * FROM "{table}" ORDER BY rowid')]
        return result
    finally:
        db.close()

def integrity(path):
    db = sqlite3.connect(path)
    try:
        return db.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    finally:
        db.close()

def read(path):
    with open(path, "rb") as f:
        return f.read()

for to, append in cases:
    name = "--append" if append else f"--to {to}"
    out_dir = os.path.join(work, "out")
    shutil.rmtree(out_dir, ignore_errors=True)
    os.makedirs(out_dir)
    output = os.path.join(out_dir, f"out.{to}")
    saved = os.path.join(work, "saved")
    mode = ["--append"] if append else ["--replace"]
    args = [binary, os.path.join(work, "data/people.xml"), "--to", to, "--out", output, "-q"] + mode
    small = [binary, os.path.join(work, "small/people.xml"), "--to", to, "--out", output]
    subprocess.run(small + ["-q"], check=True)
    shutil.copyfile(output, saved)
    old = read(saved)
    old_rows = rows(output) if append else None

    def restore():
        os.remove(output)
        shutil.copyfile(saved, output)

    start = time.monotonic()
    process = subprocess.Popen(args)
    opened = None
    while process.poll() is None:
        if opened is None and any(f.startswith(".") for f in os.listdir(out_dir)):
            opened = time.monotonic() - start
        time.sleep(0.002)
    duration = time.monotonic() - start
    assert process.returncode == 0, f"{name}: an uninterrupted run failed ({process.returncode})"
    complete = read(output)
    complete_rows = rows(output) if to == "db" else None
    restore()

    first = (opened or 0) * 0.8
    span = duration * 1.05 - first
    killed = finished = committed = leftovers = 0
    while killed < points and killed + finished < 2 * points:
        delay = first + span * (killed + random.random()) / points
        process = subprocess.Popen(args)
        time.sleep(delay)
        process.send_signal(signal.SIGKILL)
        status = process.wait()
        what = f"{name}, kill {killed + 1} at {delay:.2f} s of {duration:.2f} s"
        if status >= 0:
            if status != 0:
                failures.append(f"{what}: exit {status}")
            finished += 1
            span *= 0.9
            restore()
            continue
        killed += 1
        if append:
            now = rows(output)
            if not integrity(output):
                failures.append(f"{what}: integrity_check failed")
            if now == complete_rows:
                committed += 1
            elif now != old_rows:
                failures.append(f"{what}: {len(now)} rows, not the old {len(old_rows)}")
        else:
            now = read(output)
            if now != old and (rows(output) == complete_rows if to == "db" else now == complete):
                committed += 1
            elif now != old:
                failures.append(f"{what}: the old output changed ({len(now)} bytes, was {len(old)})")
        left = [f for f in os.listdir(out_dir) if f.startswith(".") and ".ingest-" in f]
        leftovers += len(left)
        after = subprocess.run(small + ["-v"] + mode, capture_output=True, text=True)
        if after.returncode != 0:
            failures.append(f"{what}: the next run exited {after.returncode}: {after.stderr}")
        for f in left:
            if f.endswith(".tmp") and f"removed {os.path.join(out_dir, f)}, left by a run that no longer exists" not in after.stderr:
                failures.append(f"{what}: the next run did not say it removed {f}")
        remaining = sorted(os.listdir(out_dir))
        if remaining != [f"out.{to}"]:
            failures.append(f"{what}: left after the next run: {remaining}")
        restore()
    print(f"kill-test {name}: {records} records, {duration:.2f} s a run (opened at {opened or 0:.2f} s); "
          f"{killed} killed ({committed} of them after their commit), {finished} finished first; "
          f"{leftovers} temporary files left, all removed by the next run", flush=True)

for failure in failures:
    print(f"kill-test: FAILED {failure}")
print(f"kill-test: {len(failures)} failures")
sys.exit(1 if failures else 0)
PY
