#!/usr/bin/env python3
"""What a Python user writes to archive a feed: feedparser, then sqlite3.

    python3 Benchmarks/Feeds/feedparser_peer.py FEED OUT.db

Parses FEED with feedparser (`pip install feedparser`) and inserts its items
(guid, link, title, summary, content, author, published) into OUT.db, one
transaction. Prints the item count.
"""

import sqlite3
import sys

import feedparser


def main():
    path, out = sys.argv[1], sys.argv[2]
    parsed = feedparser.parse(path)
    db = sqlite3.connect(out)
    db.execute("CREATE TABLE IF NOT EXISTS items (guid TEXT PRIMARY KEY, link TEXT, title TEXT, summary TEXT, "
               "content TEXT, author TEXT, published TEXT)")
    with db:
        db.executemany(
            "INSERT OR REPLACE INTO items VALUES (?, ?, ?, ?, ?, ?, ?)",
            ((entry.get("id"), entry.get("link"), entry.get("title"), entry.get("summary"),
              (entry.get("content") or [{}])[0].get("value"), entry.get("author"), entry.get("published"))
             for entry in parsed.entries))
    db.close()
    print(len(parsed.entries))


if __name__ == "__main__":
    main()
