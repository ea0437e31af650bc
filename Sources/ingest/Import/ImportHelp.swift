/// The words of `ingest help import`: how records are found, what is written, and
/// examples, each line within 80 columns.
enum ImportHelp {
    static let discussion = """
        XML: records are the child elements of the document element, or the elements
        --records names. Attributes and leaf children become columns, typed from the
        values; nested or repeated children are kept as JSON. JSON: records are the
        items of a top-level array, or of each array member of the top-level object;
        with --nl every line is one. In --records a JSON array's items are "item".

        Nothing is lost: the output is built beside the target and renamed into place
        only when every input was read. An existing output is refused unless --replace
        or --append; --append writes in one transaction. Runs on the same output take
        turns (a lock beside it): a second one waits up to --lock-timeout seconds,
        then exits 75. Compressed inputs (gzip, bzip2, xz, zstd) are read as they
        are, recognised by their first bytes.

        On a terminal a progress line and a summary are printed on standard error; off
        one (cron) nothing is, unless --verbose. --report FILE writes a JSON account.

        EXAMPLES
          ingest folks.xml                        folks.db, table people
          ingest folks.xml --to plist             folks.plist (XML property list)
          ingest folks.xml --to archive           folks.archive, class Person
          ingest folks.xml --to postgres --db postgresql:///mydb   table people
          ingest folks.xml --to ndjson --out -    one JSON object a line on stdout
          ingest feed.rss --records rss/channel/item --out items.db
          ingest export.json --records data/results/item
          zcat log.jsonl.gz | ingest - --nl --out log.db
          ingest logs/*.ndjson --nl --out logs.db --jobs 4   4 parsed at once
          ingest big.ndjson --out big.db --jobs 5            in 4 parts at once
          ingest nightly.xml.gz --append --report run.json       (cron)
          ingest nightly.xml --append --alter --out archive.db   may add columns
          ingest folks.xml --xpath "//person[lastName='Doright']"
          ingest feed.atom --xpath //a:entry --ns a=http://www.w3.org/2005/Atom
          ingest folks.xml --validate Schemas/folks.xsd
          ingest people.xml --schema Schemas/people-with-tags.json --upsert \\
                 --out people.db
          ingest people.xml --schema s.json --on-error skip --rejects bad.ndjson
          ingest events-2024-02.ndjson --table events --pk id --upsert \\
                 --out events.db          one table; a stored id updates its row
          ingest mail.xml --parser libxml2        a stateful encoding (ISO-2022-JP)
          ingest suspect.xml --parse-only && echo well-formed

        EXIT STATUS (sysexits)
          0 success          64 usage           65 malformed or invalid input
          66 missing input   73 output exists or cannot be created
          74 I/O error       75 temporary failure (try again later)
        """
}
