#!/usr/bin/env python3
"""The reference for the 2,000-feed benchmark: what a competent Python archiver writes.

    python3 Benchmarks/FeedFleet/reference.py SUBS.opml OUT.db [--jobs 16]

Reads the OPML file's xmlUrl outlines, fetches every feed on a
concurrent.futures.ThreadPoolExecutor(16) with urllib, conditionally
(If-None-Match / If-Modified-Since from what OUT.db stored last time; a 301 or 308
moves the stored URL; 30 s timeout), parses each 200 with feedparser
(`pip install feedparser`) in the worker thread, and stores the feed's row (url,
status, etag, last_modified, failures, last_error, next_fetch from max-age, <ttl>
and Retry-After, else an hour; 15 minutes doubling after failures) and its items
(upserted on feed + guid, one transaction per feed) with sqlite3 from the main
thread. Prints one line: feeds fetched, 304s, failures, items upserted.

Exits 3 with a message if feedparser cannot be imported.
"""

import argparse
import concurrent.futures
import datetime
import email.utils
import re
import sqlite3
import sys
import urllib.error
import urllib.request
import xml.etree.ElementTree as ET

try:
    import feedparser
except ImportError:
    print("reference.py: feedparser is not installed (pip install feedparser); skipped", file=sys.stderr)
    sys.exit(3)

TIMEOUT = 30
USER_AGENT = "fleet-reference/1 (feedparser %s)" % feedparser.__version__

SCHEMA = """
CREATE TABLE IF NOT EXISTS feeds (source TEXT PRIMARY KEY, url TEXT, title TEXT, last_status INTEGER,
  etag TEXT, last_modified TEXT, last_fetched TEXT, failures INTEGER NOT NULL DEFAULT 0, last_error TEXT,
  next_fetch TEXT);
CREATE TABLE IF NOT EXISTS items (feed TEXT NOT NULL, guid TEXT NOT NULL, link TEXT, title TEXT,
  summary TEXT, author TEXT, published TEXT, PRIMARY KEY (feed, guid));
"""


class Redirects(urllib.request.HTTPRedirectHandler):
    """Follows redirects as urllib does, noting whether each was permanent."""

    def redirect_request(self, req, fp, code, msg, headers, newurl):
        new = super().redirect_request(req, fp, code, msg, headers, newurl)
        if new is not None:
            new.codes = req.codes
            new.codes.append(code)
        return new


OPENER = urllib.request.build_opener(Redirects())


def fetch(source, url, etag, modified):
    """One conditional GET and, for a 200, feedparser's parse: runs on a worker thread."""
    request = urllib.request.Request(url, headers={"User-Agent": USER_AGENT, "Accept-Encoding": "identity"})
    if etag:
        request.add_header("If-None-Match", etag)
    if modified:
        request.add_header("If-Modified-Since", modified)
    request.codes = []  # the redirects followed, shared by the requests that follow them
    now = datetime.datetime.now(datetime.timezone.utc)
    try:
        with OPENER.open(request, timeout=TIMEOUT) as response:
            body = response.read()
            final = response.geturl()
            permanent = request.codes and all(code in (301, 308) for code in request.codes)
            moved = final if final != url and permanent else None
            parsed = feedparser.parse(body, response_headers={k.lower(): v for k, v in response.headers.items()})
            return dict(source=source, status=response.status, headers=response.headers, parsed=parsed,
                        moved=moved, now=now)
    except urllib.error.HTTPError as error:
        if error.code == 304:
            return dict(source=source, status=304, headers=error.headers, now=now)
        return dict(source=source, status=error.code, headers=error.headers, error="HTTP %d" % error.code,
                    now=now)
    except Exception as error:  # network errors, timeouts, redirect loops
        return dict(source=source, status=None, headers=None, error=str(error), now=now)


def max_age(headers):
    match = re.search(r"max-age=(\d+)", (headers or {}).get("Cache-Control", "") or "")
    return int(match.group(1)) if match else None


def next_fetch(result, failures, ttl):
    now = result["now"]
    if failures:
        wait = min(900 * 2 ** (failures - 1), 86400)
    else:
        said = [w for w in (max_age(result["headers"]), ttl * 60 if ttl else None) if w is not None]
        wait = max(said) if said else 3600
    retry = (result["headers"] or {}).get("Retry-After")
    if retry and retry.isdigit():
        wait = max(wait, int(retry))
    return (now + datetime.timedelta(seconds=min(wait, 7 * 86400))).isoformat()


def store(db, result, stored):
    """The feed's row and, for a 200, its items: one transaction."""
    source, status, now = result["source"], result["status"], result["now"].isoformat()
    failures = stored[3] if stored else 0
    with db:
        if status == 304:
            db.execute("UPDATE feeds SET last_status = 304, last_fetched = ?, failures = 0, last_error = NULL, "
                       "next_fetch = ? WHERE source = ?", (now, next_fetch(result, 0, None), source))
            return 0
        if "error" in result:
            failures += 1
            db.execute("INSERT INTO feeds (source, url, last_status, last_fetched, failures, last_error, next_fetch) "
                       "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (source) DO UPDATE SET last_status = excluded.last_status, "
                       "last_fetched = excluded.last_fetched, failures = excluded.failures, "
                       "last_error = excluded.last_error, next_fetch = excluded.next_fetch",
                       (source, source, status, now, failures, result["error"], next_fetch(result, failures, None)))
            return 0
        parsed, headers = result["parsed"], result["headers"]
        ttl = parsed.feed.get("ttl")
        ttl = int(ttl) if ttl and str(ttl).isdigit() else None
        url = result["moved"] or (stored[0] if stored else source)
        db.execute("INSERT INTO feeds (source, url, title, last_status, etag, last_modified, last_fetched, failures, "
                   "last_error, next_fetch) VALUES (?, ?, ?, ?, ?, ?, ?, 0, NULL, ?) ON CONFLICT (source) DO UPDATE SET "
                   "url = excluded.url, title = excluded.title, last_status = excluded.last_status, etag = excluded.etag, "
                   "last_modified = excluded.last_modified, last_fetched = excluded.last_fetched, failures = 0, "
                   "last_error = NULL, next_fetch = excluded.next_fetch",
                   (source, url, parsed.feed.get("title"), status, headers.get("ETag"), headers.get("Last-Modified"),
                    now, next_fetch(result, 0, ttl)))
        rows = [(source, entry.get("id") or entry.get("link"), entry.get("link"), entry.get("title"),
                 entry.get("summary"), entry.get("author"), entry.get("published")) for entry in parsed.entries]
        db.executemany("INSERT INTO items VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (feed, guid) DO UPDATE SET "
                       "link = excluded.link, title = excluded.title, summary = excluded.summary, "
                       "author = excluded.author, published = excluded.published", rows)
        return len(rows)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("opml")
    parser.add_argument("db")
    parser.add_argument("--jobs", type=int, default=16)
    args = parser.parse_args()

    sources = [o.get("xmlUrl") for o in ET.parse(args.opml).iter("outline") if o.get("xmlUrl")]
    db = sqlite3.connect(args.db)
    db.executescript(SCHEMA)
    stored = {row[0]: row[1:] for row in db.execute("SELECT source, url, etag, last_modified, failures FROM feeds")}
    counts = {"fetched": 0, "304": 0, "failed": 0, "items": 0}
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        futures = []
        for source in sources:
            row = stored.get(source)
            url, etag, modified = (row[0], row[1], row[2]) if row else (source, None, None)
            futures.append(pool.submit(fetch, source, url, etag, modified))
        for future in concurrent.futures.as_completed(futures):
            result = future.result()
            counts["fetched"] += 1
            counts["304"] += result["status"] == 304
            counts["failed"] += "error" in result
            counts["items"] += store(db, result, stored.get(result["source"]))
    db.close()
    print("%(fetched)d feeds fetched, %(304)d not modified, %(failed)d failed, %(items)d items upserted" % counts)


if __name__ == "__main__":
    main()
