/// The words of `ingest help feed`, each line within 80 columns.
enum FeedHelp {
    static let discussion = """
        Each source is RSS 0.90-2.0, RSS 1.0, Atom 0.3/1.0 or JSON Feed 1.0/1.1,
        told from its content. --to db (the default) keeps an archive, feeds.db:
        tables feeds (one row per source, with its ETag, Last-Modified and the last
        fetch's status), items, enclosures, categories and authors. Re-running is the
        normal case: an item already stored (same feed and guid; else link; else
        title and date) is updated in place if it changed, a new one is inserted,
        nothing is duplicated or deleted. Each source is one transaction: all of it
        or, if it fails, nothing but its status. --to postgres --db URI keeps the
        same archive in a PostgreSQL database (--db as for ingest import).

        URLs are fetched at most --jobs at a time, conditionally (If-None-Match,
        If-Modified-Since; a 304 records only the fetch), gzip-encoded, following
        redirects (a 301 or 308 moves the stored URL), with a User-Agent naming
        ingest.

        Every fetch sets the feed's next_fetch: after a success, the longest of the
        response's Cache-Control max-age (or Expires), the feed's <ttl> and its
        sy:updatePeriod/updateFrequency, else an hour (a week at most); after
        failures, 15 minutes doubling up to a day; later if Retry-After says so;
        past the feed's skipHours and skipDays. --due reads only the sources whose
        next_fetch has come, for a cron job run every few minutes. With --to
        postgres, --due runs on many hosts share the archive: each claims a feed
        (feed_leases) before fetching it, so each due feed is fetched once.

        Descriptions and content are HTML written by each feed's publisher. An
        archive stores them sanitized (--html safe, the default there): only
        elements and attributes that present text are kept; scripts, style sheets,
        frames, forms, event handlers and links other than http(s), mailto or
        relative are dropped. --html original stores them as given. json and ndjson
        write them as given (gofeed's JSON), unless --html safe.

        --opml FILE reads the subscriptions of a feed reader's OPML export as
        sources, keeping their folders in the archive; --export-opml FILE writes
        the archive's feeds as OPML 2.0, alone or after reading.

        A URL that answers with an HTML page is read for the feeds it advertises
        (<link rel="alternate" type="application/rss+xml" ...>): the first is read
        and kept as the source's URL; with --all, every one, each its own source.
        An HTML file stands for the feeds it advertises in the same way.

        A directory stands for the regular files directly in it, in name order,
        less hidden ones and the run's output. A failed URL is recorded on its row
        for the next run; a file that cannot be read or is no feed gets no row. -v
        counts the feeds that were not well-formed XML; --report FILE writes a JSON
        account of the run.

        EXAMPLES
          ingest feed Samples/podcast.rss            archive into feeds.db
          ingest feed https://example.org/feed.xml https://example.org/atom --jobs 8
          ingest feed https://example.org/feed.xml --to postgres \\
              --db postgresql://me@db.example.org/news  the archive in PostgreSQL
          ingest feed https://site.example/          the feed the site's page advertises
          ingest feed --opml subscriptions.opml      a reader's subscriptions
          ingest feed --export-opml subscriptions.opml   the archive's, as OPML
          ingest feed podcast.rss --to json --out -  gofeed's JSON on standard output
          ingest feed a.rss b.atom --to ndjson --out items.ndjson
          ingest feed saved/ --report run.json       every feed file in saved/
          ingest feed $(cat urls.txt) --due -q       from cron: only what is due
          curl -s URL | ingest feed -                read standard input

        EXIT STATUS (sysexits)
          0 every source read or not modified, 64 usage, 65 not a feed or a URL that
          cannot be fetched (a port past 65535, a redirect to no host), 66 missing
          file, a directory without feed files or HTTP 404/410/4xx, 73 output
          cannot be written, 74 I/O error, 75 only temporary failures (network,
          timeout, 5xx, 429, PostgreSQL down or restarting): the other sources were
          stored; try again later.
        """
}
