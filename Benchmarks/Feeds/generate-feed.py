#!/usr/bin/env python3
"""Writes a large, deterministic RSS 2.0 feed for the feed benchmarks.

    python3 Benchmarks/Feeds/generate-feed.py N OUT.rss

N items (100 000 make about 100 MB), each with what real feeds carry: title,
link, guid, pubDate, an escaped HTML description, content:encoded in CDATA,
dc:creator, two categories, an enclosure, and iTunes duration on every fifth.
The same N always gives the same bytes. Not committed: generated when needed.
"""

import random
import sys

WORDS = ("harbour tide boat sail mend rope canvas ledger lighthouse gull net keel "
         "anchor quay storm calm dinghy oar chart compass lantern cove reef buoy "
         "slipway mooring ferry pier estuary drift current swell shore dune").split()


def sentence(rng, count):
    words = [rng.choice(WORDS) for _ in range(count)]
    return " ".join(words).capitalize() + "."


def main():
    count, path = int(sys.argv[1]), sys.argv[2]
    rng = random.Random(20261123)
    with open(path, "w", encoding="utf-8") as out:
        out.write('<?xml version="1.0" encoding="UTF-8"?>\n')
        out.write('<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" '
                  'xmlns:dc="http://purl.org/dc/elements/1.1/" '
                  'xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd">\n<channel>\n')
        out.write("<title>Benchmark Harbour News</title>\n<link>https://bench.example.org/</link>\n")
        out.write("<description>A generated feed for ingest's benchmarks.</description>\n")
        out.write("<language>en</language>\n<lastBuildDate>Mon, 23 Nov 2026 06:00:00 GMT</lastBuildDate>\n")
        for index in range(count):
            day = 1 + index % 28
            hour = index % 24
            minute = index % 60
            title = sentence(rng, 6)
            summary = sentence(rng, 18)
            paragraphs = "".join("<p>%s %s</p>" % (sentence(rng, 14), sentence(rng, 12)) for _ in range(3))
            out.write("<item>\n")
            out.write("  <title>%s (%d)</title>\n" % (title, index))
            out.write("  <link>https://bench.example.org/posts/%d</link>\n" % index)
            out.write('  <guid isPermaLink="false">bench-%d</guid>\n' % index)
            out.write("  <pubDate>%s, %02d Nov 2026 %02d:%02d:00 GMT</pubDate>\n"
                      % (("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")[index % 7], day, hour, minute))
            out.write("  <dc:creator>%s %s</dc:creator>\n" % (rng.choice(WORDS).capitalize(), rng.choice(WORDS).capitalize()))
            out.write("  <category>%s</category>\n  <category>%s</category>\n" % (rng.choice(WORDS), rng.choice(WORDS)))
            out.write("  <description>&lt;p&gt;%s&lt;/p&gt;</description>\n" % summary)
            out.write("  <content:encoded><![CDATA[%s]]></content:encoded>\n" % paragraphs)
            out.write('  <enclosure url="https://media.bench.example.org/%d.mp3" length="%d" type="audio/mpeg"/>\n'
                      % (index, 1000000 + index))
            if index % 5 == 0:
                out.write("  <itunes:duration>%d:%02d</itunes:duration>\n" % (10 + index % 50, index % 60))
            out.write("</item>\n")
        out.write("</channel>\n</rss>\n")


if __name__ == "__main__":
    main()
