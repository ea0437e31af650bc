#!/usr/bin/env python3
"""Checks the guides: every link resolves and every command-line example runs.

    python3 Scripts/check-guides.py [--ingest PATH] [--links-only] [-v] [FILE...]
    python3 Scripts/check-docs.py --guides [--ingest PATH] ...   (the same)

FILE: Markdown pages to check (default: README.md, Documentation/*.md, BENCHMARKS.md,
RELIABILITY.md and Schemas/README.md).

Links. Every relative Markdown link, `[text](path)` or `[text](path#fragment)`
(outside code), must name a file or folder that exists, relative to the page; a
`#fragment` (also `#fragment` alone, for the page itself) must be the anchor of a
heading of the Markdown page it names, as GitHub makes anchors: the heading's text
lower-cased, punctuation other than `-` and `_` removed, spaces made `-`, a repeated
anchor numbered `-1`, `-2`. Links with a scheme (https:, mailto:) are not fetched.

Examples. In every fenced block marked ```sh, ```shell or ```console, each command
that runs `ingest` — a line that starts with `ingest ` (in a console block, `$ ingest `),
or a pipeline with an `ingest` stage, such as `zcat log.jsonl.gz | ingest - --nl` —
is run with bash, on its own, in a new temporary folder that holds the samples
(`Samples/` and their copies at the top, `Schemas/`) and the files the guides' examples
name (`nightly.xml`, `events.ndjson`, `people.xml`, `mail.xml`, … made below), with
`ingest` on the PATH being the binary given by --ingest (or $INGEST; default
.build/debug/ingest). It must exit 0 within a minute. Lines of those blocks that do not
run ingest (`sqlite3 …`, `swift test`) are not run.

A block that cannot run here — it needs a network, a PostgreSQL server, or writes
outside its folder — is marked in the page with a comment on the line before it
(blank lines may come between):

    <!-- not-run: needs a PostgreSQL server -->

Each problem is printed as FILE:LINE: reason; the exit status is 1 if there is any.
"""

import argparse
import glob
import gzip
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unicodedata

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_PAGES = ["README.md", "Documentation/*.md", "BENCHMARKS.md", "RELIABILITY.md", "Schemas/README.md"]
EXAMPLE_LANGUAGES = {"sh", "shell", "console"}
NOT_RUN = re.compile(r"<!--\s*not-run:\s*(.*?)\s*-->")
FENCE = re.compile(r"^(\s*)(`{3,}|~{3,})\s*([\w+-]*)")
TIMEOUT = 60


# Markdown structure ---------------------------------------------------------------

def blocks_and_text(lines):
    """Yields ("text", number, line) for lines outside fenced code and ("block", number,
    language, [(number, line)], mark) for each fenced block; mark is the reason of a
    `<!-- not-run: … -->` comment right before it, or None."""
    i, n = 0, len(lines)
    while i < n:
        m = FENCE.match(lines[i])
        if not m:
            yield ("text", i + 1, lines[i])
            i += 1
            continue
        fence, language, start = m.group(2), m.group(3).lower(), i + 1
        body = []
        i += 1
        while i < n and not lines[i].strip().startswith(fence):
            body.append((i + 1, lines[i]))
            i += 1
        i += 1  # the closing fence
        mark, k = None, start - 2
        while k >= 0 and not lines[k].strip():
            k -= 1
        if k >= 0:
            found = NOT_RUN.search(lines[k])
            if found:
                mark = found.group(1) or "(no reason given)"
        yield ("block", start, language, body, mark)


def github_anchor(heading):
    """The anchor GitHub gives a heading's text."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)   # links: their text
    text = re.sub(r"<[^>]+>", "", text)                         # inline HTML
    text = text.strip().lower()
    kept = []
    for ch in text:
        if ch in "-_ " or ch.isalnum() or unicodedata.category(ch).startswith("M"):
            kept.append(ch)
    return "".join(kept).replace(" ", "-")


_anchor_cache = {}


def anchors(path):
    """The heading anchors of the Markdown file at `path`."""
    if path not in _anchor_cache:
        with open(path, encoding="utf-8") as f:
            lines = f.read().split("\n")
        found, seen = set(), {}
        for item in blocks_and_text(lines):
            if item[0] != "text":
                continue
            m = re.match(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$", item[2])
            if not m:
                continue
            base = github_anchor(m.group(2))
            count = seen.get(base, 0)
            seen[base] = count + 1
            found.add(base if count == 0 else f"{base}-{count}")
            # HTML anchors in the heading, <a name="x"></a>
        found.update(re.findall(r'<a\s+(?:name|id)="([^"]+)"', "\n".join(lines)))
        _anchor_cache[path] = found
    return _anchor_cache[path]


LINK = re.compile(r"(?<!\\)!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]*)>?(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$")


def check_links(page, lines, problems):
    here = os.path.dirname(page)
    count = 0
    for item in blocks_and_text(lines):
        if item[0] != "text":
            continue
        number, line = item[1], item[2]
        visible = re.sub(r"(`+)(?:(?!\1).)+?\1", lambda m: " " * len(m.group(0)), line)  # code spans
        targets = [m.group(1) for m in LINK.finditer(visible)]
        ref = REFERENCE.match(visible)
        if ref:
            targets.append(ref.group(1))
        for target in targets:
            count += 1
            if not target or re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", target):
                continue  # https:, mailto: — not fetched
            path, _, fragment = target.partition("#")
            resolved = os.path.normpath(os.path.join(here, path)) if path else page
            where = f"{os.path.relpath(page, ROOT)}:{number}"
            if not os.path.exists(resolved):
                problems.append(f"{where}: link {target}: {os.path.relpath(resolved, ROOT)} does not exist")
                continue
            if fragment:
                if not resolved.endswith(".md") or os.path.isdir(resolved):
                    problems.append(f"{where}: link {target}: a #fragment into a file that is not Markdown")
                elif fragment not in anchors(resolved):
                    problems.append(f"{where}: link {target}: {os.path.relpath(resolved, ROOT)} "
                                    f"has no heading with the anchor #{fragment}")
    return count


# Examples -------------------------------------------------------------------------

def commands(language, body):
    """(line number, command) of each command of a block that runs ingest."""
    joined, start, current = [], None, ""
    for number, line in body:
        text = line.rstrip()
        if language == "console":
            if current == "":
                if not text.lstrip().startswith("$ "):
                    continue  # output, not a command
                text = text.lstrip()[2:]
        if current == "":
            start = number
        if text.endswith("\\"):
            current += text[:-1] + " "
            continue
        current += text
        joined.append((start, current.strip()))
        current = ""
    if current:
        joined.append((start, current.strip()))
    found = []
    for number, command in joined:
        stages = [stage.strip() for stage in command.split("|")]
        if any(stage == "ingest" or stage.startswith("ingest ") for stage in stages):
            found.append((number, command))
    return found


def bench_generator():
    return os.path.normpath(os.path.join(ROOT, "..", "shared", "bench", "gen_people.py"))


def make_fixture(folder):
    """The files the guides' examples name, in `folder`."""
    for name in ("Samples", "Schemas"):
        shutil.copytree(os.path.join(ROOT, name), os.path.join(folder, name))
    for path in glob.glob(os.path.join(ROOT, "Samples", "*")):
        if os.path.isfile(path):
            shutil.copy(path, folder)

    def write(name, data):
        with open(os.path.join(folder, name), "wb") as f:
            f.write(data if isinstance(data, bytes) else data.encode("utf-8"))

    def read(name):
        with open(os.path.join(folder, name), "rb") as f:
            return f.read()

    # The benchmark data's shapes (people.xml, people.json, posts.xml), small.
    generator = bench_generator()
    if os.path.exists(generator):
        subprocess.run([sys.executable, generator, "40", folder], check=True, stdout=subprocess.DEVNULL)
    # A nightly feed of the benchmark's people, as the cron and schema examples read it.
    if os.path.exists(os.path.join(folder, "people.xml")):
        write("nightly.xml", read("people.xml"))
    else:
        write("nightly.xml", read("folks.xml"))
    write("nightly.xml.gz", gzip.compress(read("nightly.xml")))
    events = "".join(f'{{"id":{i},"page":"/p/{i}","ms":{i * 17}}}\n' for i in range(1, 6))
    write("events.ndjson", events)
    # Monthly files of the same events, the second updating one and adding one (--table, --pk).
    write("events-2024-01.ndjson", events)
    write("events-2024-02.ndjson", '{"id":5,"ms":90}\n{"id":6,"page":"/p/6","ms":102}\n')
    write("log.jsonl.gz", gzip.compress(events.encode()))
    write("big.xml", read("folks.xml"))
    # A stateful encoding only libxml2 reads.
    write("mail.xml", '<?xml version="1.0" encoding="ISO-2022-JP"?>\n<mail>\n'
          '  <message><from>田中</from><subject>こんにちは</subject></message>\n'
          '  <message><from>さくら</from><subject>ありがとう</subject></message>\n'
          '</mail>\n'.encode("iso2022_jp"))
    write("feed.atom", '<?xml version="1.0" encoding="utf-8"?>\n'
          '<feed xmlns="http://www.w3.org/2005/Atom">\n  <title>Notes</title>\n'
          '  <entry><title>Swift 6</title><id>urn:1</id><updated>2026-11-01T00:00:00Z</updated>'
          '<category term="swift"/></entry>\n'
          '  <entry><title>Go</title><id>urn:2</id><updated>2026-11-02T00:00:00Z</updated>'
          '<category term="go"/></entry>\n</feed>\n')
    write("export.xml", '<?xml version="1.0"?>\n<export>\n'
          + "".join(f"  <order><id>{i}</id><total>{i * 40}</total></order>\n" for i in range(1, 6))
          + "</export>\n")
    # Two feeds of one run.
    shutil.copy(os.path.join(folder, "podcast.rss"), os.path.join(folder, "a.rss"))
    shutil.copy(os.path.join(folder, "news.atom"), os.path.join(folder, "b.atom"))


def run_examples(page, lines, ingest, fixture, verbose, problems):
    ran = skipped = 0
    bin_dir = tempfile.mkdtemp(prefix="ingest-guides-bin-")
    os.symlink(ingest, os.path.join(bin_dir, "ingest"))
    environment = dict(os.environ, PATH=bin_dir + os.pathsep + os.environ.get("PATH", ""))
    environment.pop("INGEST_LIBZSTD", None)
    try:
        for item in blocks_and_text(lines):
            if item[0] != "block" or item[2] not in EXAMPLE_LANGUAGES:
                continue
            _, start, language, body, mark = item
            found = commands(language, body)
            if mark is not None:
                skipped += len(found)
                if verbose:
                    print(f"{os.path.relpath(page, ROOT)}:{start}: not run ({mark}): {len(found)} command(s)")
                continue
            for number, command in found:
                ran += 1
                where = f"{os.path.relpath(page, ROOT)}:{number}"
                work = tempfile.mkdtemp(prefix="ingest-guides-")
                try:
                    folder = os.path.join(work, "run")
                    shutil.copytree(fixture, folder, symlinks=True)
                    try:
                        result = subprocess.run(["bash", "-o", "pipefail", "-c", command], cwd=folder,
                                                env=dict(environment, HOME=work), stdin=subprocess.DEVNULL,
                                                stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                                timeout=TIMEOUT)
                    except subprocess.TimeoutExpired:
                        problems.append(f"{where}: example did not finish in {TIMEOUT} s: {command}")
                        continue
                    if result.returncode != 0:
                        said = (result.stderr or result.stdout).decode("utf-8", "replace").strip().splitlines()
                        problems.append(f"{where}: example exited {result.returncode}: {command}"
                                        + (f"\n    {said[-1]}" if said else ""))
                    elif verbose:
                        print(f"{where}: ok: {command}")
                finally:
                    shutil.rmtree(work, ignore_errors=True)
    finally:
        shutil.rmtree(bin_dir, ignore_errors=True)
    return ran, skipped


def main(argv=None):
    parser = argparse.ArgumentParser(description="Check the guides' links and command-line examples.")
    parser.add_argument("pages", nargs="*", help="Markdown files (default: README.md, Documentation/*.md, ...)")
    parser.add_argument("--ingest", default=os.environ.get("INGEST", os.path.join(ROOT, ".build", "debug", "ingest")),
                        help="the ingest binary the examples run (default: $INGEST, else .build/debug/ingest)")
    parser.add_argument("--links-only", action="store_true", help="check the links, run no example")
    parser.add_argument("-v", "--verbose", action="store_true", help="print each example run or not run")
    args = parser.parse_args(argv)

    pages = []
    for pattern in args.pages or [os.path.join(ROOT, p) for p in DEFAULT_PAGES]:
        matched = sorted(glob.glob(pattern)) or [pattern]
        pages += [os.path.abspath(p) for p in matched]
    problems = []
    texts = {}
    for page in pages:
        if not os.path.isfile(page):
            problems.append(f"{page}: no such page")
            continue
        with open(page, encoding="utf-8") as f:
            texts[page] = f.read().split("\n")
    links = sum(check_links(page, lines, problems) for page, lines in texts.items())
    summary = f"{links} links in {len(texts)} pages"

    if not args.links_only:
        ingest = os.path.abspath(args.ingest)
        if not os.access(ingest, os.X_OK):
            print(f"check-guides: no ingest binary at {ingest} (build it, or give --ingest PATH)", file=sys.stderr)
            return 1
        fixture_root = tempfile.mkdtemp(prefix="ingest-guides-fixture-")
        try:
            fixture = os.path.join(fixture_root, "files")
            os.mkdir(fixture)
            make_fixture(fixture)
            ran = skipped = 0
            for page, lines in texts.items():
                r, s = run_examples(page, lines, ingest, fixture, args.verbose, problems)
                ran, skipped = ran + r, skipped + s
        finally:
            shutil.rmtree(fixture_root, ignore_errors=True)
        summary += f"; {ran} examples run, {skipped} marked not-run"

    for problem in problems:
        print(problem)
    print(f"check-guides: {summary}; {len(problems)} problem{'' if len(problems) == 1 else 's'}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
