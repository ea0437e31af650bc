#!/usr/bin/env python3
"""A fleet of 2,000 RSS feeds on loopback addresses, for the benchmark of issue 25.

    python3 Benchmarks/FeedFleet/server.py DIR [--feeds 2000] [--hosts 64] [--seed 25]
                                           [--slow 5] [--limit 900]

Standard library only. Generates a deterministic (seeded) feed set, writes
DIR/subs.opml (every feed's URL, in folders) and DIR/truth.tsv (what each feed is
and what a correct archive holds for it), serves the feeds and prints one line,
`ready CONTROL_URL`, when it listens. It stops by itself after --limit seconds.

Hosts: the feeds are spread over --hosts servers, one per loopback address
127.0.1.1, 127.0.1.2, ... (all of 127.0.0.0/8 is loopback on Linux; nothing
listens beyond this machine), a few hosts holding more feeds than the others, as
in a real subscription list. Only clients from 127.0.0.0/8 are answered.

Rounds: the feeds are a pure function of the round, set with GET /_round/N on the
control host (127.0.0.1). Round 1 is the first fetch; from round 2 on, the
"changed" feeds have 1-5 new items (the oldest as many dropped past 20 items),
one stored item retitled and a new ETag; everything else is as in round 1.
GET /_hits returns every request served so far, one `round feed status` line each.

Categories (by feed, seeded): 70 % stable (304 to a matching conditional GET from
round 2), 10 % changed, and the rest 404, 410, 500, 503 with Retry-After: 7200,
301 (permanent, to /moved/ID), 302 (to /temp/ID, every time), slow (answers after
--slow seconds: 200, then 304) and a redirect loop (/feed/ID -> /loop/ID ->
/feed/ID). Validators: ETag and Last-Modified, or only one of them. Scheduling
hints on the feeds that answer: some send Cache-Control: max-age=1 ("hot", due
again a second later), some max-age=1800, some carry <ttl>120</ttl>, some both
max-age=1 and <ttl>60</ttl> (the longest wins: not due), the rest nothing.
"""

import argparse
import email.utils
import html
import http.server
import os
import random
import socketserver
import sys
import threading
import time

STABLE, CHANGED = "stable", "changed"
ERRORS = {"404": 404, "410": 410, "500": 500, "503": 503}
# The 20 % that are neither stable nor changed, in feeds per 2,000.
MIX = [("404", 80), ("410", 40), ("500", 60), ("503", 60), ("301", 60), ("302", 60), ("slow", 20), ("loop", 20)]
RETRY_AFTER = 7200
BASE_TIME = 1_790_000_000  # 2026-09-21, the feeds' dates count from here

WORDS = ("feed archive reader server client cache header status request response item channel "
         "title link guid date summary content author category enclosure podcast episode season "
         "network kernel socket thread memory parser stream buffer queue host cron schedule").split()


def size_of(rng):
    """Items in a feed: most small, a few large (1-500)."""
    r = rng.random()
    if r < 0.60:
        return rng.randint(1, 25)
    if r < 0.90:
        return rng.randint(26, 100)
    if r < 0.99:
        return rng.randint(101, 300)
    return rng.randint(301, 500)


class Feed:
    """One feed: its category, host, validators, hints and the bodies of its versions."""

    def __init__(self, fid, category, host, rng):
        self.id = fid
        self.category = category
        self.host = host
        self.items = size_of(rng)
        self.added = rng.randint(1, 5) if category == CHANGED else 0
        v = rng.random()
        self.sends_etag = v < 0.85
        self.sends_modified = v >= 0.25
        h = rng.random()
        answers = category not in ERRORS and category != "loop"
        self.hint = "none"
        if answers:
            if h < 0.08:
                self.hint = "hot"          # max-age=1
            elif h < 0.28:
                self.hint = "maxage"       # max-age=1800
            elif h < 0.43:
                self.hint = "ttl"          # <ttl>120</ttl>
            elif h < 0.48:
                self.hint = "hot+ttl"      # max-age=1 and <ttl>60</ttl>
        self.seed = rng.getrandbits(32)
        self.bodies = {1: self.render(1)}
        if category == CHANGED:
            self.bodies[2] = self.render(2)

    def version(self, rnd):
        return 2 if self.category == CHANGED and rnd >= 2 else 1

    def etag(self, version):
        return '"f%d-v%d"' % (self.id, version)

    def modified(self, version):
        return email.utils.formatdate(BASE_TIME + self.id * 60 + version * 86400, usegmt=True)

    def truth_items(self):
        """Distinct items a correct archive holds after rounds 1 and 2."""
        if self.category in ERRORS or self.category == "loop":
            return 0
        return self.items + self.added

    def render(self, version):
        newest = self.items + (self.added if version == 2 else 0)
        count = self.items if version == 1 else max(self.items, min(newest, 20))
        ttl = {"ttl": "<ttl>120</ttl>", "hot+ttl": "<ttl>60</ttl>"}.get(self.hint, "")
        out = ['<?xml version="1.0" encoding="utf-8"?>\n<rss version="2.0" '
               'xmlns:dc="http://purl.org/dc/elements/1.1/"><channel>\n'
               '<title>Feed %d</title><link>http://site%d.example/</link>'
               '<description>Feed %d of the fleet</description><language>en</language>%s\n'
               % (self.id, self.id, self.id, ttl)]
        for n in range(newest - 1, newest - 1 - count, -1):
            words = [WORDS[(self.seed + n * 7 + k * 13) % len(WORDS)] for k in range(40 + (self.seed + n * 40503) % 101)]
            title = "Item %d of feed %d: %s" % (n, self.id, " ".join(words[:6]))
            if version == 2 and n == self.items - 1:
                title += " (updated)"
            text = html.escape("<p>%s.</p><p>%s.</p>" % (" ".join(words[: len(words) // 2]),
                                                        " ".join(words[len(words) // 2:])))
            out.append('<item><title>%s</title><link>http://site%d.example/post/%d</link>'
                       '<guid isPermaLink="false">urn:fleet:%d:%d</guid><pubDate>%s</pubDate>'
                       '<dc:creator>Author %d</dc:creator><category>%s</category>'
                       '<description>%s</description></item>\n'
                       % (html.escape(title), self.id, n, self.id, n,
                          email.utils.formatdate(BASE_TIME + self.id * 60 + n * 3600, usegmt=True),
                          n % 17, words[0], text))
        out.append("</channel></rss>\n")
        return "".join(out).encode()


class Fleet:
    def __init__(self, count, hosts, seed, slow):
        rng = random.Random(seed)
        per_2000 = [(STABLE, 1400), (CHANGED, 200)] + MIX
        categories = []
        for name, n in per_2000:
            categories += [name] * (n * count // 2000)
        categories += [STABLE] * (count - len(categories))
        rng.shuffle(categories)
        # A few hosts hold more feeds: weights 1/sqrt(rank) (the first about 7 %).
        weights = [1 / (rank ** 0.5) for rank in range(1, hosts + 1)]
        self.hosts = ["127.0.1.%d" % (h + 1) for h in range(hosts)]
        self.feeds = [Feed(i, categories[i], rng.choices(range(hosts), weights)[0], rng) for i in range(count)]
        self.slow = slow
        self.round = 1
        self.hits = []
        self.lock = threading.Lock()
        self.ports = {}

    def url(self, feed, path=None):
        host = self.hosts[feed.host]
        return "http://%s:%d%s" % (host, self.ports[host], path or "/feed/%d" % feed.id)

    def write_opml(self, path):
        with open(path + ".partial", "w") as f:
            f.write('<?xml version="1.0" encoding="utf-8"?>\n<opml version="2.0"><head>'
                    "<title>The fleet of issue 25</title></head><body>\n")
            for folder in range(20):
                f.write('<outline text="Folder %d">\n' % folder)
                for feed in self.feeds[folder::20]:
                    f.write('  <outline type="rss" text="Feed %d" title="Feed %d" xmlUrl="%s"/>\n'
                            % (feed.id, feed.id, self.url(feed)))
                f.write("</outline>\n")
            f.write("</body></opml>\n")
        os.replace(path + ".partial", path)

    def write_truth(self, path):
        with open(path + ".partial", "w") as f:
            f.write("feed\turl\tcategory\titems\thint\tretry_after\n")
            for feed in self.feeds:
                f.write("%d\t%s\t%s\t%d\t%s\t%d\n" % (feed.id, self.url(feed), feed.category, feed.truth_items(),
                                                      feed.hint, RETRY_AFTER if feed.category == "503" else 0))
        os.replace(path + ".partial", path)


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    fleet = None

    def log_message(self, *args):
        pass

    def reply(self, status, headers=(), body=b""):
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if body and self.command != "HEAD":
            self.wfile.write(body)

    def do_HEAD(self):
        self.do_GET()

    def do_GET(self):
        if not self.client_address[0].startswith("127."):
            self.close_connection = True
            return
        fleet = self.fleet
        parts = self.path.split("?")[0].strip("/").split("/")
        if parts[0] == "_round" and len(parts) == 2:
            with fleet.lock:
                fleet.round = int(parts[1])
            return self.reply(200, body=b"round %d\n" % fleet.round)
        if parts[0] == "_hits":
            with fleet.lock:
                body = "".join("%d %d %d\n" % hit for hit in fleet.hits).encode()
            return self.reply(200, [("Content-Type", "text/plain")], body)
        try:
            feed = fleet.feeds[int(parts[1])]
            if fleet.hosts[feed.host] != self.server.server_address[0]:
                raise LookupError
        except (IndexError, ValueError, LookupError):
            return self.reply(404, body=b"no such feed\n")
        with fleet.lock:
            rnd = fleet.round
        status = self.answer(feed, parts, rnd)
        with fleet.lock:
            fleet.hits.append((rnd, feed.id, status))

    def answer(self, feed, parts, rnd):
        kind, category = parts[0], feed.category
        if category in ERRORS:
            headers = [("Retry-After", str(RETRY_AFTER))] if category == "503" else []
            self.reply(ERRORS[category], headers, b"error\n")
            return ERRORS[category]
        if category == "loop":
            target = "/loop/%d" % feed.id if kind == "feed" else "/feed/%d" % feed.id
            self.reply(302, [("Location", self.fleet.url(feed, target))])
            return 302
        if kind == "feed" and category in ("301", "302"):
            target = "/moved/%d" % feed.id if category == "301" else "/temp/%d" % feed.id
            status = 301 if category == "301" else 302
            self.reply(status, [("Location", self.fleet.url(feed, target))])
            return status
        if category == "slow":
            time.sleep(self.fleet.slow)
        version = feed.version(rnd)
        etag, modified = feed.etag(version), feed.modified(version)
        headers = []
        if feed.sends_etag:
            headers.append(("ETag", etag))
        if feed.sends_modified:
            headers.append(("Last-Modified", modified))
        if feed.hint in ("hot", "hot+ttl"):
            headers.append(("Cache-Control", "max-age=1"))
        elif feed.hint == "maxage":
            headers.append(("Cache-Control", "max-age=1800"))
        inm = self.headers.get("If-None-Match")
        ims = self.headers.get("If-Modified-Since")
        if inm is not None and feed.sends_etag:
            fresh = etag in [tag.strip() for tag in inm.split(",")]
        elif ims is not None and feed.sends_modified:
            fresh = ims == modified
        else:
            fresh = False
        if fresh:
            self.reply(304, headers)
            return 304
        self.reply(200, headers + [("Content-Type", "application/rss+xml; charset=utf-8")], feed.bodies[version])
        return 200


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 256
    allow_reuse_address = True


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("dir")
    parser.add_argument("--feeds", type=int, default=2000)
    parser.add_argument("--hosts", type=int, default=64)
    parser.add_argument("--seed", type=int, default=25)
    parser.add_argument("--slow", type=float, default=5.0)
    parser.add_argument("--limit", type=float, default=900.0, help="seconds before it stops by itself")
    args = parser.parse_args()

    fleet = Fleet(args.feeds, args.hosts, args.seed, args.slow)
    Handler.fleet = fleet
    servers = []
    for host in ["127.0.0.1"] + fleet.hosts:
        server = Server((host, 0), Handler)
        fleet.ports[host] = server.server_address[1]
        servers.append(server)
        threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 1.0}, daemon=True).start()
    os.makedirs(args.dir, exist_ok=True)
    fleet.write_opml(os.path.join(args.dir, "subs.opml"))
    fleet.write_truth(os.path.join(args.dir, "truth.tsv"))
    items = sum(len(b) for f in fleet.feeds for b in f.bodies.values())
    print("ready http://127.0.0.1:%d (%d feeds on %d hosts, %d bytes of feeds)"
          % (fleet.ports["127.0.0.1"], len(fleet.feeds), len(fleet.hosts), items), flush=True)
    time.sleep(args.limit)
    print("server.py: %g s limit reached, stopping" % args.limit, file=sys.stderr, flush=True)
    os._exit(0)


if __name__ == "__main__":
    main()
