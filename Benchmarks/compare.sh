#!/usr/bin/env bash
# Benchmarks/compare.sh OLD NEW [N] — two ingest binaries side by side, paired runs.
#
# For a before/after table: OLD and NEW are built binaries (e.g. a worktree of an older
# commit, `swift build -c release`). Each measurement runs OLD then NEW, REPEAT times
# (default 3), on the same generated data (Benchmarks/data/N, as run.sh makes it), and
# prints the median wall seconds, CPU seconds and peak RSS of each, and NEW / OLD.
set -euo pipefail
old=${1:?usage: Benchmarks/compare.sh OLD NEW [N]}
new=${2:?usage: Benchmarks/compare.sh OLD NEW [N]}
N=${3:-500000}
REPEAT=${REPEAT:-3}
root=$(cd "$(dirname "$0")/.." && pwd)
data=${DATA_ROOT:-$root/Benchmarks/data}/$N
[ -f "$data/people.xml" ] || python3 "$root/../shared/bench/gen_people.py" "$N" "$data" >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# median of the numbers on stdin
median() { sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

measure() {   # LABEL ARGS...   (the input and options; --out is added)
    local label=$1; shift
    local -A wall=() cpu=() rss=()
    for ((i = 1; i <= REPEAT; i++)); do
        for which in old new; do
            local bin=$old; [ "$which" = new ] && bin=$new
            rm -f "$work/out.db"
            /usr/bin/time -f '%e %U %S %M' -o "$work/time" "$bin" "$@" --out "$work/out.db" --quiet >/dev/null 2>"$work/err" \
                || { echo "$label ($which) failed: $(head -c 300 "$work/err")" >&2; return 0; }
            read -r e u s m <"$work/time"
            wall[$which]+="$e "; cpu[$which]+="$(echo "$u + $s" | bc) "; rss[$which]+="$m "
        done
    done
    local ow nw oc nc om nm
    ow=$(tr ' ' '\n' <<<"${wall[old]}" | grep . | median); nw=$(tr ' ' '\n' <<<"${wall[new]}" | grep . | median)
    oc=$(tr ' ' '\n' <<<"${cpu[old]}" | grep . | median); nc=$(tr ' ' '\n' <<<"${cpu[new]}" | grep . | median)
    om=$(tr ' ' '\n' <<<"${rss[old]}" | grep . | median); nm=$(tr ' ' '\n' <<<"${rss[new]}" | grep . | median)
    printf '| %-34s | %6.2f | %6.2f | %5.2fx | %6.2f | %6.2f | %5.2fx | %5.1f | %5.1f |\n' "$label" \
        "$ow" "$nw" "$(echo "$nw / $ow" | bc -l)" "$oc" "$nc" "$(echo "$nc / $oc" | bc -l)" \
        "$(echo "$om / 1024" | bc -l)" "$(echo "$nm / 1024" | bc -l)"
}

echo "old: $old"; echo "new: $new"; echo "N=$N, medians of $REPEAT paired runs, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| run | old wall s | new wall s | new/old | old CPU s | new CPU s | new/old | old RSS MB | new RSS MB |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
measure "people.xml --to db" "$data/people.xml" --to db
measure "people.xml --to db --parser libxml2" "$data/people.xml" --to db --parser libxml2
measure "people.json --to db" "$data/people.json" --to db
measure "people.xml --dry-run" "$data/people.xml" --dry-run
measure "people.xml --to plist (binary)" "$data/people.xml" --to plist --plist-format binary
