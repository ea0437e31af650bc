#!/usr/bin/env bash
# Benchmarks/run.sh — measure ingest side by side with parse/insert floors and a
# Python peer, in ONE run, on the shared data set (../shared/bench).
#
#   bash Benchmarks/run.sh [N]          N records (default 500000)
#
# Environment:
#   INGEST=/path/to/ingest   use this binary instead of building one
#   REPEAT=3                 run the suites 3 times over, in rounds, and keep each
#                            measurement's median (postgres runs once)
#   FLAT=1                   also ingest a 4×N data set and compare peak RSS
#   SUITES="db parse plist json schema gz multi feeds postgres"  which groups to measure
#                            (default: all): db =
#                            XML into SQLite with its floors and the lxml peer, with
#                            Expat and with --parser libxml2; parse = --parse-only
#                            with both parsers beside xmllint --stream, xmlwf and
#                            Expat as ingest drives it (expat-floor.c); plist =
#                            binary/XML plist and keyed archive beside Python's
#                            plistlib; json = JSON into SQLite beside json_verify,
#                            SQLite storing the rows alone (sqlite-floor.c), the
#                            ijson peer and sqlite-utils; schema = --schema runs
#                            beside the automatic mapping on the same inputs; gz =
#                            people.xml.gz beside people.xml and gzip -dc; multi = 8
#                            files of N/5 records into one database, --jobs 1 beside
#                            --jobs (cores) and beside 8 runs one after another, and
#                            people.ndjson whole beside in parts (--jobs cores + 1); feeds =
#                            a 100,000-item RSS feed into a new archive beside
#                            feedparser (+ sqlite3) and gofeed 1.1.3 parsing it alone
#                            (Benchmarks/Feeds/gofeed-count); postgres = --to postgres
#                            beside xmllint --stream + psql \copy (Benchmarks/postgres.sh,
#                            which starts its own server)
#   DATA_ROOT=/path          where the generated data sets live (default
#                            Benchmarks/data); point it at another checkout's data
#                            instead of generating a second copy
#
# Every measurement goes through GNU time (`/usr/bin/time -f '%e %M %U %S'`):
# wall seconds, peak resident set size, and CPU seconds (user + system). The
# machine is shared and noisy, so only ratios taken within one run mean
# anything; absolute times vary from run to run.
# A failing measurement is reported and the others carry on; the script exits
# non-zero at the end if anything failed.
set -euo pipefail

# ---------------------------------------------------------------- settings --

N="${1:-500000}"
REPEAT="${REPEAT:-1}"
FLAT="${FLAT:-0}"
SUITES="${SUITES:-db parse plist json schema gz multi feeds postgres}"

ROOT="$(cd "$(dirname "$0")/.." && pwd)"   # the repository root
BENCH="$ROOT/../shared/bench"               # generator and peers, shared by projects
DATA_ROOT="${DATA_ROOT:-$ROOT/Benchmarks/data}"   # gitignored
WORK="$ROOT/Benchmarks/work"                # gitignored: databases written by the runs

# Targets (issue 29), judged in the table at the end: people.xml --to db at most
# 0.65x the wall time of (xmllint --stream + sqlite3 .import) and 1.1x their CPU, with
# both parsers, peak RSS at most 32 MB (and flat to 4N with FLAT=1); --dry-run at
# most 1.3x xmlwf; people.json --to db at most 0.25x the ijson peer, JSON --parse-only
# at most 0.8x json_verify; 8 inputs with --jobs at most 0.8x --jobs 1; --to postgres
# at most 0.9x (xmllint --stream + psql \copy); the feed into a new archive at most
# 0.05x feedparser and 0.2x gofeed parsing it alone.
TARGET_RATIO=0.65
TARGET_CPU_RATIO=1.1
TARGET_RSS_MB=32
TARGET_JSON_PEER_RATIO=0.25
TARGET_TOKENIZER_RATIO=0.8
TARGET_DRY_RUN_RATIO=1.3
TARGET_MULTI_RATIO=0.8
TARGET_POSTGRES_RATIO=0.9
TARGET_FEEDPARSER_RATIO=0.05
TARGET_GOFEED_RATIO=0.2
# Issue 16: people.xml.gz at most 1.15x (people.xml + gzip -dc alone).
TARGET_GZIP_RATIO=1.15
# --parser libxml2: ingest --parse-only within 1.2x of xmllint --stream --noout.
TARGET_LIBXML2_PARSE_RATIO=1.2
# A schema run against the automatic mapping on the same input (issue 6).
TARGET_SCHEMA_RATIO=1.2

# Results, keyed by measurement name.
declare -A SECS=() CPU=() RSS_KB=() BYTES=() STATUS=()
# Every round's wall and CPU seconds so far, space-separated, keyed by measurement name.
declare -A WALLS=() CPUS=()
ORDER=()          # measurement names in the order they ran
FAILURES=()       # one line per thing that went wrong

# ----------------------------------------------------------------- helpers --

die()  { echo "run.sh: $*" >&2; exit 1; }
note() { echo "== $*" >&2; }
fail() { echo "!! FAILED: $*" >&2; FAILURES+=("$*"); }

# Floating point through awk: calc '<expression>'.
calc() { awk "BEGIN { printf \"%s\", $1 }"; }

# divide A B PLACES: A / B with PLACES decimals, or n/a when B is zero (GNU time
# reports wall time in hundredths, so a tiny run can take "0.00" s).
divide() { calc "($2 > 0) ? sprintf(\"%.${3}f\", $1 / $2) : \"n/a\""; }

file_size() { stat -c %s "$1"; }

# ------------------------------------------------------------------- setup --

check_arguments() {
    [[ "$N" =~ ^[1-9][0-9]*$ ]] || die "N must be a positive whole number of records, not '$N'"
    [[ "$REPEAT" =~ ^[1-9][0-9]*$ ]] || die "REPEAT must be a positive whole number, not '$REPEAT'"
    local suite
    for suite in $SUITES; do
        [[ "$suite" =~ ^(db|parse|plist|json|schema|gz|multi|feeds|postgres)$ ]] ||
            die "SUITES lists db, parse, plist, json, schema, gz, multi, feeds and postgres, not '$suite'"
    done
    [[ -f "$BENCH/gen_people.py" && -f "$BENCH/peers/lxml_to_sqlite.py" ]] || die \
        "../shared/bench is missing (looked in $BENCH). Clone the repository with shared/ beside it."
}

# Install the floors' tools and the peer's module, only those that are missing.
ensure_tools() {
    local missing=() missing_late=()
    command -v xmllint >/dev/null || missing+=(libxml2-utils)
    command -v xmlwf   >/dev/null || missing+=(expat)
    command -v sqlite3 >/dev/null || missing+=(sqlite3)
    /usr/bin/time -f '%e' true >/dev/null 2>&1 || missing+=(time)   # GNU time, for peak RSS
    if ((${#missing[@]})); then
        note "installing Debian packages: ${missing[*]}"
        local sudo=""; [[ $(id -u) -eq 0 ]] || sudo="sudo"
        $sudo apt-get update
        $sudo apt-get install -y "${missing[@]}"
    fi
    command -v json_verify >/dev/null || missing_late+=(yajl-tools)
    if ((${#missing_late[@]})); then
        note "installing Debian packages: ${missing_late[*]}"
        local sudo=""; [[ $(id -u) -eq 0 ]] || sudo="sudo"
        $sudo apt-get update
        $sudo apt-get install -y "${missing_late[@]}"
    fi
    if suite feeds && ! { command -v go >/dev/null && [[ -d /usr/share/gocode/src/github.com/mmcdole/gofeed ]]; }; then
        note "installing Debian packages: golang-go golang-github-mmcdole-gofeed-dev (gofeed 1.1.3)"
        local sudo=""; [[ $(id -u) -eq 0 ]] || sudo="sudo"
        $sudo apt-get update
        $sudo apt-get install -y golang-go golang-github-mmcdole-gofeed-dev
    fi
    local module
    for module in lxml ijson sqlite_utils $(suite feeds && echo feedparser); do
        if ! python3 -c "import $module" 2>/dev/null; then
            note "installing pip package: ${module/_/-}"
            python3 -m pip install --quiet "${module/_/-}"
        fi
    done
}

# Generate N records into DATA_ROOT/N unless a complete set is already there.
# Generation writes to a temporary directory first so a crash never leaves a
# half-written set that a later run would take as complete.
ensure_data() {
    local n="$1" dir="$DATA_ROOT/$1"
    if [[ -s "$dir/people.xml" && -s "$dir/posts.xml" && -s "$dir/people.csv" && -s "$dir/people.json" && -s "$dir/people.ndjson" ]]; then
        return
    fi
    note "generating $n records into $dir"
    rm -rf "$dir.partial"
    python3 "$BENCH/gen_people.py" "$n" "$dir.partial"
    rm -rf "$dir"
    mv "$dir.partial" "$dir"
}

# Build ingest in release mode unless INGEST names a binary already.
ensure_ingest() {
    if [[ -n "${INGEST:-}" ]]; then
        [[ -x "$INGEST" ]] || die "INGEST=$INGEST is not an executable file"
        return
    fi
    note "building ingest as installed (Scripts/build-release.sh, scratch path .build-bench)"
    INGEST="$(bash "$ROOT/Scripts/build-release.sh" --scratch-path "$ROOT/.build-bench")"
    [[ -x "$INGEST" ]] || die "build finished but $INGEST is not there"
}

# A binary just linked sits in the page cache as the linker wrote it, and mapping it
# then counts ~2 MB more resident pages than mapping an installed binary read from
# disk (measured: the same file, 31.0 MB peak fresh, 28.6 MB once dropped). Drop this
# one file's cached pages (no root needed) so every run maps it as installed.
drop_cached_binary() {
    sync "$INGEST" 2>/dev/null || sync
    python3 -c 'import os, sys; fd = os.open(sys.argv[1], os.O_RDONLY); os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)' "$INGEST" \
        || note "could not drop $INGEST from the page cache; its peak RSS may read ~2 MB high"
}

# -------------------------------------------------------------- measuring --

# measure NAME INPUT SETUP -- COMMAND...
#   Runs COMMAND once under GNU time, after calling SETUP (a function name, or ":"
#   for none). Each round of REPEAT calls it again, so a tool's runs alternate with
#   its floors' and peers' across the whole run rather than coming back to back, and
#   a slow minute of this shared machine falls on all of them alike. Keeps the
#   median wall and CPU seconds (user + system) of the rounds so far and the highest
#   peak RSS seen (conservative against the RSS target). A measurement that failed
#   in an earlier round is not run again. INPUT is the file whose size gives MB/s.
#   The command's stdout goes to WORK/NAME.out and its stderr to WORK/NAME.err, so
#   checks can look at them afterwards.
measure() {
    local name="$1" input="$2" setup="$3"; shift 4
    local timing="$WORK/$name.time" secs kb user sys rc
    if [[ -z "${STATUS[$name]:-}" ]]; then ORDER+=("$name"); fi
    [[ "${STATUS[$name]:-ok}" == ok ]] || return 0
    BYTES[$name]=$(file_size "$input")
    note "$name (round $ROUND of $REPEAT): $*"
    "$setup"
    rc=0
    /usr/bin/time -f '%e %M %U %S' -o "$timing" "$@" >"$WORK/$name.out" 2>"$WORK/$name.err" || rc=$?
    if ((rc != 0)); then
        STATUS[$name]="exit $rc"
        fail "$name exited with status $rc: $*"
        sed 's/^/     /' "$WORK/$name.err" | tail -n 20 >&2
        return 0
    fi
    read -r secs kb user sys < <(tail -n 1 "$timing")
    WALLS[$name]+=" $secs"
    CPUS[$name]+=" $(calc "sprintf(\"%.2f\", $user + $sys)")"
    SECS[$name]=$(median ${WALLS[$name]})
    CPU[$name]=$(median ${CPUS[$name]})
    if ((kb > ${RSS_KB[$name]:-0})); then RSS_KB[$name]=$kb; fi
    STATUS[$name]=ok
}

# median X...: the middle value, or the mean of the two middle ones.
median() {
    printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END {
        if (NR % 2) printf "%.2f", v[(NR + 1) / 2]; else printf "%.2f", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# Fresh outputs before each run, so every repeat does the same work.
fresh_sqlite_db() { rm -f "$WORK/sqlite3.db"; }
fresh_ingest_db() { rm -f "$WORK/ingest.db"; }
fresh_posts_db()  { rm -f "$WORK/ingest-posts.db"; }
fresh_lx_db()     { rm -f "$WORK/ingest-libxml2.db"; }
fresh_lx_posts()  { rm -f "$WORK/ingest-posts-libxml2.db"; }
fresh_lxml_db()   { rm -f "$WORK/lxml.db"; }
fresh_flat_db()   { rm -f "$WORK/ingest-flat.db"; }
fresh_json_db()   { rm -f "$WORK/ingest-json.db"; }
fresh_ndjson_db() { rm -f "$WORK/ingest-ndjson.db"; }
fresh_ijson_db()  { rm -f "$WORK/ijson.db"; }
fresh_floor_db()  { rm -f "$WORK/sqlite-floor.db"; }
fresh_utils_db()  { rm -f "$WORK/sqlite-utils.db"; }
fresh_jflat_db()  { rm -f "$WORK/ingest-json-flat.db"; }
fresh_plists()    { rm -f "$WORK"/*.plist "$WORK"/*.archive; }
fresh_schema_dbs() { rm -f "$WORK"/schema-*.db; }

# expect_records NAME N HEADER FILE: ingest's summary (on stderr) must report N
# records, and FILE must start with HEADER (bplist00 or <?xml).
expect_records() {
    local name="$1" want="$2" header="$3" file="$4"
    [[ "${STATUS[$name]:-}" == ok ]] || return 0
    if ! grep -q "ingest: $want records " "$WORK/$name.err"; then
        STATUS[$name]="bad count"
        fail "$name: summary was: $(head -c 300 "$WORK/$name.err")"
    elif [[ "$(head -c ${#header} "$file")" != "$header" ]]; then
        STATUS[$name]="bad output"
        fail "$name: $file does not start with $header"
    fi
}

# expect_file NAME HEADER FILE: FILE must start with HEADER.
expect_file() {
    local name="$1" header="$2" file="$3"
    [[ "${STATUS[$name]:-}" == ok ]] || return 0
    if [[ "$(head -c ${#header} "$file")" != "$header" ]]; then
        STATUS[$name]="bad output"
        fail "$name: $file does not start with $header"
    fi
}

# expect_count NAME DB TABLE WANT: the table must hold exactly WANT rows.
expect_count() {
    local name="$1" db="$2" table="$3" want="$4" got
    [[ "${STATUS[$name]:-}" == ok ]] || return 0     # already reported
    if ! got=$(sqlite3 "$db" "select count(*) from \"$table\"" 2>&1); then
        STATUS[$name]="bad output"
        fail "$name: cannot count rows of table $table in $db: $got"
    elif [[ "$got" != "$want" ]]; then
        STATUS[$name]="bad count"
        fail "$name: table $table in $db has $got rows, expected $want"
    fi
}

# expect_silent NAME: the command must have printed nothing (xmlwf reports
# well-formedness errors on stdout and prints nothing on success).
expect_silent() {
    local name="$1"
    [[ "${STATUS[$name]:-}" == ok ]] || return 0
    if [[ -s "$WORK/$name.out" ]]; then
        STATUS[$name]="printed errors"
        fail "$name printed: $(head -c 300 "$WORK/$name.out")"
    fi
}

# Property lists and keyed archives of people.xml, beside the Python peer that
# builds the whole list in memory and dumps it with plistlib (fed people.ndjson, the
# same records, so it does not pay for XML parsing). The summary line (-v: off a
# terminal it prints only when asked) tells how many records ingest wrote.
run_plist_measurements() {
    local data="$DATA_ROOT/$N" people="$DATA_ROOT/$N/people.xml"

    measure ingest-plist-binary "$people" fresh_plists -- \
        "$INGEST" "$people" --to plist --plist-format binary --out "$WORK/ingest-binary.plist" --replace -v
    expect_records ingest-plist-binary "$N" bplist00 "$WORK/ingest-binary.plist"

    measure ingest-plist-xml "$people" fresh_plists -- \
        "$INGEST" "$people" --to plist --plist-format xml --out "$WORK/ingest-xml.plist" --replace -v
    expect_records ingest-plist-xml "$N" "<?xml" "$WORK/ingest-xml.plist"

    measure ingest-archive "$people" fresh_plists -- \
        "$INGEST" "$people" --to archive --out "$WORK/ingest.archive" --replace -v
    expect_records ingest-archive "$N" bplist00 "$WORK/ingest.archive"

    measure plistlib-binary "$data/people.ndjson" fresh_plists -- \
        python3 "$BENCH/peers/plistlib_dump.py" "$data/people.ndjson" "$WORK/plistlib-binary.plist" binary
    expect_file plistlib-binary bplist00 "$WORK/plistlib-binary.plist"

    measure plistlib-xml "$data/people.ndjson" fresh_plists -- \
        python3 "$BENCH/peers/plistlib_dump.py" "$data/people.ndjson" "$WORK/plistlib-xml.plist" xml
    expect_file plistlib-xml "<?xml" "$WORK/plistlib-xml.plist"

    if [[ "$FLAT" == 1 ]]; then
        local big=$((N * 4))
        measure ingest-plist-binary-x4 "$DATA_ROOT/$big/people.xml" fresh_plists -- \
            "$INGEST" "$DATA_ROOT/$big/people.xml" --to plist --plist-format binary --out "$WORK/ingest-binary.plist" --replace -v
        expect_records ingest-plist-binary-x4 "$big" bplist00 "$WORK/ingest-binary.plist"
        measure ingest-archive-x4 "$DATA_ROOT/$big/people.xml" fresh_plists -- \
            "$INGEST" "$DATA_ROOT/$big/people.xml" --to archive --out "$WORK/ingest.archive" --replace -v
        expect_records ingest-archive-x4 "$big" bplist00 "$WORK/ingest.archive"
    fi
    fresh_plists
}

run_db_measurements() {
    local data="$DATA_ROOT/$N"
    local people="$data/people.xml" posts="$data/posts.xml" csv="$data/people.csv"

    # 1. libxml2 streaming parse, no mapping, no output: the XML parse floor.
    measure xmllint-stream "$people" : -- xmllint --stream --noout "$people"

    # 2. Expat parse, no mapping, no output: the floor for ingest's own parser.
    measure xmlwf "$people" : -- xmlwf "$people"
    expect_silent xmlwf

    # 3. SQLite bulk insert from C of the same records: the write floor.
    measure sqlite3-import "$csv" fresh_sqlite_db -- sqlite3 "$WORK/sqlite3.db" ".import --csv \"$csv\" people"
    expect_count sqlite3-import "$WORK/sqlite3.db" people "$N"

    # 4. The headline: ingest people.xml (child elements) into SQLite.
    measure ingest-people "$people" fresh_ingest_db -- \
        "$INGEST" "$people" --to db --out "$WORK/ingest.db" --replace --quiet
    expect_count ingest-people "$WORK/ingest.db" people "$N"

    # 5. ingest posts.xml: the same records as attribute-only rows.
    measure ingest-posts "$posts" fresh_posts_db -- \
        "$INGEST" "$posts" --to db --out "$WORK/ingest-posts.db" --replace --quiet
    expect_count ingest-posts "$WORK/ingest-posts.db" posts "$N"

    # 6. ingest parse + map only, no SQLite: shows how the time splits between
    #    parsing/mapping and writing; compared with xmlwf (same parser, Expat).
    measure ingest-dry-run "$people" : -- "$INGEST" "$people" --dry-run --quiet

    # 4-6 again with --parser libxml2: the same records from libxml2's SAX2 parser.
    measure ingest-people-libxml2 "$people" fresh_lx_db -- \
        "$INGEST" "$people" --parser libxml2 --to db --out "$WORK/ingest-libxml2.db" --replace --quiet
    expect_count ingest-people-libxml2 "$WORK/ingest-libxml2.db" people "$N"
    measure ingest-posts-libxml2 "$posts" fresh_lx_posts -- \
        "$INGEST" "$posts" --parser libxml2 --to db --out "$WORK/ingest-posts-libxml2.db" --replace --quiet
    expect_count ingest-posts-libxml2 "$WORK/ingest-posts-libxml2.db" posts "$N"
    measure ingest-dry-libxml2 "$people" : -- "$INGEST" "$people" --parser libxml2 --dry-run --quiet

    # 6b. One core: the parser and the SQLite writer threads share CPU 0.
    if command -v taskset >/dev/null; then
        measure ingest-people-1core "$people" fresh_ingest_db -- \
            taskset -c 0 "$INGEST" "$people" --to db --out "$WORK/ingest.db" --replace --quiet
        expect_count ingest-people-1core "$WORK/ingest.db" people "$N"
    fi

    # 7. Peer: what a Python user writes (lxml iterparse + sqlite3 executemany).
    measure lxml-peer "$people" fresh_lxml_db -- \
        python3 "$BENCH/peers/lxml_to_sqlite.py" "$people" "$WORK/lxml.db"
    expect_count lxml-peer "$WORK/lxml.db" person "$N"

    # 8. Optional flatness check: 4× the records should not need more memory.
    if [[ "$FLAT" == 1 ]]; then
        local big=$((N * 4))
        measure "ingest-people-x4" "$DATA_ROOT/$big/people.xml" fresh_flat_db -- \
            "$INGEST" "$DATA_ROOT/$big/people.xml" --to db --out "$WORK/ingest-flat.db" --replace --quiet
        expect_count "ingest-people-x4" "$WORK/ingest-flat.db" people "$big"
        measure "ingest-people-libxml2-x4" "$DATA_ROOT/$big/people.xml" fresh_flat_db -- \
            "$INGEST" "$DATA_ROOT/$big/people.xml" --parser libxml2 --to db --out "$WORK/ingest-flat.db" --replace --quiet
        expect_count "ingest-people-libxml2-x4" "$WORK/ingest-flat.db" people "$big"
        measure "ingest-dry-run-x4" "$DATA_ROOT/$big/people.xml" : -- "$INGEST" "$DATA_ROOT/$big/people.xml" --dry-run --quiet
    fi
}

# Parsing alone: ingest --parse-only with each parser beside the library's own
# command-line checker, on the same people.xml, in one run.
run_parse_measurements() {
    local people="$DATA_ROOT/$N/people.xml"

    measure parse-xmllint-stream "$people" : -- xmllint --stream --noout "$people"
    measure parse-ingest-libxml2 "$people" : -- "$INGEST" "$people" --parse-only --parser libxml2 --quiet
    measure parse-xmlwf "$people" : -- xmlwf "$people"
    expect_silent parse-xmlwf
    measure parse-ingest-expat "$people" : -- "$INGEST" "$people" --parse-only --quiet

    # Expat alone, driven as ingest drives it (Benchmarks/expat-floor.c, level 3:
    # namespaces, handlers, names measured, a position per event): the floor under
    # --dry-run, which no mapping can go below.
    if command -v cc >/dev/null && cc -O2 "$ROOT/Benchmarks/expat-floor.c" -lexpat -o "$WORK/expat-floor" 2>/dev/null; then
        measure parse-expat-as-ingest "$people" : -- "$WORK/expat-floor" 3 "$people"
    else
        echo "  (no C compiler or no expat.h: Expat as ingest drives it is not measured)"
    fi
}

run_json_measurements() {
    local data="$DATA_ROOT/$N"
    local json="$data/people.json" ndjson="$data/people.ndjson"

    # 1. yajl's json_verify: the JSON parse floor.
    measure json-verify "$json" : -- sh -c 'exec json_verify -q < "$1"' json_verify "$json"

    # 2. ingest's tokenizer alone: parse, no mapping, nothing written.
    measure ingest-json-parse "$json" : -- "$INGEST" "$json" --parse-only --quiet

    # 3. The headline: one JSON document into SQLite.
    measure ingest-json "$json" fresh_json_db -- \
        "$INGEST" "$json" --to db --out "$WORK/ingest-json.db" --replace --quiet
    expect_count ingest-json "$WORK/ingest-json.db" people "$N"

    # 4. JSON Lines into SQLite (table named after the file: people).
    measure ingest-ndjson "$ndjson" fresh_ndjson_db -- \
        "$INGEST" "$ndjson" --to db --out "$WORK/ingest-ndjson.db" --replace --quiet
    expect_count ingest-ndjson "$WORK/ingest-ndjson.db" people "$N"

    # 5. Parse + map, no SQLite.
    measure ingest-json-dry "$json" : -- "$INGEST" "$json" --dry-run --quiet

    # 6. SQLite alone storing the same rows as ingest stores them (Benchmarks/sqlite-floor.c,
    # from people.csv): the floor under every --to db of them, which no parser can go below.
    if command -v cc >/dev/null && cc -O2 "$ROOT/Benchmarks/sqlite-floor.c" -lsqlite3 -o "$WORK/sqlite-floor" 2>/dev/null; then
        measure sqlite-insert-floor "$data/people.csv" fresh_floor_db -- \
            "$WORK/sqlite-floor" "$data/people.csv" "$WORK/sqlite-floor.db"
        expect_count sqlite-insert-floor "$WORK/sqlite-floor.db" people "$N"
    else
        echo "  (no C compiler or no sqlite3.h: SQLite's own insert of the rows is not measured)"
    fi

    # 7. Peer: ijson (yajl2_c backend) + sqlite3 executemany.
    measure ijson-peer "$json" fresh_ijson_db -- \
        python3 "$BENCH/peers/ijson_to_sqlite.py" "$json" "$WORK/ijson.db"
    expect_count ijson-peer "$WORK/ijson.db" person "$N"

    # 8. Peer: sqlite-utils insert --nl, the common JSON-to-SQLite command.
    measure sqlite-utils "$ndjson" fresh_utils_db -- \
        sqlite-utils insert "$WORK/sqlite-utils.db" people "$ndjson" --nl
    expect_count sqlite-utils "$WORK/sqlite-utils.db" people "$N"

    if [[ "$FLAT" == 1 ]]; then
        local big=$((N * 4))
        measure "ingest-json-x4" "$DATA_ROOT/$big/people.json" fresh_jflat_db -- \
            "$INGEST" "$DATA_ROOT/$big/people.json" --to db --out "$WORK/ingest-json-flat.db" --replace --quiet
        expect_count "ingest-json-x4" "$WORK/ingest-json-flat.db" people "$big"
    fi
}

# A gzip-compressed people.xml (made once beside the data, gitignored) beside the
# uncompressed import and gzip -dc alone.
run_gz_measurements() {
    local people="$DATA_ROOT/$N/people.xml" gz="$DATA_ROOT/$N/people.xml.gz"
    [[ -f "$gz" ]] || gzip -c -6 "$people" >"$gz"
    have ingest-people || {
        measure ingest-people "$people" fresh_ingest_db -- \
            "$INGEST" "$people" --to db --out "$WORK/ingest.db" --replace --quiet
        expect_count ingest-people "$WORK/ingest.db" people "$N"
    }
    measure gzip-dc "$gz" : -- sh -c 'exec gzip -dc "$1" >/dev/null' gzip "$gz"
    measure ingest-people-gz "$gz" fresh_ingest_db -- \
        "$INGEST" "$gz" --to db --out "$WORK/ingest.db" --replace --quiet
    expect_count ingest-people-gz "$WORK/ingest.db" people "$N"
}

print_gz_ratios() {
    echo "compressed input (wall time):"
    if have ingest-people-gz ingest-people gzip-dc; then
        local sum r verdict
        sum=$(calc "sprintf(\"%.2f\", ${SECS[ingest-people]} + ${SECS[gzip-dc]})")
        r=$(divide "${SECS[ingest-people-gz]}" "$sum" 2)
        verdict=$([[ "$r" == n/a ]] && echo "cannot judge" || calc "($r <= $TARGET_GZIP_RATIO) ? \"meets\" : \"MISSES\"")
        echo "  ingest people.xml.gz / (ingest people.xml + gzip -dc) = ${SECS[ingest-people-gz]} / $sum = ${r}x" \
             " -> $verdict target (<= ${TARGET_GZIP_RATIO}x)"
    else
        echo "  gz: not available (a measurement failed)"
    fi
    echo
}

# -------------------------------------------------------------- reporting --

# Which source the binary was built from: the commit, and whether Sources/ had
# uncommitted edits at the time of the run.
source_state() {
    local head
    head=$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null) || { echo "source: not a git checkout"; return; }
    if [[ -n "$(git -C "$ROOT" status --porcelain -- Sources Package.swift 2>/dev/null)" ]]; then
        echo "source: $head + uncommitted changes in Sources/"
    else
        echo "source: $head"
    fi
}

print_environment() {
    echo "date:     $(date -u '+%Y-%m-%d %H:%M UTC')"
    echo "machine:  $(nproc) cores, $(uname -m), $(uname -sr)"
    echo "records:  N=$N  (people.xml $(file_size "$DATA_ROOT/$N/people.xml") bytes)  REPEAT=$REPEAT  FLAT=$FLAT"
    echo "ingest:   $INGEST ($("$INGEST" --version 2>/dev/null | head -n 1 || echo '?')), $(source_state)"
    echo "tools:    $(xmllint --version 2>&1 | head -n 1); $(xmlwf -v 2>&1 | head -n 1);" \
         "sqlite3 $(sqlite3 --version | cut -d' ' -f1); python $(python3 -c 'import platform; print(platform.python_version())');" \
         "lxml $(python3 -c 'import lxml.etree as e; print(e.__version__)')"
    echo "json:     $(python3 -c 'import ijson; print("ijson", ijson.__version__, ijson.backend)' 2>/dev/null); $(sqlite-utils --version 2>/dev/null)"
    echo "MB = 2^20 bytes; MB/s = input file size / wall seconds; RSS = peak resident set size; CPU s = user + system."
    echo
}

print_table() {
    local name secs cpu mbps rss
    local row='| %-22s | %8s | %8s | %11s | %8s | %-14s |\n'
    printf "$row" measurement seconds "MB/s" "peak RSS MB" "CPU s" status
    printf "$row" ---------------------- -------: -------: ----------: -------: --------------
    for name in "${ORDER[@]}"; do
        if [[ -n "${SECS[$name]:-}" ]]; then
            secs=${SECS[$name]} cpu=${CPU[$name]}
            mbps=$(divide "${BYTES[$name]} / 1048576" "$secs" 1)
            rss=$(calc "sprintf(\"%.1f\", ${RSS_KB[$name]} / 1024)")
        else
            secs="-" cpu="-" mbps="-" rss="-"
        fi
        printf "$row" "$name" "$secs" "$mbps" "$rss" "$cpu" "${STATUS[$name]}"
    done
    echo
}

# have NAME...: all these measurements produced a time.
have() { local n; for n; do [[ -n "${SECS[$n]:-}" ]] || return 1; done; }

# times A B: A / B as "1.23x", or n/a.
times() { local r; r=$(divide "$1" "$2" 2); [[ "$r" == n/a ]] && echo n/a || echo "${r}x"; }

print_json_ratios() {
    echo "JSON ratios (wall time, lower is better for ingest):"
    if have ingest-json ijson-peer; then
        local r rss verdict
        r=$(divide "${SECS[ingest-json]}" "${SECS[ijson-peer]}" 2)
        rss=$(calc "sprintf(\"%.1f\", ${RSS_KB[ingest-json]} / 1024)")
        verdict=$([[ "$r" == n/a ]] && echo "cannot judge" || calc "($r <= $TARGET_JSON_PEER_RATIO && ${CPU[ingest-json]} < ${CPU[ijson-peer]} && $rss <= $TARGET_RSS_MB) ? \"meets\" : \"MISSES\"")
        echo "  ingest people.json / ijson peer = ${SECS[ingest-json]} / ${SECS[ijson-peer]} = $(times "${SECS[ingest-json]}" "${SECS[ijson-peer]}") wall," \
             "CPU ${CPU[ingest-json]} vs ${CPU[ijson-peer]}; peak RSS $rss MB  -> $verdict target (<= ${TARGET_JSON_PEER_RATIO}x, less CPU, <= $TARGET_RSS_MB MB)"
    fi
    if have ingest-json-parse json-verify; then
        local r verdict
        r=$(divide "${SECS[ingest-json-parse]}" "${SECS[json-verify]}" 2)
        verdict=$([[ "$r" == n/a ]] && echo "cannot judge" || calc "($r <= $TARGET_TOKENIZER_RATIO) ? \"meets\" : \"MISSES\"")
        echo "  ingest --parse-only / json_verify = ${SECS[ingest-json-parse]} / ${SECS[json-verify]} = $(times "${SECS[ingest-json-parse]}" "${SECS[json-verify]}")" \
             " -> $verdict target (<= ${TARGET_TOKENIZER_RATIO}x)"
    fi
    if have ingest-ndjson sqlite-utils; then
        echo "  ingest people.ndjson / sqlite-utils --nl = ${SECS[ingest-ndjson]} / ${SECS[sqlite-utils]} = $(times "${SECS[ingest-ndjson]}" "${SECS[sqlite-utils]}")"
    fi
    if have ingest-json-dry json-verify; then
        echo "  ingest people.json --dry-run / json_verify = ${SECS[ingest-json-dry]} / ${SECS[json-verify]} = $(times "${SECS[ingest-json-dry]}" "${SECS[json-verify]}")"
    fi
    if [[ "$FLAT" == 1 ]] && have ingest-json ingest-json-x4; then
        echo "  flatness: ingest people.json peak RSS $(calc "sprintf(\"%.1f\", ${RSS_KB[ingest-json]} / 1024)") MB at N=$N," \
             "$(calc "sprintf(\"%.1f\", ${RSS_KB[ingest-json-x4]} / 1024)") MB at N=$((N * 4))"
    fi
    echo
}

print_ratios() {
    echo "ratios (wall time, lower is better for ingest):"
    if have ingest-people xmllint-stream sqlite3-import; then
        local floor r rss verdict
        floor=$(calc "sprintf(\"%.2f\", ${SECS[xmllint-stream]} + ${SECS[sqlite3-import]})")
        r=$(divide "${SECS[ingest-people]}" "$floor" 2)   # number or n/a
        rss=$(calc "sprintf(\"%.1f\", ${RSS_KB[ingest-people]} / 1024)")
        local cpu_floor cpu_r
        cpu_floor=$(calc "sprintf(\"%.2f\", ${CPU[xmllint-stream]} + ${CPU[sqlite3-import]})")
        for name in ingest-people ingest-people-libxml2 ingest-people-1core; do
            have "$name" || continue
            r=$(divide "${SECS[$name]}" "$floor" 2)
            cpu_r=$(divide "${CPU[$name]}" "$cpu_floor" 2)
            rss=$(calc "sprintf(\"%.1f\", ${RSS_KB[$name]} / 1024)")
            if [[ "$r" == n/a || "$cpu_r" == n/a ]]; then
                verdict="cannot judge"
            elif [[ "$name" == ingest-people-1core ]]; then
                verdict="(one core; no target of its own)"
            else
                verdict=$(calc "($r <= $TARGET_RATIO && $cpu_r <= $TARGET_CPU_RATIO && $rss <= $TARGET_RSS_MB) ? \"meets\" : \"MISSES\"")
                verdict="-> $verdict target (wall <= ${TARGET_RATIO}x, CPU <= ${TARGET_CPU_RATIO}x, <= $TARGET_RSS_MB MB)"
            fi
            echo "  $name / (xmllint --stream + sqlite3 .import) = ${SECS[$name]} / $floor = ${r}x wall," \
                 "CPU ${CPU[$name]} / $cpu_floor = ${cpu_r}x; peak RSS $rss MB $verdict"
        done
    else
        echo "  ingest vs floors: not available (a measurement failed)"
    fi
    if have ingest-people lxml-peer; then
        echo "  ingest people.xml / lxml peer = ${SECS[ingest-people]} / ${SECS[lxml-peer]} = $(times "${SECS[ingest-people]}" "${SECS[lxml-peer]}")"
    else
        echo "  ingest vs lxml peer: not available (a measurement failed)"
    fi
    if have ingest-people-libxml2 ingest-people; then
        echo "  ingest people.xml --parser libxml2 / Expat = ${SECS[ingest-people-libxml2]} / ${SECS[ingest-people]}" \
             "= $(times "${SECS[ingest-people-libxml2]}" "${SECS[ingest-people]}");" \
             "peak RSS $(calc "sprintf(\"%.1f\", ${RSS_KB[ingest-people-libxml2]} / 1024)") MB"
    fi
    if have ingest-posts-libxml2 ingest-posts; then
        echo "  ingest posts.xml --parser libxml2 / Expat = ${SECS[ingest-posts-libxml2]} / ${SECS[ingest-posts]}" \
             "= $(times "${SECS[ingest-posts-libxml2]}" "${SECS[ingest-posts]}")"
    fi
    if have ingest-dry-libxml2 xmllint-stream; then
        echo "  ingest --dry-run --parser libxml2 / xmllint --stream = ${SECS[ingest-dry-libxml2]} / ${SECS[xmllint-stream]}" \
             "= $(times "${SECS[ingest-dry-libxml2]}" "${SECS[xmllint-stream]}")"
    fi
    if have ingest-dry-run xmlwf; then
        local dry verdict
        dry=$(divide "${SECS[ingest-dry-run]}" "${SECS[xmlwf]}" 2)
        verdict=$([[ "$dry" == n/a ]] && echo "cannot judge" || calc "($dry <= $TARGET_DRY_RUN_RATIO) ? \"meets\" : \"MISSES\"")
        echo "  ingest --dry-run / xmlwf = ${SECS[ingest-dry-run]} / ${SECS[xmlwf]} = $(times "${SECS[ingest-dry-run]}" "${SECS[xmlwf]}")" \
             " -> $verdict target (<= ${TARGET_DRY_RUN_RATIO}x)"
    else
        echo "  ingest dry-run vs xmlwf: not available (a measurement failed)"
    fi
    if [[ "$FLAT" == 1 ]]; then
        local small big
        for small in ingest-people ingest-people-libxml2 ingest-dry-run; do
            big="$small-x4"
            if have "$small" "$big"; then
                echo "  flatness: $small peak RSS $(calc "sprintf(\"%.1f\", ${RSS_KB[$small]} / 1024)") MB at N=$N," \
                     "$(calc "sprintf(\"%.1f\", ${RSS_KB[$big]} / 1024)") MB at N=$((N * 4))" \
                     "($(times "${RSS_KB[$big]}" "${RSS_KB[$small]}"))"
            else
                echo "  flatness: $small not available (a measurement failed)"
            fi
        done
    fi
    echo
}

print_parse_ratios() {
    echo "parse-only ratios (wall time, lower is better for ingest):"
    if have parse-ingest-libxml2 parse-xmllint-stream; then
        local r verdict
        r=$(divide "${SECS[parse-ingest-libxml2]}" "${SECS[parse-xmllint-stream]}" 2)
        verdict=$([[ "$r" == n/a ]] && echo "cannot judge" || calc "($r <= $TARGET_LIBXML2_PARSE_RATIO) ? \"meets\" : \"MISSES\"")
        echo "  ingest --parse-only --parser libxml2 / xmllint --stream --noout = ${SECS[parse-ingest-libxml2]} / ${SECS[parse-xmllint-stream]}" \
             "= $(times "${SECS[parse-ingest-libxml2]}" "${SECS[parse-xmllint-stream]}");" \
             "peak RSS $(calc "sprintf(\"%.1f\", ${RSS_KB[parse-ingest-libxml2]} / 1024)") MB" \
             " -> $verdict target (<= ${TARGET_LIBXML2_PARSE_RATIO}x)"
    else
        echo "  ingest libxml2 vs xmllint --stream: not available (a measurement failed)"
    fi
    if have parse-ingest-expat parse-xmlwf; then
        echo "  ingest --parse-only (Expat) / xmlwf = ${SECS[parse-ingest-expat]} / ${SECS[parse-xmlwf]}" \
             "= $(times "${SECS[parse-ingest-expat]}" "${SECS[parse-xmlwf]}")"
    fi
    if have parse-ingest-libxml2 parse-ingest-expat; then
        echo "  ingest --parse-only: libxml2 / Expat = ${SECS[parse-ingest-libxml2]} / ${SECS[parse-ingest-expat]}" \
             "= $(times "${SECS[parse-ingest-libxml2]}" "${SECS[parse-ingest-expat]}")"
    fi
    echo
}

print_plist_ratios() {
    echo "plist ratios (wall time, lower is better for ingest):"
    local ours peer
    for pair in "ingest-plist-binary plistlib-binary" "ingest-plist-xml plistlib-xml"; do
        read -r ours peer <<<"$pair"
        if have "$ours" "$peer"; then
            echo "  $ours / $peer = ${SECS[$ours]} / ${SECS[$peer]} = $(times "${SECS[$ours]}" "${SECS[$peer]}");" \
                 "peak RSS $(calc "sprintf(\"%.1f\", ${RSS_KB[$ours]} / 1024)") MB vs $(calc "sprintf(\"%.1f\", ${RSS_KB[$peer]} / 1024)") MB"
        else
            echo "  $ours vs $peer: not available (a measurement failed)"
        fi
    done
    if [[ "$FLAT" == 1 ]]; then
        for name in ingest-plist-binary ingest-archive; do
            if have "$name" "$name-x4"; then
                echo "  flatness: $name peak RSS $(calc "sprintf(\"%.1f\", ${RSS_KB[$name]} / 1024)") MB at N=$N," \
                     "$(calc "sprintf(\"%.1f\", ${RSS_KB[$name-x4]} / 1024)") MB at N=$((N * 4))"
            fi
        done
    fi
    echo
}

run_schema_measurements() {
    local data="$DATA_ROOT/$N" schemas="$ROOT/Schemas"
    local people="$data/people.xml" posts="$data/posts.xml" json="$data/people.json"
    # The schema `ingest schema infer` writes reproduces the automatic mapping's
    # output, so the two runs below do the same work but for how it is declared.
    "$INGEST" schema infer "$people" --out "$WORK/people-inferred.json" --replace ||
        fail "ingest schema infer $people failed"

    measure schema-auto-people "$people" fresh_schema_dbs -- \
        "$INGEST" "$people" --out "$WORK/schema-auto.db" --quiet
    measure schema-inferred-people "$people" fresh_schema_dbs -- \
        "$INGEST" "$people" --schema "$WORK/people-inferred.json" --out "$WORK/schema-inferred.db" --quiet
    # Typed columns, keys, an index and the tags as a child table with a foreign key.
    measure schema-tags-people "$people" fresh_schema_dbs -- \
        "$INGEST" "$people" --schema "$schemas/people-with-tags.json" --out "$WORK/schema-tags.db" --quiet
    expect_count schema-tags-people "$WORK/schema-tags.db" people "$N"
    measure schema-auto-posts "$posts" fresh_schema_dbs -- \
        "$INGEST" "$posts" --out "$WORK/schema-auto-posts.db" --quiet
    measure schema-posts "$posts" fresh_schema_dbs -- \
        "$INGEST" "$posts" --schema "$schemas/posts.json" --out "$WORK/schema-posts.db" --quiet
    expect_count schema-posts "$WORK/schema-posts.db" posts "$N"
    measure schema-auto-json "$json" fresh_schema_dbs -- \
        "$INGEST" "$json" --out "$WORK/schema-auto-json.db" --quiet
    measure schema-tags-json "$json" fresh_schema_dbs -- \
        "$INGEST" "$json" --schema "$schemas/people-with-tags-json.json" --out "$WORK/schema-tags-json.db" --quiet
    expect_count schema-tags-json "$WORK/schema-tags-json.db" people "$N"
}

print_schema_ratios() {
    echo "schema ratios (wall time, --schema run / automatic mapping on the same input; target <= ${TARGET_SCHEMA_RATIO}x):"
    local ours auto r verdict
    for pair in "schema-inferred-people schema-auto-people" "schema-tags-people schema-auto-people" \
                "schema-posts schema-auto-posts" "schema-tags-json schema-auto-json"; do
        read -r ours auto <<<"$pair"
        if have "$ours" "$auto"; then
            r=$(divide "${SECS[$ours]}" "${SECS[$auto]}" 2)
            verdict=$([[ "$r" == n/a ]] && echo "cannot judge" || calc "($r <= $TARGET_SCHEMA_RATIO) ? \"meets\" : \"MISSES\"")
            echo "  $ours / $auto = ${SECS[$ours]} / ${SECS[$auto]} = $(times "${SECS[$ours]}" "${SECS[$auto]}");" \
                 "peak RSS $(calc "sprintf(\"%.1f\", ${RSS_KB[$ours]} / 1024)") MB -> $verdict"
        else
            echo "  $ours vs $auto: not available (a measurement failed)"
        fi
    done
    echo
}

# ------------------------------------------------------------ issue 29 ----

# Eight inputs of N/5 records each into one database: --jobs 1, --jobs (cores), and
# eight runs one after another appending (what a user without --jobs writes).
run_multi_measurements() {
    local n=$((N / 5)) dir="$WORK/multi" i
    ensure_data "$n"
    rm -rf "$dir"; mkdir -p "$dir"
    local parts=()
    for i in 1 2 3 4 5 6 7 8; do
        ln -s "$DATA_ROOT/$n/people.xml" "$dir/part-$i.xml"
        parts+=("$dir/part-$i.xml")
    done
    fresh_multi() { rm -f "$WORK/multi.db"; }
    measure multi-jobs-1 "$DATA_ROOT/$n/people.xml" fresh_multi -- \
        "$INGEST" "${parts[@]}" --out "$WORK/multi.db" --jobs 1 --quiet
    expect_count multi-jobs-1 "$WORK/multi.db" people $((8 * n))
    measure multi-jobs "$DATA_ROOT/$n/people.xml" fresh_multi -- \
        "$INGEST" "${parts[@]}" --out "$WORK/multi.db" --jobs "$(nproc)" --quiet
    expect_count multi-jobs "$WORK/multi.db" people $((8 * n))
    measure multi-one-by-one "$DATA_ROOT/$n/people.xml" fresh_multi -- \
        bash -c 'db=$1; ingest=$2; shift 2; for part; do "$ingest" "$part" --out "$db" --append --quiet || exit; done' \
        bash "$WORK/multi.db" "$INGEST" "${parts[@]}"
    expect_count multi-one-by-one "$WORK/multi.db" people $((8 * n))
    local name
    for name in multi-jobs-1 multi-jobs multi-one-by-one; do BYTES[$name]=$((8 * BYTES[$name])); done
    # One big JSON Lines file: read whole (--jobs 1), and in as many parts as there
    # are cores (--jobs cores + 1: the parts take the threads beside the writer's).
    ensure_data "$N"
    fresh_split() { rm -f "$WORK/split.db"; }
    measure split-whole "$DATA_ROOT/$N/people.ndjson" fresh_split -- \
        "$INGEST" "$DATA_ROOT/$N/people.ndjson" --out "$WORK/split.db" --jobs 1 --quiet
    expect_count split-whole "$WORK/split.db" people "$N"
    measure split-parts "$DATA_ROOT/$N/people.ndjson" fresh_split -- \
        "$INGEST" "$DATA_ROOT/$N/people.ndjson" --out "$WORK/split.db" --jobs $(($(nproc) + 1)) --quiet
    expect_count split-parts "$WORK/split.db" people "$N"
}

# A 100,000-item RSS feed into a new archive, beside feedparser (+ sqlite3) and
# gofeed parsing the same file alone.
run_feed_measurements() {
    local items=100000 feed="$DATA_ROOT/feeds/feed-100000.rss"
    if [[ ! -s "$feed" ]]; then
        note "generating a feed of $items items into $feed"
        mkdir -p "$DATA_ROOT/feeds"
        python3 "$ROOT/Benchmarks/Feeds/generate-feed.py" "$items" "$feed.partial" && mv "$feed.partial" "$feed"
    fi
    fresh_archive() { rm -f "$WORK/feed-archive.db" "$WORK/feed-peer.db"; }
    measure feed-ingest "$feed" fresh_archive -- "$INGEST" feed "$feed" --out "$WORK/feed-archive.db" --quiet
    expect_count feed-ingest "$WORK/feed-archive.db" items "$items"
    measure feed-feedparser "$feed" fresh_archive -- \
        python3 "$ROOT/Benchmarks/Feeds/feedparser_peer.py" "$feed" "$WORK/feed-peer.db"
    expect_count feed-feedparser "$WORK/feed-peer.db" items "$items"
    local gofeed="$WORK/gofeed-count"
    if ! (cd "$ROOT" && GOPATH=/usr/share/gocode GO111MODULE=off GOCACHE="$WORK/gocache" \
        go build -o "$gofeed" ./Benchmarks/Feeds/gofeed-count) >"$WORK/gofeed-build.err" 2>&1; then
        fail "building Benchmarks/Feeds/gofeed-count: $(tail -n 3 "$WORK/gofeed-build.err")"
        return 0
    fi
    measure feed-gofeed "$feed" : -- "$gofeed" "$feed"
    if [[ "${STATUS[feed-gofeed]}" == ok && "$(cat "$WORK/feed-gofeed.out")" != "$items" ]]; then
        STATUS[feed-gofeed]="bad count"
        fail "feed-gofeed printed $(head -c 100 "$WORK/feed-gofeed.out"), expected $items"
    fi
}

# --to postgres beside its floors, through Benchmarks/postgres.sh (its own server);
# its rows are taken into this run's table.
run_postgres_measurements() {
    local out="$WORK/postgres.out" name
    note "Benchmarks/postgres.sh $N (a private PostgreSQL server)"
    if ! INGEST="$INGEST" SKIP_BENCH=1 DATA_ROOT="$DATA_ROOT" bash "$ROOT/Benchmarks/postgres.sh" "$N" \
        >"$out" 2>"$WORK/postgres.err"; then
        fail "Benchmarks/postgres.sh: $(tail -n 3 "$WORK/postgres.err")"
        return 0
    fi
    for name in xmllint-stream psql-copy ingest-postgres; do
        local row
        row=$(awk -v n="$name" '$1 == n && $3 == "s" && $4 == "wall" {print $2, $5, $8; exit}' "$out")
        [[ -n "$row" ]] || { fail "postgres.sh printed no $name row"; continue; }
        ORDER+=("pg-$name")
        BYTES[pg-$name]=$(file_size "$DATA_ROOT/$N/people.xml")
        read -r SECS[pg-$name] CPU[pg-$name] rss <<<"$row"
        RSS_KB[pg-$name]=$(calc "sprintf(\"%d\", $rss * 1024)")
        STATUS[pg-$name]=ok
    done
}

# verdict CONDITION: PASS or FAIL, by awk.
verdict() { if [[ "$(calc "($1) ? 1 : 0")" == 1 ]]; then echo PASS; else echo FAIL; fi; }
mb() { calc "sprintf(\"%.1f\", ${RSS_KB[$1]} / 1024)"; }

# The table of issue 29's targets, each judged on this run's figures.
print_targets() {
    local row='| %-58s | %-52s | %-7s |\n' floor cpu_floor r c name
    echo "targets (issue 29):"
    printf "$row" target figure verdict
    printf "$row" --- --- ---
    if have xmllint-stream sqlite3-import; then
        floor=$(calc "${SECS[xmllint-stream]} + ${SECS[sqlite3-import]}")
        cpu_floor=$(calc "${CPU[xmllint-stream]} + ${CPU[sqlite3-import]}")
        for name in ingest-people ingest-people-libxml2; do
            have "$name" || continue
            r=$(divide "${SECS[$name]}" "$floor" 2); c=$(divide "${CPU[$name]}" "$cpu_floor" 2)
            printf "$row" "$name --to db: <= ${TARGET_RATIO}x floors' wall, <= ${TARGET_CPU_RATIO}x CPU, <= $TARGET_RSS_MB MB" \
                "${r}x wall, ${c}x CPU, $(mb "$name") MB" \
                "$(verdict "$r <= $TARGET_RATIO && $c <= $TARGET_CPU_RATIO && $(mb "$name") <= $TARGET_RSS_MB")"
            if have "$name-x4"; then
                printf "$row" "$name: peak RSS flat from N to 4N (<= $TARGET_RSS_MB MB)" \
                    "$(mb "$name") -> $(mb "$name-x4") MB" "$(verdict "$(mb "$name-x4") <= $TARGET_RSS_MB")"
            fi
        done
    fi
    if have ingest-dry-run xmlwf; then
        # xmlwf runs in two suites: its faster time is the one to beat.
        local xmlwf=${SECS[xmlwf]}
        have parse-xmlwf && xmlwf=$(calc "(${SECS[parse-xmlwf]} < $xmlwf) ? ${SECS[parse-xmlwf]} : $xmlwf")
        r=$(divide "${SECS[ingest-dry-run]}" "$xmlwf" 2)
        printf "$row" "--dry-run <= ${TARGET_DRY_RUN_RATIO}x xmlwf" "${SECS[ingest-dry-run]} / $xmlwf s = ${r}x" \
            "$(verdict "$r <= $TARGET_DRY_RUN_RATIO")"
        if have parse-expat-as-ingest; then
            # No bar: the part of the one above that is Expat's own, mapping nothing.
            printf "$row" "  of which Expat as ingest drives it (expat-floor.c 3)" \
                "${SECS[parse-expat-as-ingest]} / $xmlwf s = $(divide "${SECS[parse-expat-as-ingest]}" "$xmlwf" 2)x" \
                "reported"
        fi
    fi
    if have ingest-json ijson-peer; then
        r=$(divide "${SECS[ingest-json]}" "${SECS[ijson-peer]}" 2)
        printf "$row" "people.json --to db <= ${TARGET_JSON_PEER_RATIO}x the ijson peer" \
            "${SECS[ingest-json]} / ${SECS[ijson-peer]} s = ${r}x" "$(verdict "$r <= $TARGET_JSON_PEER_RATIO")"
        if have sqlite-insert-floor; then
            # No bar: what SQLite alone takes to store these rows, beside the same peer.
            printf "$row" "  SQLite's own insert of the rows (sqlite-floor.c)" \
                "${SECS[sqlite-insert-floor]} / ${SECS[ijson-peer]} s = $(divide "${SECS[sqlite-insert-floor]}" "${SECS[ijson-peer]}" 2)x" \
                "reported"
        fi
    fi
    if have ingest-json-parse json-verify; then
        r=$(divide "${SECS[ingest-json-parse]}" "${SECS[json-verify]}" 2)
        printf "$row" "JSON --parse-only <= ${TARGET_TOKENIZER_RATIO}x json_verify" \
            "${SECS[ingest-json-parse]} / ${SECS[json-verify]} s = ${r}x" "$(verdict "$r <= $TARGET_TOKENIZER_RATIO")"
    fi
    if have multi-jobs multi-jobs-1; then
        r=$(divide "${SECS[multi-jobs]}" "${SECS[multi-jobs-1]}" 2)
        local runs
        runs=$(have multi-one-by-one && divide "${SECS[multi-jobs]}" "${SECS[multi-one-by-one]}" 2 || echo n/a)
        printf "$row" "8 inputs, --jobs $(nproc) <= ${TARGET_MULTI_RATIO}x --jobs 1" \
            "${SECS[multi-jobs]} / ${SECS[multi-jobs-1]} s = ${r}x (${runs}x of 8 runs)" \
            "$(verdict "$r <= $TARGET_MULTI_RATIO")"
    fi
    if have split-parts split-whole; then
        # The issue asks for the speed-up, reported; it sets no bar.
        printf "$row" "one big NDJSON input in $(nproc) parts (--jobs $(($(nproc) + 1))) vs whole" \
            "${SECS[split-parts]} / ${SECS[split-whole]} s = $(divide "${SECS[split-parts]}" "${SECS[split-whole]}" 2)x, $(mb split-parts) MB" \
            "reported"
    fi
    if have pg-ingest-postgres pg-xmllint-stream pg-psql-copy; then
        floor=$(calc "${SECS[pg-xmllint-stream]} + ${SECS[pg-psql-copy]}")
        r=$(divide "${SECS[pg-ingest-postgres]}" "$floor" 2)
        printf "$row" "--to postgres <= ${TARGET_POSTGRES_RATIO}x (xmllint --stream + psql \\copy)" \
            "${SECS[pg-ingest-postgres]} / $floor s = ${r}x" "$(verdict "$r <= $TARGET_POSTGRES_RATIO")"
    fi
    if have feed-ingest feed-feedparser; then
        r=$(divide "${SECS[feed-ingest]}" "${SECS[feed-feedparser]}" 3)
        printf "$row" "feed into a new archive <= ${TARGET_FEEDPARSER_RATIO}x feedparser (+ sqlite3)" \
            "${SECS[feed-ingest]} / ${SECS[feed-feedparser]} s = ${r}x" "$(verdict "$r <= $TARGET_FEEDPARSER_RATIO")"
    fi
    if have feed-ingest feed-gofeed; then
        r=$(divide "${SECS[feed-ingest]}" "${SECS[feed-gofeed]}" 3)
        printf "$row" "feed into a new archive <= ${TARGET_GOFEED_RATIO}x gofeed parsing it alone" \
            "${SECS[feed-ingest]} / ${SECS[feed-gofeed]} s = ${r}x" "$(verdict "$r <= $TARGET_GOFEED_RATIO")"
    fi
    echo
}

# -------------------------------------------------------------------- main --

# suite NAME: NAME is among the groups to measure.
suite() { [[ " $SUITES " == *" $1 "* ]]; }

main() {
    check_arguments
    ensure_tools
    ensure_data "$N"
    if [[ "$FLAT" == 1 ]]; then ensure_data $((N * 4)); fi
    ensure_ingest
    drop_cached_binary
    mkdir -p "$WORK"

    for ((ROUND = 1; ROUND <= REPEAT; ROUND++)); do
        if suite db; then run_db_measurements; fi
        if suite parse; then run_parse_measurements; fi
        if suite plist; then run_plist_measurements; fi
        if suite json; then run_json_measurements; fi
        if suite schema; then run_schema_measurements; fi
        if suite gz; then run_gz_measurements; fi
        if suite multi; then run_multi_measurements; fi
        if suite feeds; then run_feed_measurements; fi
    done
    # postgres.sh starts a server of its own and takes its figures once.
    if suite postgres; then run_postgres_measurements; fi

    echo
    print_environment
    print_table
    if suite db; then print_ratios; fi
    if suite parse; then print_parse_ratios; fi
    if suite plist; then print_plist_ratios; fi
    if suite json; then print_json_ratios; fi
    if suite schema; then print_schema_ratios; fi
    if suite gz; then print_gz_ratios; fi
    print_targets
    if ((${#FAILURES[@]})); then
        echo "FAILURES:"
        printf '  - %s\n' "${FAILURES[@]}"
        exit 1
    fi
}

main
